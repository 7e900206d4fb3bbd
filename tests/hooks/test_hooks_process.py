"""Process hygiene: timeouts kill the whole group, output is bounded, nothing hangs."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from claude_harness.hooks import HookConfig, HookRunner
from claude_harness.protocol.context import AbortSignal
from tests.hooks.hook_helpers import MakeRunner, group, write_script

TOOL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"}


def live_members(pgid: int) -> list[int]:
    """Processes still alive (not zombies) in a process group, read from /proc."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        state, group_id = fields[0], int(fields[2])
        if group_id == pgid and state not in ("Z", "X"):
            alive.append(int(entry.name))
    return alive


async def test_timeout_kills_the_process_group(make_runner: MakeRunner, tmp_path: Path) -> None:
    pgid_file = tmp_path / "pgid"
    script = write_script(
        tmp_path,
        "hang.py",
        "import os, subprocess, time\n"
        f"open({str(pgid_file)!r}, 'w').write(str(os.getpgid(0)))\n"
        "subprocess.Popen(['sleep', '30'])\n"  # a grandchild in the same group
        "time.sleep(30)\n",
        python=True,
    )
    runner = make_runner({"PreToolUse": [group(str(script), timeout=1)]})
    started = time.monotonic()
    outcome = await runner.run("PreToolUse", TOOL)
    assert time.monotonic() - started < 2.0
    pgid = int(pgid_file.read_text())
    await asyncio.sleep(0.05)
    assert live_members(pgid) == []
    assert outcome.permission_decision is None and not outcome.blocked
    assert len(outcome.errors) == 1 and "timed out after 1s" in outcome.errors[0]
    result = outcome.results[0]
    assert result.timed_out and result.exit_code is None


async def test_timed_out_hook_does_not_cancel_the_others(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    deny = write_script(tmp_path, "deny.sh", "echo stop >&2; exit 2\n")
    runner = make_runner({"PreToolUse": [group(["sleep 30", str(deny)], timeout=1)]})
    outcome = await runner.run("PreToolUse", TOOL)
    assert outcome.blocked and outcome.block_reason == "stop"
    assert len(outcome.errors) == 1 and "timed out" in outcome.errors[0]


async def test_megabyte_of_output_is_bounded_and_does_not_hang(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    script = write_script(
        tmp_path,
        "chatty.sh",
        "head -c 1048576 /dev/zero | tr '\\0' 'a'\nhead -c 1048576 /dev/zero | tr '\\0' 'e' >&2\nexit 1\n",
    )
    runner = make_runner({"PreToolUse": [group(str(script), timeout=10)]})
    started = time.monotonic()
    outcome = await runner.run("PreToolUse", TOOL)
    assert time.monotonic() - started < 5
    result = outcome.results[0]
    assert result.exit_code == 1
    assert result.stdout_truncated and result.stderr_truncated
    assert len(result.stdout) < 10_200 and len(result.stderr) < 10_200
    assert "1048576 bytes written" in result.stdout
    assert len(outcome.errors) == 1 and len(outcome.errors[0]) < 10_500


async def test_hook_that_ignores_a_large_stdin(make_runner: MakeRunner, tmp_path: Path) -> None:
    script = write_script(tmp_path, "ignore.sh", "echo '{}'\n")
    runner = make_runner({"PreToolUse": [group(str(script), timeout=5)]})
    big = {**TOOL, "tool_input": {"content": "x" * 2_000_000}}
    outcome = await runner.run("PreToolUse", big)
    assert outcome.results[0].exit_code == 0 and outcome.errors == []


async def test_background_child_holding_the_pipe_does_not_hang(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    runner = make_runner({"PostToolUse": [group("sleep 20 & echo started", timeout=10)]})
    started = time.monotonic()
    outcome = await runner.run("PostToolUse", {**TOOL, "tool_response": ""})
    assert time.monotonic() - started < 2
    assert outcome.results[0].exit_code == 0
    assert outcome.results[0].stdout.strip() == "started"


async def test_abort_kills_running_hooks(make_runner: MakeRunner, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    runner = make_runner({"PreToolUse": [group(f"echo $$ > {pid_file}; exec sleep 30")]})
    signal_ = AbortSignal()

    async def abort_soon() -> None:
        await asyncio.sleep(0.3)
        signal_.abort()

    started = time.monotonic()
    outcome, _ = await asyncio.gather(runner.run("PreToolUse", TOOL, abort=signal_), abort_soon())
    assert time.monotonic() - started < 1.5
    assert outcome.permission_decision is None
    assert outcome.results[0].aborted
    assert len(outcome.errors) == 1 and "cancelled" in outcome.errors[0]
    assert live_members(int(pid_file.read_text())) == []


async def test_asyncio_event_works_as_abort(make_runner: MakeRunner) -> None:
    event = asyncio.Event()
    event.set()
    outcome = await make_runner({"Stop": [group("sleep 30")]}).run("Stop", {}, abort=event)
    assert outcome.results[0].aborted and not outcome.blocked


async def test_cancelling_the_run_kills_the_hook(make_runner: MakeRunner, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    runner = make_runner({"Stop": [group(f"echo $$ > {pid_file}; exec sleep 30")]})
    task = asyncio.create_task(runner.run("Stop", {}))
    for _ in range(100):
        await asyncio.sleep(0.02)
        if pid_file.exists() and pid_file.read_text().strip():
            break
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    await asyncio.sleep(0.05)
    assert live_members(int(pid_file.read_text())) == []


async def test_hook_environment_keeps_the_parent_environment(
    make_runner: MakeRunner, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("HOOK_TEST_MARKER", "present")
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    out = tmp_path / "env"
    await make_runner({"Stop": [group(f'printf %s "$HOOK_TEST_MARKER" > {out}')]}).run("Stop", {})
    assert out.read_text() == "present"
    assert "CLAUDE_PROJECT_DIR" not in os.environ  # only the hook's environment gets it


async def test_hook_that_cannot_start_is_a_visible_error(tmp_path: Path) -> None:
    config = HookConfig.from_sources([("userSettings", None, {"Stop": [group("true")]})])
    runner = HookRunner(
        config,
        project_dir=tmp_path / "deleted-project",
        session_id="s",
        transcript_path="",
        get_permission_mode=lambda: "default",
    )
    outcome = await runner.run("Stop", {})
    assert not outcome.blocked and outcome.results[0].exit_code is None
    assert len(outcome.errors) == 1 and "could not start" in outcome.errors[0]
