"""Connect to configured servers once and say how each answered: what `mcp list` and
`mcp get` show, in Claude Code's words ("✔ Connected", "✘ Failed to connect", "! Needs
authentication", "⏸ Pending approval").

Every server is tried at the same time, each with a short deadline (MCP_TIMEOUT when set,
milliseconds as in Claude Code, else HEALTH_TIMEOUT_SECONDS), through the connection a session
uses (connection.py), so "Connected" means a session would get its tools. Nobody is asked to
log in: a server that wants OAuth is reported as needing authentication. Servers that may not
start here (a project server not approved yet, a rejected one, a broken entry) are not
contacted.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from claude_harness.mcp.config import McpServerConfig

CONNECTED = "✔ Connected"
FAILED = "✘ Failed to connect"
NEEDS_AUTH = "! Needs authentication"
PENDING = "⏸ Pending approval"
HEALTH_TIMEOUT_SECONDS = 10.0
CLOSE_SECONDS = 3.0


@dataclass(frozen=True)
class Health:
    """One server's status line, and what went wrong (one line) when it failed."""

    status: str
    issue: str | None = None


def not_started(server: McpServerConfig, state: bool | None) -> Health | None:
    """The status of a server that is not contacted, or None when it may be."""
    if server.error:
        return Health(FAILED, server.error)
    if state is False:
        return Health(f"✘ Rejected (run `claude-harness mcp approve {server.name}` to allow "
                      "it)")
    if state is None:
        return Health(f"{PENDING} (run `claude-harness mcp approve {server.name}` or "
                      "`claude-harness` to approve)")
    return None


def check_health(servers: list[McpServerConfig], cwd: Path,
                 timeout: float | None = None) -> list[Health]:
    """Connect to every server at once; one Health per server, in order."""
    if not servers:
        return []
    return asyncio.run(_check_all(servers, cwd, timeout or health_timeout()))


def health_timeout() -> float:
    raw = os.environ.get("MCP_TIMEOUT", "").strip()
    try:
        value = float(raw) / 1000.0 if raw else 0.0
    except ValueError:
        value = 0.0
    return value if value > 0 else HEALTH_TIMEOUT_SECONDS


async def _check_all(servers: list[McpServerConfig], cwd: Path,
                     timeout: float) -> list[Health]:
    from claude_harness.mcp.connection import load_sdk

    await load_sdk()  # before the deadlines start: our import is not the server's slowness
    return list(await asyncio.gather(*(_check_one(s, cwd, timeout) for s in servers)))


async def _check_one(server: McpServerConfig, cwd: Path, timeout: float) -> Health:
    from claude_harness.mcp.connection import McpConnection

    connection = McpConnection(server, cwd=cwd, startup_timeout=timeout, tool_timeout=None,
                               on_change=lambda _c: None)
    connection.start()
    try:
        await asyncio.wait_for(connection.wait_settled(), timeout + CLOSE_SECONDS)
    except TimeoutError:
        pass  # the connection's own deadline should have fired: report what we have
    health = _health_of(connection.state, connection.error, timeout)
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(connection.close(), CLOSE_SECONDS)
    return health


def _health_of(state: str, error: str | None, timeout: float) -> Health:
    if state == "connected":
        return Health(CONNECTED)
    if state == "needs-auth":
        return Health(NEEDS_AUTH)
    if state == "pending":
        return Health(FAILED, f"did not finish starting within {timeout:g} s (MCP_TIMEOUT)")
    first_line = (error or "").strip().splitlines()
    return Health(FAILED, first_line[0] if first_line else None)
