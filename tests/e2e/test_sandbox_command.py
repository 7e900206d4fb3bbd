"""/sandbox through the session: the status, the switch (saved for the project, refused while
a turn runs), and the Bash calls that follow it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.commands.registry import invoke
from claude_harness.protocol.events import Busy, Notice, Report, ToolResultEvent
from claude_harness.protocol.ops import SetSandbox, UserPrompt
from claude_harness.sandbox.availability import check_availability
from claude_harness.sandbox.current import active, configure
from tests.e2e.support import make_engine, run_op, run_prompt


@pytest.fixture(autouse=True)
def no_sandbox_left() -> Iterator[None]:
    configure(None)
    yield
    configure(None)


def report(events: list[Any]) -> list[str]:
    (found,) = [e for e in events if isinstance(e, Report) and e.topic == "sandbox"]
    return list(found.lines)


async def test_sandbox_shows_then_switches_on_and_saves(project: Path, api: Any) -> None:
    session = make_engine(api([{"content": [{"type": "text", "text": "hi"}]}]), project)
    (status,) = invoke("/sandbox").ops
    lines = report(await run_op(session, status))
    assert lines[0] == "Sandbox: off"
    (switch,) = invoke("/sandbox on").ops
    lines = report(await run_op(session, switch))
    expected = "Sandbox: on" if check_availability().available else "Sandbox: on, but it cannot"
    assert lines[0].startswith(expected)
    assert any(line.startswith("Writable: ") and str(project) in line for line in lines)
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert saved["sandbox"] == {"enabled": True}
    assert active() is not None and active().enabled
    lines = report(await run_op(session, SetSandbox(False)))
    assert lines[0] == "Sandbox: off"
    assert json.loads((project / ".claude" / "settings.local.json").read_text())[
        "sandbox"] == {"enabled": False}


@pytest.mark.skipif(not check_availability().available, reason="no bubblewrap here")
async def test_after_sandbox_on_a_command_that_would_ask_runs_sandboxed(
        project: Path, api: Any, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    server = api([
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": f"touch made.txt {outside}/x"}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    session = make_engine(server, project)  # -p style: a prompt would be denied
    await run_op(session, SetSandbox(True))
    events = await run_prompt(session, "make it")
    (result,) = [e for e in events if isinstance(e, ToolResultEvent)]
    assert (project / "made.txt").exists() and not (outside / "x").exists()
    assert "Read-only file system" in result.content


async def test_the_switch_waits_for_the_turn_to_end(project: Path, api: Any) -> None:
    server = api([{"content": [{"type": "text", "text": "slow"}], "delay": 0.05}])
    session = make_engine(server, project)
    session.submit(UserPrompt("go"))
    session.submit(SetSandbox(True))
    notices = []
    async for event in session.events():
        if isinstance(event, Notice):
            notices.append(event.text)
        if isinstance(event, Busy) and not event.running:
            break
    assert any("before /sandbox" in text for text in notices)
    assert active() is None or not active().enabled
