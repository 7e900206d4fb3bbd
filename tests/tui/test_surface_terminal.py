"""Issue 25's surface in the installed app, in a real terminal (tmux) against the scripted
server: the first prompt on the command line (and piped with it), text typed as people type
it (grapheme clusters kept whole), what is typed into searches shown as it is typed."""

from __future__ import annotations

import shlex
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

