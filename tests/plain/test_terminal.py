"""The real `claude-harness --plain` in tmux against the scripted Messages API server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import conversation

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]

READY = "shift+tab to cycle"  # the bottom toolbar: the prompt is up
ANSWER = ("Here is the answer.\n\nIt has a second paragraph that streams in small chunks "
          "and settles.")


def test_prompt_streams_answer_into_scrollback(plain_tmux: Any) -> None:
    session, server = plain_tmux([{"content": [ANSWER], "chunk_size": 5, "delay": 0.01}])
    session.wait_for(READY)
    session.type("say something")
    session.send("Enter")
    screen = session.wait_for("settles.")
    lines = [line.rstrip() for line in screen.splitlines()]
    assert "> say something" in lines
    assert "Here is the answer." in lines
    assert "It has a second paragraph that streams in small chunks and settles." in lines
    # The answer's user message reached the API as typed.
    sent = conversation(server.requests[-1])[-1]["content"]
    assert any(b.get("text") == "say something" for b in sent)


def test_bash_write_asks_and_is_approved_with_1(plain_tmux: Any, project: Path) -> None:
    turns = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch x"}}]},
        "Created the file.",
    ]
    session, _server = plain_tmux(turns)
    session.wait_for(READY)
    session.type("make x")
    session.send("Enter")
    screen = session.wait_for("Do you want to proceed?")
    assert "touch x" in screen
    assert not (project / "x").exists()
    session.send("1")
    session.wait_for("Created the file.")
    assert (project / "x").exists()


def test_shift_tab_changes_the_mode_shown(plain_tmux: Any) -> None:
    session, _server = plain_tmux([])
    session.wait_for("default mode")
    session.send("BTab")
    session.wait_for("accept edits on")
    session.send("BTab")
    session.wait_for("plan mode on")


def test_ctrl_c_stops_a_long_bash_call_and_the_next_prompt_works(plain_tmux: Any) -> None:
    turns = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "sleep 30"}}]},
        "Second answer after the interrupt.",
    ]
    session, server = plain_tmux(turns, "--allowedTools", "Bash(sleep *)")
    session.wait_for(READY)
    session.type("wait a while")
    session.send("Enter")
    session.wait_for("Bash(sleep 30)")
    started = time.monotonic()
    session.send("C-c")
    session.wait_for(lambda s: READY in s.partition("Interrupted")[2], timeout=10)
    assert time.monotonic() - started < 10  # not the 30 s the command would take
    session.type("carry on")
    session.send("Enter")
    session.wait_for("Second answer after the interrupt.")
    last = server.requests[-1]["messages"]
    assert any(b.get("text") == "carry on" for b in last[-1]["content"])


def test_ctrl_c_twice_on_an_empty_line_exits(plain_tmux: Any) -> None:
    session, _server = plain_tmux([])
    session.wait_for(READY)
    session.type("draft")
    session.send("C-c")  # clears the draft, does not count towards exit
    session.wait_for(lambda s: "draft" not in s)
    session.send("C-c")
    session.wait_for("Press Ctrl+C again to exit.")
    session.send("C-c")
    session.wait_for("[exited 0]")


def test_newline_keys_and_history_shared_across_sessions(plain_tmux: Any, home: Path,
                                                         project: Path) -> None:
    session, server = plain_tmux(["One.", "Two."])
    session.wait_for(READY)
    session.type("line one\\")
    session.send("Enter")  # backslash + Enter: newline, not send
    session.type("line two")
    session.send("M-Enter")  # Alt+Enter: newline
    session.type("line three")
    session.send("Enter")
    session.wait_for("One.")
    sent = conversation(server.requests[-1])[-1]["content"]
    assert "line one\nline two\nline three" in [b.get("text") for b in sent]
    session.type("/exit")
    session.send("Enter")
    session.wait_for("[exited 0]")
    history = list((home / "data" / "history").glob("*.jsonl"))
    assert len(history) == 1 and "line three" in history[0].read_text()

    again, server2 = plain_tmux(["Two."])
    again.wait_for(READY)
    again.send("Up")
    again.send("Up")  # the newest entry is /exit; before it, the three-line prompt
    again.wait_for("line three")
    again.send("Enter")
    again.wait_for("Two.")
    sent = conversation(server2.requests[-1])[-1]["content"]
    assert "line one\nline two\nline three" in [b.get("text") for b in sent]


def test_escape_declines_a_permission_request(plain_tmux: Any, project: Path) -> None:
    turns = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch nope"}}]},
        "Fine, I will not.",
    ]
    session, server = plain_tmux(turns)
    session.wait_for(READY)
    session.type("try it")
    session.send("Enter")
    screen = session.wait_for("Do you want to proceed?")
    assert "needs approval" in screen  # the checker's reason is shown
    session.send("Escape")
    session.wait_for("Fine, I will not.")
    assert not (project / "nope").exists()
    result = conversation(server.requests[-1])[-1]["content"][0]
    assert result["type"] == "tool_result" and result["is_error"] is True


def test_long_answer_streams_before_it_is_complete(plain_tmux: Any) -> None:
    paragraphs = [f"Paragraph number {i} of the long answer." for i in range(1, 13)]
    session, _server = plain_tmux([{"content": ["\n\n".join(paragraphs)], "chunk_size": 8,
                                    "delay": 0.05}])
    session.wait_for(READY)
    session.type("long one")
    session.send("Enter")
    early = session.wait_for("Paragraph number 2 of")
    assert "Paragraph number 12 of the long answer." not in early  # shown while streaming
    final = session.wait_for(lambda s: READY in s.partition("number 12 of")[2], timeout=30)
    lines = [line.rstrip() for line in final.splitlines()]
    for text in paragraphs:
        assert lines.count(text) == 1  # settled once, not duplicated by the live tail


def test_escape_interrupts_and_keys_typed_during_a_turn_wait_for_the_next_prompt(
        plain_tmux: Any) -> None:
    turns = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "sleep 30"}}]},
        "Continuing as asked.",
    ]
    session, server = plain_tmux(turns, "--allowedTools", "Bash(sleep *)")
    session.wait_for(READY)
    session.type("wait")
    session.send("Enter")
    session.wait_for("Bash(sleep 30)")
    session.type("queued words")
    session.send("BTab")  # Shift+Tab mid-turn still cycles the mode
    session.wait_for("accept edits on")
    before = session.screen().partition("Bash(sleep 30)")[2]
    assert "queued words" not in before  # not echoed into the answer
    started = time.monotonic()
    session.send("Escape")
    screen = session.wait_for(lambda s: READY in s.partition("Interrupted")[2], timeout=10)
    assert time.monotonic() - started < 10
    assert "> queued words" in screen.partition("Interrupted")[2]
    assert "accept edits on (shift+tab to cycle)" in screen.splitlines()[-1]
    session.send("Enter")
    session.wait_for("Continuing as asked.")
    sent = conversation(server.requests[-1])[-1]["content"]
    assert "queued words" in [b.get("text") for b in sent]


def test_dumb_terminal_gets_plain_lines_and_ctrl_c_still_interrupts(plain_tmux: Any,
                                                                   home: Path) -> None:
    turns = [
        {"content": ["Working on it.", {"type": "tool_use", "name": "Bash",
                                        "input": {"command": "sleep 30"}}]},
        "Next answer.",
    ]
    session, _server = plain_tmux(turns, "--allowedTools", "Bash(sleep *)",
                                  env={"TERM": "dumb"})
    session.wait_for("Permission mode: default")
    session.type("go")
    session.send("Enter")
    session.wait_for("Bash(sleep 30)")
    started = time.monotonic()
    session.send("C-c")
    session.wait_for("Interrupted", timeout=10)
    assert time.monotonic() - started < 10
    session.type("again")
    session.send("Enter")
    session.wait_for("Next answer.")
    assert "\x1b[" not in session.screen(styled=True)  # no colour, no cursor movement
    history = list((home / "data" / "history").glob("*.jsonl"))
    assert len(history) == 1 and "\"again\"" in history[0].read_text()  # typed: remembered
    session.send("C-c")
    session.wait_for("Press Ctrl+C again to exit.")
    session.send("C-c")
    session.wait_for("[exited 0]")


def test_colours_on_a_real_terminal_and_none_with_no_color(plain_tmux: Any) -> None:
    session, _server = plain_tmux(["Hello."])
    session.wait_for(READY)
    assert "\x1b[" in session.screen(styled=True)  # the styled banner and toolbar
    plain, _server2 = plain_tmux(["Hello."], env={"NO_COLOR": "1"})
    plain.wait_for(READY)
    plain.type("hi")
    plain.send("Enter")
    plain.wait_for("Hello.")
    styled = plain.screen(styled=True)
    assert "\x1b[38" not in styled and "\x1b[3" + "1m" not in styled  # no foreground colours


def test_no_with_feedback_tells_the_model_what_to_do_instead(plain_tmux: Any,
                                                             project: Path) -> None:
    turns = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "rm -rf dist"}}]},
        "Keeping dist.",
    ]
    session, server = plain_tmux(turns)
    session.wait_for(READY)
    session.type("clean")
    session.send("Enter")
    session.wait_for("Do you want to proceed?")
    session.send("3")
    session.wait_for("What should the model do instead?")
    session.type("keep dist, delete build")
    session.send("Enter")
    session.wait_for("Keeping dist.")
    result = conversation(server.requests[-1])[-1]["content"][0]
    assert result["is_error"] is True
    assert "keep dist, delete build" in str(result["content"])


def test_theme_colours_map_onto_the_output(plain_tmux: Any) -> None:
    session, _server = plain_tmux([], "--theme", "light", env={"COLORTERM": "truecolor"})
    session.wait_for(READY)
    banner = session.screen(styled=True).partition("claude-harness ·")[0]
    assert "38;2;180;83;42" in banner  # light.toml primary #b4532a on the banner
    other, _server2 = plain_tmux([], "--theme", "high-contrast", env={"COLORTERM": "truecolor"})
    other.wait_for(READY)
    assert "38;2;255;255;0" in other.screen(styled=True).partition("claude-harness ·")[0]


@pytest.mark.parametrize("stop_key", ["C-c", "Escape"])
def test_a_bang_command_runs_directly_and_can_be_stopped(plain_tmux: Any, project: Path,
                                                         stop_key: str) -> None:
    session, server = plain_tmux(["Noted."])
    session.wait_for(READY)
    session.type("!echo direct > made.txt; cat made.txt")
    session.send("Enter")
    session.wait_for("⎿ direct")
    assert (project / "made.txt").read_text() == "direct\n"
    session.type("!sleep 30")
    session.send("Enter")
    session.wait_for("Running the command")
    started = time.monotonic()
    session.send(stop_key)
    session.wait_for(lambda s: READY in s.partition("Stopped !sleep 30")[2], timeout=10)
    assert time.monotonic() - started < 10
    session.type("what happened?")
    session.send("Enter")
    session.wait_for("Noted.")
    texts = [b.get("text", "") for b in conversation(server.requests[-1])[-1]["content"]]
    assert any("<bash-stdout>direct\n</bash-stdout>" in t for t in texts)
    assert "what happened?" in texts


def test_first_start_asks_to_trust_the_folder(plain_tmux: Any, home: Path,
                                              project: Path) -> None:
    from claude_harness.config.trust import is_trusted

    session, _server = plain_tmux(["ok"], trusted=False)
    session.wait_for("Do you trust the files in this folder?")
    session.type("1")
    session.send("Enter")
    session.wait_for(READY)
    assert is_trusted(home / "data", project.resolve())
