"""A real ACP client (the `agent-client-protocol` package's client side) that starts
`claude-harness --acp` as a subprocess, records every `session/update`, and answers permission
requests with a chosen option (a unique module name: test dirs have no __init__)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    Implementation,
    RequestPermissionResponse,
)


def our_cli() -> str:
    beside = Path(sys.executable).with_name("claude-harness")
    return str(beside)


@dataclass
class RecordingClient:
    """Answers `session/request_permission` with `choose(options) -> optionId | None`
    (None: cancelled) and keeps every update and request."""

    choose: Callable[[list[Any]], str | None] = lambda options: "allow"
    updates: list[tuple[str, Any]] = field(default_factory=list)
    asked: list[Any] = field(default_factory=list)
    file_reads: list[str] = field(default_factory=list)
    buffers: dict[str, str] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def request_permission(self, options: list[Any], session_id: str, tool_call: Any,
                                 **_: Any) -> RequestPermissionResponse:
        self.asked.append((tool_call, options))
        self.changed.set()
        picked = self.choose(options)
        outcome: Any = (AllowedOutcome(outcome="selected", option_id=picked) if picked
                        else DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=outcome)

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        self.updates.append((session_id, update))
        self.changed.set()

    async def read_text_file(self, path: str, session_id: str, line: int | None = None,
                             limit: int | None = None, **_: Any) -> Any:
        from acp.schema import ReadTextFileResponse

        self.file_reads.append(path)
        text = self.buffers.get(path)
        if text is None:
            text = Path(path).read_text()
        return ReadTextFileResponse(content=text)

    def on_connect(self, conn: Any) -> None:
        pass

    # ── reading what arrived ───────────────────────────────────────────────────────────────

    def kinds(self) -> list[str]:
        return [u.session_update for _, u in self.updates]

    def of(self, kind: str) -> list[Any]:
        return [u for _, u in self.updates if u.session_update == kind]

    def text(self, kind: str = "agent_message_chunk") -> str:
        return "".join(u.content.text for u in self.of(kind) if hasattr(u.content, "text"))

    async def wait_for(self, check: Callable[[], Any], timeout: float = 20) -> Any:
        deadline = asyncio.get_running_loop().time() + timeout
        while not (found := check()):
            self.changed.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"timed out; updates: {self.kinds()}")
            with contextlib.suppress(asyncio.TimeoutError):  # re-checked at least every 0.1 s
                await asyncio.wait_for(self.changed.wait(), min(left, 0.1))
        return found


@contextlib.asynccontextmanager
async def agent(client: RecordingClient, *args: str, command: list[str] | None = None,
                fs: bool = False, stderr: Path | None = None, writes: bool = False,
                terminal: bool = False) -> AsyncIterator[tuple[Any, Any]]:
    """(connection, process) of `claude-harness --acp` (or `command`), initialized; its
    stderr goes to the file `stderr` (a pipe nobody reads would fill and block it)."""
    argv = command or [our_cli(), "--acp", *args]
    log = open(stderr or os.devnull, "ab")  # noqa: SIM115 - closed below
    kwargs = {"limit": 50 * 1024 * 1024, "stderr": log.fileno()}
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(log.close)
        conn, proc = await stack.enter_async_context(spawn_agent_process(
            client, argv[0], *argv[1:], env=dict(os.environ), transport_kwargs=kwargs))
        caps = ClientCapabilities(fs={"readTextFile": fs, "writeTextFile": writes},
                                  terminal=terminal)
        await asyncio.wait_for(conn.initialize(
            protocol_version=PROTOCOL_VERSION, client_capabilities=caps,
            client_info=Implementation(name="tests", version="1")), 30)
        yield conn, proc
