"""The slash commands in the plain REPL: over pipes for the answers and their effects
(settings written, the side question kept out of the history, the diff of this session's
edits), and in tmux for the terminal's part (/copy's OSC 52 landing in tmux's buffer)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from claude_harness import __version__
from claude_harness.testing.mock_api import MockApiServer
from tests.plain.test_line_mode import run_piped

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]
READY = "(shift+tab to cycle)"


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": name, "input": inp}]}


def test_btw_answers_but_the_next_request_holds_neither_question_nor_answer(
        project: Path, home: Path) -> None:
    turns = ["First answer.", "It is 42.", "Second answer."]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server,
                         "hello\n/btw what is the answer\nnext please\n/usage\n")
        requests = server.requests
    assert done.returncode == 0, done.stderr
    assert "It is 42." in done.stdout
    side = json.dumps(requests[1]["messages"])
    assert "what is the answer" in side and "First answer." in side  # the conversation as context
    following = json.dumps(requests[2]["messages"])
    assert "next please" in following and "First answer." in following
    assert "what is the answer" not in following and "It is 42." not in following
    assert "Total cost:" in done.stdout and "Input tokens:" in done.stdout


def test_btw_as_the_last_piped_line_still_prints_its_answer(project: Path, home: Path) -> None:
    """The end of the input does not drop an answer on its way (it once did: the REPL left as
    soon as it read EOF, and the side request was cut off)."""
    turns = ["First answer.", {"content": ["It is 42."], "delay": 0.05}]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server, "hello\n/btw what is the answer\n")
        asked = len(server.requests)
    assert done.returncode == 0, done.stderr
    assert asked == 2 and "It is 42." in done.stdout
    assert done.stdout.index("It is 42.") < done.stdout.index("Resume this conversation")


def test_vim_statusline_login_logout_write_the_user_settings(project: Path, home: Path) -> None:
    settings = home / ".claude" / "settings.json"
    with MockApiServer({"turns": []}) as server:
        done = run_piped(project, home, server,
                         "/vim\n/statusline ~/bin/status.sh\n/login sk-ant-test-123\n")
        saved = json.loads(settings.read_text())
        assert saved["editorMode"] == "vim"
        assert saved["statusLine"] == {"type": "command", "command": "~/bin/status.sh"}
        key_file = home / ".claude" / "harness-api-key"
        assert key_file.read_text() == "sk-ant-test-123\n"
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert subprocess.run(saved["apiKeyHelper"], shell=True, capture_output=True,
                              text=True).stdout.strip() == "sk-ant-test-123"
        again = run_piped(project, home, server, "/vim\n/logout\n/statusline off\n")
    assert done.returncode == 0 and again.returncode == 0, done.stderr + again.stderr
    assert "Editor mode set to vim" in done.stdout
    assert "Subscription sign-in is not offered" in done.stdout
    saved = json.loads(settings.read_text())
    assert saved["editorMode"] == "normal"
    assert "apiKeyHelper" not in saved and "statusLine" not in saved
    assert not key_file.exists()
    assert "Removed the API key" in again.stdout


def test_diff_fork_skills_keybindings_release_notes_and_unavailable(
        project: Path, home: Path) -> None:
    target = project / "notes.txt"
    target.write_text("one\ntwo\n")
    skill = project / ".claude" / "skills" / "tidy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: tidy\ndescription: Tidy the imports\n---\nTidy them.\n")
    turns = [tool("Read", file_path=str(target)),
             tool("Edit", file_path=str(target), old_string="two", new_string="TWO"), "Done."]
    with MockApiServer({"turns": turns}) as server:
        done = run_piped(project, home, server,
                         "edit it\n/diff\n/fork side branch\n/skills\n/keybindings\n"
                         "/release-notes\n/ide\n/upgrade\n/bug\n/bashes\n/help\n",
                         "--permission-mode", "acceptEdits")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "-two" in out and "+TWO" in out and "a/notes.txt" in out
    forked = out.partition("into session ")[2].split(";")[0]
    fork_file = next((home / ".claude" / "projects").rglob(f"{forked}.jsonl"))
    assert "edit it" in fork_file.read_text() and "side branch" in fork_file.read_text()
    assert "/tidy" in out and "Tidy the imports" in out and "[project]" in out
    assert "Ctrl+R" in out and str(home / ".claude" / "keybindings.json") in out
    assert f"Version {__version__}:" in out and "/release-notes" in out
    assert "/ide is not available in claude-harness: connecting to an IDE" in out
    assert "/upgrade is not available" in out and "/feedback is not available" in out
    assert "Unknown command" not in out
    help_text = out.rpartition("> /help")[2]
    assert "Not available here (each says why): /ide" in help_text
    assert "\n/ide " not in help_text and "/btw" in help_text  # listed once, not as a row


def test_review_and_plan_send_their_prompts(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["Reviewed.", "Secure.", "Planned."]}) as server:
        done = run_piped(project, home, server,
                         "/review 123\n/security-review\n/plan add a cache\n")
        requests = server.requests
    assert done.returncode == 0, done.stderr
    review = json.dumps(requests[0]["messages"])
    assert "gh pr diff 123" in review and "bugs" in review
    assert "<command-name>/review</command-name>" in review  # as a custom command's message
    assert "<command-args>123</command-args>" in review
    assert "security review" in json.dumps(requests[1]["messages"][-1])
    assert "add a cache" in json.dumps(requests[2]["messages"])
    assert "plan" in json.dumps(requests[2]).lower()
    assert "Planned." in done.stdout


def test_copy_sends_osc52_that_tmux_keeps(plain_tmux: Any) -> None:
    session, _server = plain_tmux(["The answer to copy."], env={"DISPLAY": "",
                                                                "WAYLAND_DISPLAY": ""})
    session._tmux("set-option", "-s", "set-clipboard", "on")
    session.wait_for(READY)
    session.type("say it")
    session.send("Enter")
    session.wait_for(lambda s: "\n>" in s.partition("The answer to copy.")[2])
    session.type("/copy")
    session.send("Enter")
    session.wait_for("Copied the last answer (19 characters) through the terminal (OSC 52)")
    assert session._tmux("show-buffer") == "The answer to copy."


def test_btw_fork_and_vim_in_the_terminal(plain_tmux: Any, home: Path) -> None:
    session, server = plain_tmux(["First answer.", "Side answer 7.", "Second answer."])
    session.wait_for(READY)
    session.type("hello")
    session.send("Enter")
    session.wait_for(lambda s: "\n>" in s.partition("First answer.")[2])
    session.type("/btw which number")
    session.send("Enter")
    session.wait_for("Side answer 7.")
    session.type("/fork")
    session.send("Enter")
    screen = session.wait_for("continue it with")
    forked = screen.partition("into session ")[2].split(";")[0].strip()
    assert next((home / ".claude" / "projects").rglob(f"{forked}.jsonl")).exists()
    session.type("/vim")
    session.send("Enter")
    session.wait_for("Editor mode set to vim")
    session.type("and now")
    session.send("Enter")
    session.wait_for("Second answer.")
    following = json.dumps(server.requests[2]["messages"])
    assert "and now" in following and "First answer." in following
    assert "which number" not in following and "Side answer 7." not in following
    saved = json.loads((home / ".claude" / "settings.json").read_text())
    assert saved["editorMode"] == "vim"


def test_statusline_with_a_description_asks_the_model(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["I will write it."]}) as server:
        done = run_piped(project, home, server, "/statusline show the git branch and model\n")
        asked = json.dumps(server.requests[0]["messages"])
    assert done.returncode == 0, done.stderr
    assert "show the git branch and model" in asked and "statusLine" in asked
    assert "I will write it." in done.stdout
    assert not (home / ".claude" / "settings.json").exists()  # the model writes it, not us


def test_print_mode_answers_session_commands_and_sends_review(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["Looks fine."]}) as server:
        notes = run_piped(project, home, server, "", "-p", "/release-notes")
        usage = run_piped(project, home, server, "", "-p", "/usage", "--output-format", "json")
        review = run_piped(project, home, server, "", "-p", "/review 9")
        asked = json.dumps(server.requests[0]["messages"])
        count = len(server.requests)
    assert notes.returncode == usage.returncode == review.returncode == 0, notes.stderr
    assert f"Version {__version__}:" in notes.stdout
    assert "Output tokens:" in json.loads(usage.stdout)["result"]
    assert "Looks fine." in review.stdout and "gh pr diff 9" in asked
    assert count == 1  # only /review reached the model


def test_branch_goes_on_in_a_new_session_and_leaves_the_old_one(project: Path,
                                                                home: Path) -> None:
    with MockApiServer({"turns": ["First answer.", "Branch answer."]}) as server:
        done = run_piped(project, home, server, "hello\n/branch\nafter the branch\n")
        second = json.dumps(server.requests[1]["messages"])
    out = done.stdout
    assert done.returncode == 0, done.stderr
    new_id = out.partition("Now on a branch of this conversation (session ")[2].split(")")[0]
    old_id = out.partition("stays as session ")[2].split(" ")[0]
    files = {p.stem: p.read_text() for p in (home / ".claude" / "projects").rglob("*.jsonl")
             if p.stem in (new_id, old_id)}
    assert "hello" in files[old_id] and "after the branch" not in files[old_id]
    assert "hello" in files[new_id] and "after the branch" in files[new_id]
    assert "Branch answer." in files[new_id] and "Branch answer." not in files[old_id]
    assert "hello" in second and "First answer." in second  # the branch keeps the context
    assert f"claude-harness -r {new_id}" in out  # the exit line names the branch
