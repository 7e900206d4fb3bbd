"""The slash commands in the installed app, in a real terminal (tmux): what each shows
and what it changes (the user settings, the next request the scripted server receives, the
clipboard tmux keeps from OSC 52, the prompt history)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness import __version__
from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not BINARY.exists(),
                                reason="claude-harness is not installed in this venv")


def send(term: Any, line: str) -> None:
    term.keys(line, literal=True)
    term.keys("Enter")


def closed(term: Any, title: str) -> None:
    """Esc until the panel titled `title` is gone."""
    deadline = time.monotonic() + 10
    while title in term.screen():
        assert time.monotonic() < deadline, term.screen()
        term.keys("Escape")
        time.sleep(0.3)


def started(term: Any) -> None:
    """Wait for the agent: /usage answers once it is up (before that it says it is starting)."""
    term.wait("default mode")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        send(term, "/usage")
        try:
            term.wait("Output tokens:", timeout=1.0)
            return
        except AssertionError:
            continue
    raise AssertionError("the agent did not start:\n" + term.screen())


def test_btw_is_answered_and_left_out_of_the_next_request(api: Any,
                                                          terminal: Any) -> None:  # noqa: F811
    server = api(["First answer.", "Side answer 42.", "Second answer."])
    term = terminal(app_env())
    term.wait("default mode")
    send(term, "hello")
    term.wait("First answer.")
    send(term, "/btw what is the number")
    term.wait("Side answer 42.")
    send(term, "go on")
    term.wait("Second answer.")
    side = json.dumps(server.requests[1]["messages"])
    assert "what is the number" in side and "First answer." in side
    following = json.dumps(server.requests[2]["messages"])
    assert "go on" in following and "First answer." in following
    assert "what is the number" not in following and "Side answer 42." not in following


def test_copy_reaches_tmux_through_osc52(api: Any, terminal: Any) -> None:  # noqa: F811
    api(["Copy me please."])
    # no display: the clipboard programs (xclip, wl-copy) are not tried, OSC 52 is the way
    term = terminal({**app_env(), "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    term.run("set-option", "-s", "set-clipboard", "on")
    term.wait("default mode")
    send(term, "say it")
    term.wait("Copy me please.")
    send(term, "/copy")
    term.wait("through the terminal (OSC 52)")
    assert term.run("show-buffer") == "Copy me please."


def test_usage_vim_diff_and_unavailable_commands(api: Any, terminal: Any,  # noqa: F811
                                                 project: Path) -> None:
    api([])
    settings = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"
    term = terminal(app_env())
    started(term)  # /usage answered
    send(term, "/vim")
    term.wait("Editor mode set to vim")
    assert json.loads(settings.read_text())["editorMode"] == "vim"
    send(term, "/diff")
    term.wait("No file changes in this session.")
    send(term, "/install-github-app")
    screen = term.wait("/install-github-app is not available")
    assert "Unknown command" not in screen


def test_login_stores_the_key_but_not_in_the_prompt_history(api: Any, terminal: Any,  # noqa: F811
                                                            project: Path) -> None:
    api([])
    config = Path(os.environ["CLAUDE_CONFIG_DIR"])
    term = terminal(app_env())
    started(term)
    send(term, "/login sk-ant-secret-value")
    term.wait("API key stored in")
    term.wait("Subscription sign-in is not offered.")
    assert (config / "harness-api-key").read_text() == "sk-ant-secret-value\n"
    assert "apiKeyHelper" in json.loads((config / "settings.json").read_text())
    history = list(Path(os.environ["CLAUDE_HARNESS_DATA_DIR"]).rglob("history/*.jsonl"))
    assert all("sk-ant-secret-value" not in h.read_text() for h in history)
    term.keys("Up")
    assert "sk-ant-secret-value" not in term.screen().rpartition("API key stored in")[2]


def test_lists_fork_and_prompt_commands(api: Any, terminal: Any,  # noqa: F811
                                        project: Path) -> None:
    skill = project / ".claude" / "skills" / "tidy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: tidy\ndescription: Tidy the imports\n---\nTidy them.\n")
    server = api(["Reviewed it.", "Nothing exploitable.", "Here is the plan."])
    term = terminal(app_env())
    started(term)
    for line, shown in (("/skills", "Tidy the imports"), ("/keybindings", "keybindings.json"),
                        ("/release-notes", f"Version {__version__}:"), ("/bashes", "Background tasks"),
                        ("/fork", "Nothing to fork yet")):
        send(term, line)
        term.wait(shown)
        if line == "/bashes":  # the tasks panel, as /tasks opens it
            closed(term, "Background tasks")
    send(term, "/review 77")
    term.wait("Reviewed it.")
    send(term, "/security-review")
    term.wait("Nothing exploitable.")
    send(term, "/plan sketch a cache")
    screen = term.wait("Here is the plan.")
    assert "plan mode" in screen
    assert "gh pr diff 77" in json.dumps(server.requests[0]["messages"])
    assert "security review" in json.dumps(server.requests[1]["messages"])
    assert "sketch a cache" in json.dumps(server.requests[2]["messages"][-1])
    send(term, "/fork")
    term.wait("continue it with")


def test_login_without_a_key_makes_the_app_usable_at_once(api: Any, terminal: Any) -> None:  # noqa: F811
    api(["Hello with the key."], api_key="sk-ant-live-1")  # any other key is refused
    env = app_env()
    env["ANTHROPIC_API_KEY"] = ""  # empty: no key (the tmux server inherits ours)
    term = terminal(env)
    term.wait("No API key found")
    started(term)
    send(term, "/login sk-ant-live-1")
    term.wait("in use from now on")
    send(term, "hello")
    term.wait("Hello with the key.")


def test_btw_while_a_turn_runs_leaves_the_turn_alone(api: Any, terminal: Any) -> None:  # noqa: F811
    server = api([{"content": [{"type": "tool_use", "name": "Bash",
                                "input": {"command": "echo working; sleep 4"}}]},
                  "Side answer 9.", "All done."])
    term = terminal(app_env(), "--permission-mode", "bypassPermissions")
    term.wait("bypass permissions on")
    send(term, "run the slow thing")
    term.wait("working")
    send(term, "/btw how long")
    screen = term.wait("Side answer 9.")
    assert "All done." not in screen  # answered while the command still ran
    term.wait("All done.")
    side = json.dumps(server.requests[1]["messages"])
    assert "how long" in side and "run the slow thing" in side
    results = json.dumps(server.requests[2]["messages"])
    assert "tool_result" in results and "how long" not in results
    assert "Side answer 9." not in results


def test_diff_shows_this_sessions_edit(api: Any, terminal: Any,  # noqa: F811
                                       project: Path) -> None:
    target = project / "notes.txt"
    target.write_text("one\ntwo\n")
    api([{"content": [{"type": "tool_use", "name": "Read",
                       "input": {"file_path": str(target)}}]},
         {"content": [{"type": "tool_use", "name": "Edit",
                       "input": {"file_path": str(target), "old_string": "two",
                                 "new_string": "TWO"}}]}, "Edited."])
    term = terminal(app_env(), "--permission-mode", "acceptEdits")
    term.wait("accept edits on")
    send(term, "edit the notes")
    term.wait("Edited.")
    send(term, "/diff")
    screen = term.wait("+++ b/notes.txt").rpartition("/diff")[2]
    assert "--- a/notes.txt" in screen and "-two" in screen and "+TWO" in screen


def test_branch_keeps_the_conversation_on_screen_under_a_new_session(
        api: Any, terminal: Any) -> None:  # noqa: F811
    server = api(["First answer.", "On the branch."])
    term = terminal(app_env())
    term.wait("default mode")
    send(term, "hello")
    term.wait("First answer.")
    send(term, "/branch")
    screen = term.wait("Now on a branch")
    assert "First answer." in screen and "hello" in screen  # redrawn, the same conversation
    send(term, "go on")
    term.wait("On the branch.")
    assert "First answer." in json.dumps(server.requests[1]["messages"])
    data = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"  # where transcripts are written
    transcripts = [p.read_text() for p in data.rglob("*.jsonl") if "checkpoints" not in p.parts
                   and "history" not in p.parts]
    assert sum("go on" in t for t in transcripts) == 1  # only the branch has the new turn
    assert sum("hello" in t for t in transcripts) == 2  # both have the shared part
