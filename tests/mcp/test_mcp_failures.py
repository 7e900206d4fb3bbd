"""Servers that break: one dies mid-call, one cannot be spawned, one never answers. The manager
reports each, never blocks its caller, and the other servers keep working."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from claude_harness.mcp import McpManager
from claude_harness.mcp.config import McpServerConfig
from claude_harness.tools.registry import assemble_tool_pool
from tests.mcp.support import call, demo, make_ctx, permission, text_of


async def test_a_server_that_crashes_mid_call_gives_an_error_and_the_rest_go_on(
    tmp_path: Path,
) -> None:
    manager = McpManager([demo("crashy"), demo("other")], cwd=tmp_path, startup_timeout=30)
    manager.start()
    try:
        assert await manager.wait_ready(40)
        perm = permission(tmp_path, allow=("mcp__crashy", "mcp__other"))
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))

        crashed = await call(ctx, "mcp__crashy__crash", {})
        assert crashed.is_error
        message = text_of(crashed)
        assert "crashy" in message and "connection lost" in message
        assert message.startswith("<tool_use_error>")

        status = {s.name: s for s in manager.status()}
        assert status["crashy"].state == "failed"
        assert "crashing on purpose" in (status["crashy"].error or "")  # its stderr, for /mcp
        assert status["other"].state == "connected"
        assert not [t for t in manager.tools() if t.name.startswith("mcp__crashy__")]

        again = await call(ctx, "mcp__crashy__echo", {"text": "x"})  # a stale pool entry
        assert again.is_error and "not connected" in text_of(again)

        fine = await call(ctx, "mcp__other__echo", {"text": "still here"})
        assert not fine.is_error and fine.content == "other: still here"

        before = text_of(await call(ctx, "mcp__other__pid", {}))
        assert manager.reconnect("crashy")  # what /mcp offers for a failed server
        assert manager.reconnect("other")  # and for a connected one: a fresh process
        deadline = time.monotonic() + 40
        after = None
        while time.monotonic() < deadline:  # the tool from before reaches the new process
            await asyncio.sleep(0.1)
            if manager.get("other").state == "connected":
                after = await call(ctx, "mcp__other__pid", {})
                if not after.is_error and text_of(after) != before:
                    break
        assert after is not None and text_of(after) != before
        assert await manager.wait_ready(40)
        assert {s.name: s.state for s in manager.status()}["crashy"] == "connected"
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
        back = await call(ctx, "mcp__crashy__echo", {"text": "back"})
        assert back.content == "crashy: back"
    finally:
        await manager.close()


async def test_servers_that_never_start_are_reported_without_blocking(tmp_path: Path) -> None:
    hang = McpServerConfig("hang", command=sys.executable,
                           args=("-c", "import time; time.sleep(60)"), scope="cli")
    missing = McpServerConfig("missing", command=str(tmp_path / "no-such-binary"), scope="cli")
    manager = McpManager([hang, missing, demo("good")], cwd=tmp_path, startup_timeout=4)
    changes: list[tuple[str, str]] = []
    manager.add_listener(lambda m: changes.extend((c.name, c.state) for c in m.connections))

    began = time.monotonic()
    manager.start()
    assert time.monotonic() - began < 0.1  # start() only schedules
    assert {s.state for s in manager.status()} == {"pending"}
    assert manager.tools() == ()
    try:
        assert await manager.wait_ready(10)
        settled = time.monotonic() - began
        assert settled < 4 + 1.5  # the hung one is reported failed at the deadline
        status = {s.name: s for s in manager.status()}
        assert status["hang"].state == "failed"
        assert "did not finish starting within 4 s" in (status["hang"].error or "")
        assert status["missing"].state == "failed"
        assert "command not found" in (status["missing"].error or "")
        assert status["good"].state == "connected"
        assert ("hang", "failed") in changes

        perm = permission(tmp_path, allow=("mcp__good",))
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
        names = [t.name for t in ctx.options.tools]
        assert "mcp__good__echo" in names and not [n for n in names if "hang" in n]
        ok = await call(ctx, "mcp__good__echo", {"text": "hi"})
        assert ok.content == "good: hi"
        text = manager.format_status()
        assert "hang · ✘ failed" in text and "good · ✔ connected" in text
    finally:
        await manager.close()


async def test_close_stops_the_server_process(tmp_path: Path) -> None:
    manager = McpManager([demo("p")], cwd=tmp_path, startup_timeout=30)
    manager.start()
    assert await manager.wait_ready(40)
    perm = permission(tmp_path, allow=("mcp__p",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    pid = int(text_of(await call(ctx, "mcp__p__pid", {})))
    os.kill(pid, 0)  # alive
    await manager.close()
    assert manager.status()[0].state == "closed"
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"server process {pid} still running after close()")


async def test_an_interrupt_stops_waiting_for_a_slow_call(tmp_path: Path) -> None:
    manager = McpManager([demo("slow")], cwd=tmp_path, startup_timeout=30)
    manager.start()
    try:
        assert await manager.wait_ready(40)
        perm = permission(tmp_path, allow=("mcp__slow",))
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
        asyncio.get_running_loop().call_later(0.3, ctx.abort.abort)
        began = time.monotonic()
        outcome = await call(ctx, "mcp__slow__sleep", {"seconds": 20})
        assert time.monotonic() - began < 5
        assert outcome.is_error and "Interrupted" in text_of(outcome)
        assert manager.status()[0].state == "connected"
    finally:
        await manager.close()


async def test_a_call_past_the_tool_timeout_is_an_error_and_the_server_stays(
    tmp_path: Path,
) -> None:
    manager = McpManager([demo("slow")], cwd=tmp_path, startup_timeout=30, tool_timeout=0.5)
    manager.start()
    try:
        assert await manager.wait_ready(40)
        perm = permission(tmp_path, allow=("mcp__slow",))
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
        outcome = await call(ctx, "mcp__slow__sleep", {"seconds": 10})
        assert outcome.is_error and "no answer within 0.5 s" in text_of(outcome)
        assert (await call(ctx, "mcp__slow__echo", {"text": "x"})).content == "slow: x"
    finally:
        await manager.close()


async def test_closing_while_a_server_is_still_starting_is_quick(tmp_path: Path) -> None:
    hang = McpServerConfig("hang", command=sys.executable,
                           args=("-c", "import time; time.sleep(60)"), scope="cli")
    manager = McpManager([hang], cwd=tmp_path, startup_timeout=30)
    manager.start()
    await asyncio.sleep(0.5)
    began = time.monotonic()
    await manager.close()
    assert time.monotonic() - began < 4.5
    assert manager.status()[0].state == "closed"


async def test_a_bad_config_entry_is_failed_not_fatal(tmp_path: Path) -> None:
    broken = McpServerConfig("broken", scope="cli", error="invalid configuration: no command")
    manager = McpManager([broken], cwd=tmp_path)
    manager.start()
    assert await manager.wait_ready(1)
    assert manager.status()[0].state == "failed"
    assert "no command" in manager.format_status()
    await manager.close()
