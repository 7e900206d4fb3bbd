"""OAuth 2.1 against a real OAuth-protected MCP server (the SDK's server auth): startup reports
`needs-auth` without waiting for a person, a login from /mcp discovers, registers, sends the
browser with PKCE, stores the tokens privately and connects; the next start reuses them, and an
expired access token is refreshed instead of asking again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import stat
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.mcp import McpManager
from claude_harness.mcp.config import parse_server
from claude_harness.mcp.oauth import storage_path
from claude_harness.tools.registry import assemble_tool_pool
from tests.mcp.support import call, free_port, make_ctx, permission
from tests.mcp.test_mcp_http import _wait_for_port

SERVER = Path(__file__).parent / "servers" / "oauth_server.py"
TOKEN_SECONDS = 2


@pytest.fixture
def secure(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with oauth_server(tmp_path) as started:
        yield started


@contextlib.contextmanager
def oauth_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The OAuth-protected demo server on a free port: (its MCP URL, its grants log)."""
    port = free_port()
    log = tmp_path / "grants.jsonl"
    log.touch()
    proc = subprocess.Popen([sys.executable, str(SERVER), str(port), str(log), str(TOKEN_SECONDS)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        proc.kill()
        proc.wait(5)


def grants(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def manager_for(url: str, cwd: Path) -> McpManager:
    cfg = parse_server("secure", {"type": "http", "url": url}, scope="cli",
                       source="--mcp-config", env={})
    return McpManager([cfg], cwd=cwd, startup_timeout=20)


class Browser:
    """The user's browser: shown the link, opens it; the server approves and redirects back
    to our listener."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    async def __call__(self, url: str) -> None:
        self.shown.append(url)

        def visit() -> None:
            with urllib.request.urlopen(url, timeout=20) as page:  # noqa: S310 - local server
                assert b"Logged in" in page.read()

        await asyncio.to_thread(visit)


async def whoami(manager: McpManager, cwd: Path) -> str:
    perm = permission(cwd, allow=("mcp__secure",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    outcome = await asyncio.wait_for(call(ctx, "mcp__secure__whoami", {}), 20)
    assert not outcome.is_error, outcome.content
    return str(outcome.content)


async def test_login_stores_tokens_privately_and_they_are_reused_and_refreshed(
    secure: tuple[str, Path], tmp_path: Path, home: Path
) -> None:
    url, log = secure
    first = manager_for(url, tmp_path)
    first.start()
    try:
        assert await first.wait_ready(25)
        status = first.status()[0]
        assert status.state == "needs-auth" and "OAuth login" in (status.error or "")
        assert first.init_info() == [{"name": "secure", "status": "needs-auth",
                                      "error": status.error}]
        assert "needs authentication" in first.format_status()

        browser = Browser()
        assert await first.authenticate("secure", browser, timeout=20) == "connected"
        link = browser.shown[0]
        assert "code_challenge_method=S256" in link and "state=" in link
        assert "redirect_uri=http%3A%2F%2F127.0.0.1%3A" in link
        client = await whoami(first, tmp_path)
        assert client.startswith("client ")
    finally:
        await first.close()

    events = [g["event"] for g in grants(log)]
    assert events == ["register", "authorize", "code"]
    assert grants(log)[1]["pkce"] and grants(log)[1]["state"]
    saved = storage_path("secure", url)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert stat.S_IMODE(saved.parent.stat().st_mode) == 0o700
    stored = json.loads(saved.read_text())
    assert stored["tokens"]["access_token"] and stored["client_info"]["client_id"]
    assert saved.is_relative_to(home / "data")

    await asyncio.sleep(TOKEN_SECONDS + 0.5)  # the access token expires while we are closed
    second = manager_for(url, tmp_path)
    second.start()
    try:
        assert await second.wait_ready(25)
        assert second.status()[0].state == "connected", second.status()[0].error
        assert await whoami(second, tmp_path) == client  # same registered client
    finally:
        await second.close()
    assert [g["event"] for g in grants(log)][3:] == ["refresh"]  # no new login, no new client


async def test_a_refused_login_leaves_the_server_needing_auth(
    secure: tuple[str, Path], tmp_path: Path, home: Path
) -> None:
    url, _ = secure
    manager = manager_for(url, tmp_path)
    manager.start()
    try:
        assert await manager.wait_ready(25)

        async def closed_tab(link: str) -> None:
            """The user closes the browser tab: nobody comes back to the listener."""

        state = await manager.authenticate("secure", closed_tab, timeout=1)
        assert state == "needs-auth"
        assert "no login within 1 s" in (manager.status()[0].error or "")
    finally:
        await manager.close()
