"""Issue 25's surface in the real `claude-harness --plain` in tmux against the scripted server:
the first prompt on the command line, text typed as people type it, searches that show what
is typed, and the small things that read as bugs."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.support import conversation

pytestmark = [pytest.mark.timeout(90), pytest.mark.slow]

READY = "shift+tab to cycle"  # the bottom toolbar: the prompt is up


def user_texts(server: Any, index: int = -1) -> list[str]:
    """The text blocks of the last user message of request `index`."""
    content = conversation(server.requests[index])[-1]["content"]
    return [content] if isinstance(content, str) else [b.get("text") for b in content]


def wait_requests(server: Any, count: int) -> None:
    deadline = time.monotonic() + 20
    while len(server.requests) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(server.requests) >= count


def test_the_prompt_on_the_command_line_is_sent(plain_tmux: Any) -> None:
    session, server = plain_tmux(["Fixed the tests."], "fix the tests")
    session.wait_for("Fixed the tests.")
    session.wait_for(READY)
    assert "fix the tests" in user_texts(server, 0)
