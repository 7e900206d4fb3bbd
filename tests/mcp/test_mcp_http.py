"""A real MCP server over streamable HTTP on 127.0.0.1 (the demo server run with `--http`)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from claude_harness.mcp import McpManager
from claude_harness.mcp.config import parse_server
from claude_harness.tools.registry import assemble_tool_pool
from tests.mcp.support import SERVER, call, demo, free_port, make_ctx, permission, text_of


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"HTTP test server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("HTTP test server did not open its port")


@pytest.fixture
def http_server() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, SERVER, "web", "--http", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, proc)
        yield port, proc
    finally:
        proc.kill()
        proc.wait(5)


async def test_http_server_tools_headers_and_a_server_that_goes_away(
    http_server: tuple[int, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    port, proc = http_server
    raw = {"type": "http", "url": "http://127.0.0.1:${MCP_TEST_PORT}/mcp",
           "headers": {"Authorization": "Bearer ${MCP_TEST_TOKEN:-none}"}}
    web = parse_server("web", raw, scope="project", source=str(tmp_path / ".mcp.json"),
                       env={"MCP_TEST_PORT": str(port), "MCP_TEST_TOKEN": "s3cret"})
    assert web.error is None and web.url == f"http://127.0.0.1:{port}/mcp"
    manager = McpManager([web, demo("local")], cwd=tmp_path, startup_timeout=20,
                         approve_project=True)
    manager.start()
    try:
        assert await manager.wait_ready(30)
        status = {s.name: s for s in manager.status()}
        assert status["web"].state == "connected", status["web"].error
        assert status["web"].transport == "http"

        perm = permission(tmp_path, allow=('mcp__web', 'mcp__local'))
        pool = assemble_tool_pool(perm, mcp_tools=manager.tools())
        names = [t.name for t in pool]
        assert names.index("mcp__local__echo") < names.index("mcp__web__echo")
        ctx = make_ctx(perm, pool)
        echoed = await call(ctx, "mcp__web__echo", {"text": "over http"})
        assert echoed.content == "web: over http"
        who = await call(ctx, "mcp__web__whoami", {})
        assert who.content == "Bearer s3cret"

        proc.kill()
        proc.wait(5)
        gone = await call(ctx, "mcp__web__echo", {"text": "anyone?"})
        assert gone.is_error and "web" in text_of(gone)
        assert {s.name: s.state for s in manager.status()}["web"] == "failed"
        still = await call(ctx, "mcp__local__echo", {"text": "ok"})
        assert still.content == "local: ok"
    finally:
        await asyncio.wait_for(manager.close(), 15)


async def test_sse_server_with_headers(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, SERVER, "old", "--http", str(port), "--sse"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    manager = None
    try:
        _wait_for_port(port, proc)
        old = parse_server("old", {"type": "sse", "url": f"http://127.0.0.1:{port}/sse",
                                   "headers": {"Authorization": "Bearer ${T}"}},
                           scope="cli", source="--mcp-config", env={"T": "tok"})
        manager = McpManager([old], cwd=tmp_path, startup_timeout=20)
        manager.start()
        assert await manager.wait_ready(30)
        assert manager.status()[0].state == "connected", manager.status()[0].error
        perm = permission(tmp_path, allow=('mcp__old',))
        ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
        assert (await call(ctx, "mcp__old__whoami", {})).content == "Bearer tok"
        assert (await call(ctx, "mcp__old__echo", {"text": "sse"})).content == "old: sse"
    finally:
        if manager is not None:
            await asyncio.wait_for(manager.close(), 15)
        proc.kill()
        proc.wait(5)


async def test_http_server_that_is_not_there_fails_fast(tmp_path: Path) -> None:
    port = free_port()  # nothing listens here
    web = parse_server("web", {"type": "http", "url": f"http://127.0.0.1:{port}/mcp"},
                       scope="cli", source="--mcp-config", env={})
    manager = McpManager([web], cwd=tmp_path, startup_timeout=10)
    manager.start()
    try:
        assert await manager.wait_ready(12)
        status = manager.status()[0]
        assert status.state == "failed" and status.error
    finally:
        await manager.close()
