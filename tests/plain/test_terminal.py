"""The real `claude-harness --plain` in tmux against the scripted Messages API server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(90)

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
    sent = server.requests[-1]["messages"][-1]["content"]
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
