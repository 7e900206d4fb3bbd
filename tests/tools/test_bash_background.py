"""Background shells: Bash(run_in_background) starts, BashOutput reads, KillShell stops.

Real /bin/bash processes; every test kills what it starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import Tool, ToolError, ToolResult
from claude_harness.tools.bash import TOOL as BASH
from claude_harness.tools.bash.background import REGISTRY
from claude_harness.tools.bash_output import TOOL as BASH_OUTPUT
from claude_harness.tools.kill_shell import TOOL as KILL_SHELL
from tests.tools.bash_helpers import procs_matching, wait_gone
from tests.tools.conftest import make_ctx


@pytest.fixture(autouse=True)
def _kill_leftovers() -> Iterator[None]:
    yield
    REGISTRY.kill_all()


async def call(tool: Tool, ctx: ToolUseContext, **fields: Any) -> tuple[ToolResult, Any]:
    inp = tool.input_model.model_validate(fields)
    assert (await tool.validate_input(inp, ctx)).ok
    result = await tool.call(inp, ctx, lambda _: None)
    return result, tool.render_result(result.data)


async def start(ctx: ToolUseContext, command: str) -> str:
    result, text = await call(BASH, ctx, command=command, run_in_background=True)
    assert not result.is_error
    bash_id = result.data.background_id
    assert bash_id and bash_id.startswith("bash_") and bash_id in text
    return bash_id


async def read_until(ctx: ToolUseContext, bash_id: str, needle: str, seconds: float = 5) -> str:
    """BashOutput repeatedly until `needle` appears in what has been read so far."""
    seen = ""
    for _ in range(int(seconds / 0.05)):
        _, text = await call(BASH_OUTPUT, ctx, bash_id=bash_id)
        seen += text + "\n"
        if needle in seen:
            return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"{needle!r} never appeared; read: {seen!r}")


async def test_start_returns_at_once_and_says_how_to_follow_up(ctx: ToolUseContext) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    result, text = await call(
        BASH, ctx, command="sleep 100.601", run_in_background=True
    )
    assert loop.time() - started < 1
    assert "BashOutput" in text and "KillShell" in text
    for _ in range(100):  # the exec of sleep may lag the return by a moment
        if procs_matching("sleep 100.601"):
            break
        await asyncio.sleep(0.02)
    assert len(procs_matching("sleep 100.601")) == 1
    await call(KILL_SHELL, ctx, bash_id=result.data.background_id)


async def test_output_is_read_incrementally_with_status(ctx: ToolUseContext) -> None:
    bash_id = await start(ctx, "echo first; echo warn >&2; sleep 0.4; echo second; exit 5")
    seen = await read_until(ctx, bash_id, "first")
    assert f"{bash_id}: running" in seen
    assert "warn" in seen
    later = await read_until(ctx, bash_id, "exited with code 5")
    assert "second" in later
    assert "first" not in later  # only new output on each read
    _, again = await call(BASH_OUTPUT, ctx, bash_id=bash_id)
    assert again == f"{bash_id}: exited with code 5\n(no new output)"


async def test_background_shell_starts_in_the_shell_cwd(tmp_path: Path) -> None:
    (tmp_path / "srv").mkdir()
    ctx = make_ctx(tmp_path)
    await call(BASH, ctx, command="cd srv")
    bash_id = await start(ctx, "pwd -P")
    seen = await read_until(ctx, bash_id, "exited with code 0")
    assert str((tmp_path / "srv").resolve()) in seen


async def test_kill_shell_stops_the_whole_group(ctx: ToolUseContext) -> None:
    bash_id = await start(ctx, "sleep 100.701 & sleep 100.702; echo not-reached")
    for _ in range(100):
        if len(procs_matching("sleep 100.70")) == 2:
            break
        await asyncio.sleep(0.02)
    assert len(procs_matching("sleep 100.70")) == 2
    result, text = await call(KILL_SHELL, ctx, bash_id=bash_id)
    assert not result.is_error
    assert f"Killed {bash_id}" in text
    assert await wait_gone("sleep 100.70") == []
    _, status = await call(BASH_OUTPUT, ctx, bash_id=bash_id)
    assert status.startswith(f"{bash_id}: killed")
    assert "not-reached" not in status
    _, again = await call(KILL_SHELL, ctx, bash_id=bash_id)
    assert "was not running" in again


async def test_unread_output_is_bounded_and_cut_in_the_middle(ctx: ToolUseContext) -> None:
    bash_id = await start(
        ctx, "head -c 5000000 /dev/zero | tr '\\0' b; echo; echo LAST-LINE"
    )
    assert await asyncio.to_thread(REGISTRY.get(bash_id).process.wait_finished, 10)
    _, text = await call(BASH_OUTPUT, ctx, bash_id=bash_id)
    assert text.startswith(f"{bash_id}: exited with code 0\nstdout:\nbbbb")
    assert len(text) < 32_000
    assert "cut from the middle" in text and "5,000,011 bytes in total" in text
    assert text.endswith("LAST-LINE")


@pytest.mark.parametrize("tool", [BASH_OUTPUT, KILL_SHELL], ids=lambda t: t.name)
async def test_unknown_bash_id_is_a_tool_error(ctx: ToolUseContext, tool: Tool) -> None:
    inp = tool.input_model.model_validate({"bash_id": "bash_999999"})
    with pytest.raises(ToolError, match="bash_999999"):
        await tool.call(inp, ctx, lambda _: None)


def test_background_calls_are_never_concurrency_safe() -> None:
    inp = BASH.input_model.model_validate({"command": "ls", "run_in_background": True})
    assert BASH.is_concurrency_safe(inp) is False


def test_background_tool_schemas_take_only_bash_id() -> None:
    for tool in (BASH_OUTPUT, KILL_SHELL):
        schema = tool.input_schema()
        assert schema["required"] == ["bash_id"]
        assert set(schema["properties"]) == {"bash_id"}
        assert schema["additionalProperties"] is False
    assert BASH_OUTPUT.is_read_only(None) is True
    assert KILL_SHELL.is_read_only(BASH_OUTPUT.input_model(bash_id="bash_1")) is False
