"""An Agent SDK `query()` (the real Python SDK spawning our binary) is served by the warm process
and reads what a cold run gives: init, the answer, the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.warm.conftest import BINARY, Warm

sdk = pytest.importorskip("claude_agent_sdk", reason="the test extra installs claude-agent-sdk")
MODEL = "claude-sonnet-4-5"


async def ask(project: Path) -> list[Any]:
    options = sdk.ClaudeAgentOptions(cli_path=str(BINARY), cwd=str(project), model=MODEL)
    return [message async for message in sdk.query(prompt="say hi", options=options)]


def shape(messages: list[Any]) -> list[Any]:
    return [(type(m).__name__, getattr(m, "subtype", None),
             getattr(m, "content", None), getattr(m, "result", None)) for m in messages]


async def test_an_sdk_query_is_served_warm_as_it_is_cold(warm: Warm, project: Path, api: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    answer = [{"content": [{"type": "text", "text": "Hello from the script."}]}]
    monkeypatch.setenv("CLAUDE_HARNESS_NO_DAEMON", "1")
    api(answer)
    cold = await ask(project)
    assert not warm.was_warm
    monkeypatch.delenv("CLAUDE_HARNESS_NO_DAEMON")
    warm.start()
    api(answer)
    hot = await ask(project)
    assert warm.was_warm
    assert shape(hot) == shape(cold)
    assert hot[-1].result == "Hello from the script." and not hot[-1].is_error
    assert hot[0].data["cwd"] == str(project)
