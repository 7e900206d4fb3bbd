"""Background shells: Bash(run_in_background) starts one, a timeout or Ctrl+B moves a running
command there, TaskOutput (alias BashOutput) reads, TaskStop (alias KillShell) stops, a lifetime
cap ends forgotten ones, and `/tasks` lists them.

Real /bin/bash processes; every test kills what it starts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import Tool, ToolError, ToolResult
from claude_harness.tools.bash import TOOL as BASH
from claude_harness.tools.bash.background import REGISTRY
from claude_harness.tools.bash.foreground import FOREGROUND
from claude_harness.tools.registry import find_base_tool
from claude_harness.tools.task_output import TOOL as TASK_OUTPUT
from claude_harness.tools.task_stop import TOOL as TASK_STOP
from tests.tools.bash_helpers import procs_matching, wait_gone

pytestmark = pytest.mark.usefixtures("no_leftover_shells")


@pytest.fixture
def ctx(session_ctx: ToolUseContext) -> ToolUseContext:
    return session_ctx


async def call(tool: Tool, ctx: ToolUseContext, **fields: Any) -> tuple[ToolResult, Any]:
    inp = tool.input_model.model_validate(fields)
    assert (await tool.validate_input(inp, ctx)).ok
    result = await tool.call(inp, ctx, lambda _: None)
    return result, tool.render_result(result.data)


async def start(ctx: ToolUseContext, command: str, **fields: Any) -> str:
    result, text = await call(BASH, ctx, command=command, run_in_background=True, **fields)
    assert not result.is_error
    shell_id = result.data.background_id
    assert shell_id and shell_id.startswith("bash_") and shell_id in text
    return shell_id


async def read_until(ctx: ToolUseContext, shell_id: str, needle: str, seconds: float = 5) -> str:
    """TaskOutput (not waiting) repeatedly until `needle` appears in what was read so far."""
    seen = ""
    for _ in range(int(seconds / 0.05)):
        _, text = await call(TASK_OUTPUT, ctx, task_id=shell_id, block=False)
        seen += text + "\n"
        if needle in seen:
            return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"{needle!r} never appeared; read: {seen!r}")


async def wait_running(marker: str, count: int = 1) -> None:
    for _ in range(150):  # the exec of a child may lag the return by a moment
        if len(procs_matching(marker)) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{marker!r} never started")


# ── run_in_background ───────────────────────────────────────────────────────────────────────


async def test_start_returns_at_once_with_the_id_and_output_file(ctx: ToolUseContext) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    result, text = await call(BASH, ctx, command="echo ready; sleep 100.601",
                              run_in_background=True)
    assert loop.time() - started < 1
    shell = REGISTRY.get(result.data.background_id)
    assert f"Command running in background with ID: {shell.id}" in text
    assert str(shell.output.path) in text and "TaskStop" in text and "TaskOutput" in text
    await wait_running("sleep 100.601")
    # the output itself, not the `not_ready` of the status line (a hog run read the file
    # before any output: "ready" had matched `<retrieval_status>not_ready`)
    await read_until(ctx, shell.id, "<output>\nready\n")
    assert shell.output.path.read_text() == "ready\n"  # Read can open it while it runs
    await call(TASK_STOP, ctx, task_id=shell.id)
    assert await wait_gone("sleep 100.601") == []


async def test_output_is_read_incrementally_with_status(ctx: ToolUseContext) -> None:
    shell_id = await start(ctx, "echo first; echo warn >&2; sleep 0.4; echo second; exit 5")
    seen = await read_until(ctx, shell_id, "first")
    assert "<status>running</status>" in seen and "<retrieval_status>not_ready" in seen
    # stdout and stderr reach the file through two readers: stderr's line may come a read later
    if "warn" not in seen:
        seen += await read_until(ctx, shell_id, "warn")
    later = await read_until(ctx, shell_id, "<exit_code>5</exit_code>")
    assert "second" in seen + later and "<status>failed</status>" in later
    assert "first" not in later  # only new output on each read
    _, again = await call(TASK_OUTPUT, ctx, task_id=shell_id)
    assert "(no new output)" in again
    # the file keeps everything, stdout and stderr in the order printed
    assert REGISTRY.get(shell_id).output.path.read_text() == "first\nwarn\nsecond\n"


async def test_task_output_blocks_until_the_task_ends_or_the_wait_runs_out(
        ctx: ToolUseContext) -> None:
    shell_id = await start(ctx, "sleep 0.4; echo finished")
    _, text = await call(TASK_OUTPUT, ctx, task_id=shell_id, timeout=5000)
    assert "<retrieval_status>success" in text and "<status>completed</status>" in text
    assert "finished" in text and "<exit_code>0</exit_code>" in text
    slow = await start(ctx, "sleep 100.611")
    loop = asyncio.get_running_loop()
    begun = loop.time()
    _, waited = await call(TASK_OUTPUT, ctx, task_id=slow, timeout=300)
    assert 0.25 < loop.time() - begun < 2
    assert "<retrieval_status>timeout" in waited and "<status>running" in waited


async def test_background_shell_starts_in_the_shell_cwd(ctx: ToolUseContext,
                                                        tmp_path: Path) -> None:
    (tmp_path / "srv").mkdir()
    await call(BASH, ctx, command="cd srv")
    shell_id = await start(ctx, "pwd -P")
    seen = await read_until(ctx, shell_id, "<exit_code>0")
    assert str((tmp_path / "srv").resolve()) in seen


async def test_task_stop_stops_the_whole_group(ctx: ToolUseContext) -> None:
    shell_id = await start(ctx, "sleep 100.701 & sleep 100.702; echo not-reached")
    await wait_running("sleep 100.70", 2)
    result, text = await call(TASK_STOP, ctx, task_id=shell_id)
    assert not result.is_error
    assert f"Successfully stopped task: {shell_id}" in text
    assert await wait_gone("sleep 100.70") == []
    _, status = await call(TASK_OUTPUT, ctx, task_id=shell_id)
    assert "<status>killed</status>" in status and "not-reached" not in status
    _, again = await call(TASK_STOP, ctx, task_id=shell_id)
    assert "was not running" in again


async def test_unread_output_is_bounded_and_the_file_has_all_of_it(ctx: ToolUseContext) -> None:
    shell_id = await start(ctx, "head -c 5000000 /dev/zero | tr '\\0' b; echo; echo LAST-LINE")
    shell = REGISTRY.get(shell_id)
    assert await asyncio.to_thread(shell.process.wait_finished, 10)
    _, text = await call(TASK_OUTPUT, ctx, task_id=shell_id)
    assert len(text) < 32_000
    assert "cut from the middle" in text and "5,000,011 bytes in total" in text
    assert "LAST-LINE" in text
    assert shell.output.path.stat().st_size == 5_000_011


async def test_a_background_shell_is_stopped_at_the_end_of_its_lifetime(
        ctx: ToolUseContext) -> None:
    shell_id = await start(ctx, "sleep 100.801", timeout=300)
    await wait_running("sleep 100.801")
    assert await wait_gone("sleep 100.801", seconds=5) == []
    _, text = await call(TASK_OUTPUT, ctx, task_id=shell_id, block=False)
    assert "<status>expired</status>" in text and "lifetime" in text


# ── moving a running command to the background ─────────────────────────────────────────────


async def test_a_command_reaching_its_timeout_moves_to_the_background(
        ctx: ToolUseContext) -> None:
    loop = asyncio.get_running_loop()
    begun = loop.time()
    result, text = await call(BASH, ctx, command="echo before; sleep 100.901; echo never",
                              timeout=400)
    assert loop.time() - begun < 3
    assert not result.is_error
    run = result.data
    assert run.timed_out_after_ms == 400 and not run.backgrounded_by_user
    assert text.startswith("before\n")
    assert f"was moved to the background (ID: {run.background_id})" in text
    assert run.output_path and run.output_path in text
    assert procs_matching("sleep 100.901")  # still running, not killed
    shell = REGISTRY.get(run.background_id)
    assert shell.origin == "timeout" and shell.running
    await call(TASK_STOP, ctx, task_id=run.background_id)
    assert await wait_gone("sleep 100.901") == []


async def test_ctrl_b_moves_every_foreground_command_to_the_background(
        ctx: ToolUseContext) -> None:
    events: list[tuple[str, str]] = []
    unsubscribe = REGISTRY.subscribe(lambda kind, shell: events.append((kind, shell.id)))
    try:
        task = asyncio.create_task(call(BASH, ctx, command="echo first; sleep 100.911; echo last"))
        await wait_running("sleep 100.911")
        moved = FOREGROUND.background_all()
        result, text = await asyncio.wait_for(task, 5)
        assert moved == [result.data.background_id]
        assert result.data.backgrounded_by_user and not result.is_error
        assert "The user moved the command to the background" in text and "first" in text
        shell_id = result.data.background_id
        assert [s.id for s in REGISTRY.shells() if s.running] == [shell_id]  # what /tasks shows
        row = REGISTRY.get(shell_id).summary()
        assert row.startswith(f"{shell_id} · running · ") and "(moved by you)" in row
        assert row.endswith("echo first; sleep 100.911; echo last")
        await call(TASK_STOP, ctx, task_id=shell_id)
        for _ in range(100):
            if ("ended", shell_id) in events:
                break
            await asyncio.sleep(0.02)
        assert events[0] == ("started", shell_id) and ("ended", shell_id) in events
    finally:
        unsubscribe()
    assert FOREGROUND.running() == []


async def test_a_backgrounded_cd_does_not_move_the_shell(ctx: ToolUseContext,
                                                         tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    result, text = await call(BASH, ctx, command="cd elsewhere && sleep 100.921", timeout=300)
    assert result.data.background_id and "working directory" in text
    assert ctx.shell.cwd == tmp_path
    await call(TASK_STOP, ctx, task_id=result.data.background_id)


async def test_with_background_tasks_disabled_a_timeout_kills(
        ctx: ToolUseContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS", "1")
    result, text = await call(BASH, ctx, command="echo before; sleep 100.931", timeout=300)
    assert result.is_error and text.startswith("Command timed out after 0.3s and was killed")
    assert "before" in text
    assert await wait_gone("sleep 100.931") == []
    inp = BASH.input_model.model_validate({"command": "ls", "run_in_background": True})
    verdict = await BASH.validate_input(inp, ctx)
    assert not verdict.ok and "disabled" in verdict.message


# ── the tools' contracts ────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("tool", [TASK_OUTPUT, TASK_STOP], ids=lambda t: t.name)
async def test_unknown_task_id_is_a_tool_error(ctx: ToolUseContext, tool: Tool) -> None:
    inp = tool.input_model.model_validate({"task_id": "bash_999999"})
    with pytest.raises(ToolError, match="No task found with ID: bash_999999"):
        await tool.call(inp, ctx, lambda _: None)


async def test_old_names_and_old_inputs_still_work(ctx: ToolUseContext) -> None:
    """Transcripts from before the rename call BashOutput / KillShell with `bash_id`."""
    assert find_base_tool("BashOutput") is TASK_OUTPUT
    assert find_base_tool("KillShell") is TASK_STOP
    shell_id = await start(ctx, "echo old-style; sleep 100.941")
    await wait_running("sleep 100.941")
    old_read = TASK_OUTPUT.input_model.model_validate({"bash_id": shell_id})
    assert old_read.waits is False  # BashOutput never waited
    text = ""
    for _ in range(100):  # the output reaches the reader a moment after the echo ran
        text += TASK_OUTPUT.render_result(
            (await TASK_OUTPUT.call(old_read, ctx, lambda _: None)).data)
        if "old-style" in text:
            break
        await asyncio.sleep(0.05)
    assert "old-style" in text
    old_kill = TASK_STOP.input_model.model_validate({"bash_id": shell_id})
    await TASK_STOP.call(old_kill, ctx, lambda _: None)
    assert await wait_gone("sleep 100.941") == []
    deprecated = TASK_STOP.input_model.model_validate({"shell_id": shell_id})
    assert deprecated.target == shell_id


def test_schemas_are_claude_codes() -> None:
    stop = TASK_STOP.input_schema()
    assert set(stop["properties"]) == {"task_id", "shell_id"} and "required" not in stop
    output = TASK_OUTPUT.input_schema()
    assert set(output["properties"]) == {"task_id", "block", "timeout"}
    assert output["required"] == ["task_id"] and output["properties"]["block"]["default"] is True
    for schema in (stop, output):
        assert schema["additionalProperties"] is False and "bash_id" not in str(schema)
    with pytest.raises(ValueError):
        TASK_STOP.input_model.model_validate({})
    assert TASK_OUTPUT.is_read_only(None) is True


def test_background_calls_are_never_concurrency_safe() -> None:
    inp = BASH.input_model.model_validate({"command": "ls", "run_in_background": True})
    assert BASH.is_concurrency_safe(inp) is False
