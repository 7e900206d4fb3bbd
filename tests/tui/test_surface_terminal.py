"""The surface in the installed app, in a real terminal (tmux) against the scripted
server: the first prompt on the command line (and piped with it), text typed as people type
it (grapheme clusters kept whole), what is typed into searches shown as it is typed."""

from __future__ import annotations

import shlex
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = [pytest.mark.skipif(not BINARY.exists(),
                                 reason="claude-harness is not installed in this venv"),
              pytest.mark.timeout(90)]


def sent_texts(server: Any, index: int = 0) -> list[str]:
    """Every text block the user's messages of request `index` carried, as the server got
    them (reminders ride in their own blocks)."""
    texts: list[str] = []
    for message in server.requests[index]["messages"]:
        content = message["content"]
        if message["role"] != "user":
            continue
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        texts += [b["text"] for b in blocks if b.get("type") == "text"]
    return texts


def wait_requests(server: Any, count: int, term: Any) -> None:
    deadline = time.monotonic() + 20
    while len(server.requests) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(server.requests) >= count, term.screen()


def test_the_prompt_on_the_command_line_is_sent(api: Any, terminal: Any) -> None:  # noqa: F811
    server = api(["Fixed the tests."])
    term = terminal(app_env(), shlex.quote("fix the tests"))
    screen = term.wait("Fixed the tests.")
    assert "fix the tests" in screen  # shown as the user's prompt
    wait_requests(server, 1, term)
    assert "fix the tests" in sent_texts(server)
    term.keys("and more", literal=True)  # the prompt is free for the next one
    term.wait("and more")


def test_piped_stdin_joins_the_prompt_and_keys_still_work(api: Any, terminal: Any,  # noqa: F811
                                                          project: Path) -> None:
    server = api(["Read the log.", "Second answer."])
    (project / "log.txt").write_text("line one\nline two\n")
    term = terminal(app_env(), shlex.quote("explain this") + " < log.txt")
    term.wait("Read the log.")
    wait_requests(server, 1, term)
    assert "explain this\nline one\nline two" in sent_texts(server)  # as Claude Code joins them
    term.keys("typed after the pipe", literal=True)  # keys come from the terminal
    term.keys("Enter")
    term.wait("Second answer.")
    assert "typed after the pipe" in sent_texts(server, 1)



def press(term: Any, *keys: str) -> None:
    """One key at a time, as fingers press them (a burst of escape sequences in one read is
    another test: Textual's parser may merge them)."""
    for key in keys:
        term.keys(key)
        time.sleep(0.3)


TYPED = "👩‍👩‍👧 e\u0301 🇫🇷 中文 👍🏽 a👩‍👩‍👧b"  # ZWJ family, e + combining acute, a flag, CJK, a skin tone


