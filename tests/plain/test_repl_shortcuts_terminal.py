"""In the real `claude-harness --plain`: the `?` shortcuts panel and Ctrl+_ undo at the
prompt (tmux, as the user sees them), and a prompt on the command line with piped stdin sent as
ONE prompt, as Claude Code sends it (in a terminal, and over pipes with no terminal at all)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness.frontends.plain.keys import UNDO_PAUSE
from claude_harness.testing.mock_api import MockApiServer
from tests.e2e.support import conversation
from tests.plain.test_line_mode import run_piped

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]

READY = "shift+tab to cycle"
PANEL = "ctrl+_ to undo"
PIPED = "some context\nsecond line\n"
JOINED = "summarise this\nsome context\nsecond line"


def user_texts(request: dict[str, Any]) -> list[list[str]]:
    """The text blocks of each user message of a request, as the server got them."""
    texts = []
    for message in conversation(request):
        if message["role"] != "user":
            continue
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        texts.append([b.get("text", "") for b in blocks if b.get("type") == "text"])
    return texts


def prompt_line(screen: str) -> str:
    """The last `> ` line on screen: what the input holds now."""
    lines = [line.rstrip() for line in screen.splitlines()]
    return [line for line in lines if line == ">" or line.startswith("> ")][-1]


def test_piped_prompt_then_question_mark_panel_and_ctrl_underscore_undo(
        plain_tmux: Any) -> None:
    session, server = plain_tmux(["Summarised.", "Kept."], "summarise this", piped=PIPED)
    session.wait_for("Summarised.")
    assert len(server.requests) == 1  # the piped lines are no prompts of their own
    (texts,) = user_texts(server.requests[0])  # one user message with both texts
    assert JOINED in texts, texts
    session.wait_for(READY)  # after the pipe, the keys come from the terminal

    session.type("?")  # on an empty prompt: the keys, no `?` typed
    screen = session.wait_for(PANEL)
    for key in ("@ for file paths", "shift+tab to cycle modes", "ctrl+s to stash prompt",
                "alt+p to switch model", "/keybindings to rebind keys"):
        assert key in screen, screen
    for app_only in ("ctrl+t for todos", "ctrl+o for details", "pageup/pagedown"):
        assert app_only not in screen, screen  # keys the REPL does not have are not offered
    assert prompt_line(screen) == ">", screen
    session.type("?")  # again: put away
    session.wait_for(lambda s: PANEL not in s and READY in s)
    session.type("?")
    session.wait_for(PANEL)
    session.type("keep this")  # typing puts it away too, and types as usual
    screen = session.wait_for(lambda s: PANEL not in s and "> keep this" in s)
    assert prompt_line(screen) == "> keep this"

    time.sleep(UNDO_PAUSE + 0.5)  # the user pauses: the typing so far is one undo step
    session.type(" but not this")
    session.wait_for("> keep this but not this")
    session.send("C-_")  # takes back the typing since the pause, not one letter
    screen = session.wait_for(lambda s: "but not this" not in s)
    assert prompt_line(screen) == "> keep this"

    session.send("Home")
    session.type("?")  # text starting with `?` types normally
    session.send("End")
    session.type(" and why?")
    session.wait_for("> ?keep this and why?")
    assert PANEL not in session.screen()
    session.send("Enter")
    session.wait_for("Kept.")
    assert "?keep this and why?" in user_texts(server.requests[-1])[-1]


def test_piped_stdin_with_a_prompt_over_pipes_is_one_prompt(project: Path, home: Path) -> None:
    with MockApiServer({"turns": ["Summarised.", "Unexpected."]}) as server:
        done = run_piped(project, home, server, PIPED, "--plain", "summarise this")
        requests = list(server.requests)
    assert done.returncode == 0, done.stderr
    assert "Summarised." in done.stdout
    assert "Unexpected." not in done.stdout  # the drained pipe ends the input
    assert len(requests) == 1
    (texts,) = user_texts(requests[0])  # one user message with both texts
    assert JOINED in texts, texts