def test_graphemes_are_sent_whole_and_the_cursor_steps_over_them(
        api: Any, terminal: Any) -> None:  # noqa: F811
    server = api(["Got it."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys(TYPED, literal=True)
    term.wait("a👩‍👩‍👧b")
    press(term, "Left", "BSpace")  # Backspace takes the whole family before the b
    term.wait(" ab")
    term.keys("X", literal=True)
    term.wait("aXb")
    press(term, "Home", "Right", "Right", "Delete")  # Right over the family, Delete takes é
    term.wait("👩‍👩‍👧  🇫🇷")
    press(term, "Right", "Right")  # over the space and the whole flag
    term.keys("!", literal=True)
    screen = term.wait("🇫🇷!")
    lines = screen.splitlines()
    row = next(i for i, line in enumerate(lines) if "aXb" in line)
    # the input is drawn between two rules: nothing at its sides for a wide glyph to push
    above, below = lines[row - 1].strip(), lines[row + 1].strip()
    assert above == below and set(above) == {"─"} and len(above) >= 80
    assert "│" not in lines[row]
    term.keys("Enter")
    term.wait("Got it.")
    assert "👩‍👩‍👧  🇫🇷! 中文 👍🏽 aXb" in sent_texts(server)  # byte for byte


def earlier_sessions(project: Path, *prompts: str) -> None:
    """Real earlier conversations in this folder: one `claude-harness -p` run per prompt."""
    from claude_harness.testing.mock_api import MockApiServer

    for prompt in prompts:
        with MockApiServer({"turns": [f"Answer to {prompt}."]}) as server:
            env = {**app_env(), "ANTHROPIC_BASE_URL": server.url}
            done = subprocess.run([str(BINARY), "-p", prompt], cwd=project, env=env,
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr


def test_the_ctrl_r_query_shows_as_it_is_typed(api: Any, terminal: Any) -> None:  # noqa: F811
    api(["Deployed."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("deploy the staging server", literal=True)
    term.keys("Enter")
    term.wait("Deployed.")
    term.keys("C-r")
    term.wait("Ctrl+R older match")
    term.keys("stag", literal=True)
    screen = term.wait("│ stag ")  # the query itself, in the search box
    box = screen[screen.rindex("│ stag "):]
    assert "deploy the staging server" in box  # and the match under it


def test_the_resume_search_shows_as_it_is_typed(api: Any, terminal: Any,  # noqa: F811
                                                project: Path) -> None:
    api([])
    earlier_sessions(project, "older topic", "newer topic")
    term = terminal(app_env(), "-r")  # no id: the picker /resume opens too
    term.wait("Resume a conversation")
    term.keys("older", literal=True)
    screen = term.wait("│ older ")
    picker = screen[screen.index("Resume a conversation"):]
    assert "older topic" in picker and "newer topic" not in picker


PLAN = "1. Add the flag\n2. Test it\n\nThen:\n\n3. Ship it"  # short: in view at 30 rows


def test_plan_approval_numbers_without_gaps_and_keeps_the_plans_numbers(
        api: Any, terminal: Any) -> None:  # noqa: F811
    api([{"content": [{"type": "tool_use", "name": "ExitPlanMode", "input": {"plan": PLAN}}]},
         "Starting now."])
    term = terminal(app_env(), "--permission-mode", "plan")
    term.wait("plan mode on")
    term.keys("plan it", literal=True)
    term.keys("Enter")
    screen = term.wait("…or type what the model should do")
    for step in ("1. Add the flag", "2. Test it", "3. Ship it"):
        assert step in screen  # as the model wrote them, period and own start included
    options = screen.partition("Do you want to proceed?")[2]
    assert "1. Yes" in options and "2. No, and tell the model" in options
    assert "3." not in options  # no gap where the absent "don't ask again" would be
    term.keys("1")
    term.wait("Starting now.")


def test_dont_ask_again_for_an_edit_allows_edits_for_the_session(api: Any, terminal: Any,  # noqa: F811
                                                                 project: Path) -> None:
    notes, readme = project / "notes.txt", project / "docs.md"  # new files: no Read first
    api([{"content": [{"type": "tool_use", "name": "Write", "input": {
              "file_path": str(notes), "content": "bye\n"}}]},
         {"content": [{"type": "tool_use", "name": "Write", "input": {
             "file_path": str(readme), "content": "# new\n"}}]},
         "Both done."])
    term = terminal(app_env())
    term.wait("default mode")
    term.keys("edit both", literal=True)
    term.keys("Enter")
    screen = term.wait("…or type what the model should do")
    assert "2. Yes, allow all edits during this session (shift+tab)" in screen
    assert "Edit(/**)" not in screen
    term.keys("2")
    screen = term.wait("Both done.")  # the second edit asked nothing
    assert "accept edits on" in screen
    assert notes.read_text() == "bye\n" and readme.read_text() == "# new\n"
    assert not (project / ".claude" / "settings.local.json").exists()  # no rule saved


def test_a_notice_never_covers_the_prompt(api: Any, terminal: Any) -> None:  # noqa: F811
    api([])
    term = terminal({**app_env(), "EDITOR": "", "VISUAL": ""})
    term.wait("default mode")
    term.keys("a prompt being typed that runs long enough to reach the right-hand side", literal=True)
    term.keys("C-g")  # no $EDITOR: a notice says so, the prompt keeps its text
    screen = term.wait("Set $EDITOR")
    lines = screen.splitlines()
    notice = next(i for i, line in enumerate(lines) if "Set $EDITOR" in line)
    prompt = next(i for i, line in enumerate(lines) if "a prompt being typed" in line)
    assert notice < prompt - 3  # above the input, not over it
    assert "reach the right-hand side" in lines[prompt]  # the typed text is all in view
