"""One MCP server: its background task, its state, and the calls made to it.

The `mcp` SDK's Client is an async context manager that must be entered and left in the same
task, so each server gets one long-lived asyncio task that opens the connection, lists the tools,
then waits until it is told to stop. Tool calls come from other tasks (the tool executor) and go
through the open client. Whatever goes wrong (cannot spawn, handshake hangs past the startup
timeout, the process dies mid-call) ends as state "failed" with a message; it never raises into
the caller.

The SDK takes about a second to import, so it is imported in a worker thread, off the event loop,
the first time any server starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Literal

from claude_harness.mcp.config import McpServerConfig

State = Literal["pending", "connected", "failed", "needs-approval", "disabled", "closed"]

STDERR_TAIL_CHARS = 600
CLOSE_GRACE_SECONDS = 5.0

_sdk_import: asyncio.Future[None] | None = None


async def load_sdk() -> None:
    """Import the SDK modules once, in a thread, so the event loop keeps painting."""
    global _sdk_import
    loop = asyncio.get_running_loop()
    if _sdk_import is None or _sdk_import.get_loop() is not loop:
        _sdk_import = asyncio.ensure_future(asyncio.to_thread(_import_sdk))
    await asyncio.shield(_sdk_import)


def _import_sdk() -> None:
    import logging

    # The SDK and its HTTP client log through `logging`; with no handler configured, Python
    # would print their warnings on stderr, over the full-screen app. Server problems reach the
    # user through status() instead.
    for name in ("mcp", "httpx", "httpx2"):
        logging.getLogger(name).addHandler(logging.NullHandler())
    import mcp.client.client  # noqa: F401
    import mcp.client.stdio  # noqa: F401
    import mcp.client.streamable_http  # noqa: F401


class ServerGone(Exception):
    """The connection to the server broke (process exited, HTTP endpoint went away)."""


class McpConnection:
    """State and traffic of one configured server."""

    def __init__(
        self,
        config: McpServerConfig,
        *,
        cwd: Path,
        startup_timeout: float,
        tool_timeout: float | None,
        on_change: Callable[[McpConnection], None],
        initial_state: State = "pending",
    ) -> None:
        self.config = config
        self.name = config.name
        self.cwd = cwd
        self.startup_timeout = startup_timeout
        self.tool_timeout = tool_timeout
        self._on_change = on_change
        self.state: State = initial_state
        self.error: str | None = config.error
        if config.error:
            self.state = "failed"
        self.tools: list[Any] = []  # mcp_types.Tool as listed by the server
        self.has_resources = False
        self.instructions: str | None = None
        self.client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._stop = asyncio.Event()
        self._settled = asyncio.Event()  # connected or failed: startup is over
        self._stderr: Any = None
        if self.state != "pending":
            self._settled.set()

    # ── lifecycle ──────────────────────────────────────────────────────────────────────────

    def start(self) -> None:
        """Schedule the connection on the running loop; returns at once."""
        if self.state != "pending" or self._task is not None:
            return
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._run(), name=f"mcp:{self.name}")
        # Report a hung server at the deadline itself, not after its process is cleaned up.
        self._watchdog = loop.call_later(self.startup_timeout, self._deadline_passed)

    def _deadline_passed(self) -> None:
        if self.state == "pending":
            self._fail(f"did not finish starting within {self.startup_timeout:g} s (MCP_TIMEOUT)")

    def allow_start(self) -> None:
        """A server that waited for approval may now start (call `start()` next)."""
        if self.state in ("needs-approval", "disabled"):
            self.state = "pending"
            self.error = None
            self._settled = asyncio.Event()

    async def wait_settled(self) -> None:
        await self._settled.wait()

    async def close(self) -> None:
        self._stop.set()
        task = self._task
        if task is not None and not task.done() and self.state == "pending":
            task.cancel()  # still connecting: nothing to close politely
        if task is not None and not task.done():
            done, _ = await asyncio.wait({task}, timeout=CLOSE_GRACE_SECONDS)
            if not done:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self.state in ("pending", "connected"):
            self._set("closed", None)
        self._close_stderr()

    async def _run(self) -> None:
        import anyio

        try:
            await load_sdk()
            with anyio.CancelScope(deadline=anyio.current_time() + self.startup_timeout) as scope:
                async with self._client() as client:
                    await self._discover(client)
                    scope.deadline = math.inf
                    if self.state != "pending":  # the watchdog already gave up on it
                        return
                    self.client = client
                    self._set("connected", None)
                    await self._stop.wait()
            if scope.cancelled_caught and self.state == "pending":
                self._deadline_passed()
        except asyncio.CancelledError:
            if self.state == "pending":
                if self._stop.is_set():
                    self._set("closed", None)  # close() during startup
                else:
                    self._fail("startup was cancelled")
            raise
        except BaseException as exc:  # noqa: BLE001 - a broken server must never escape
            if self.state in ("pending", "connected"):
                verb = "could not start" if self.state == "pending" else "connection lost"
                self._fail(f"{verb}: {describe_error(exc)}")
        finally:
            self.client = None
            if self._watchdog is not None:
                self._watchdog.cancel()
            if self.state == "connected":
                self._set("closed", None)
            self._settled.set()

    @contextlib.asynccontextmanager
    async def _client(self) -> AsyncIterator[Any]:
        from mcp.client.client import Client
        from mcp_types import Implementation

        info = Implementation(name="claude-harness", version="0.1.0")
        async with Client(self._transport(), client_info=info) as client:
            yield client

    def _transport(self) -> Any:
        cfg = self.config
        if cfg.transport == "stdio":
            from mcp.client.stdio import StdioServerParameters, stdio_client

            self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
            params = StdioServerParameters(
                command=cfg.command, args=list(cfg.args), env={**os.environ, **cfg.env},
                cwd=str(self.cwd),
            )
            return stdio_client(params, errlog=self._stderr)
        if cfg.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(cfg.url, headers=dict(cfg.headers))
        return _http_transport(cfg.url, dict(cfg.headers))

    async def _discover(self, client: Any) -> None:
        tools: list[Any] = []
        cursor: str | None = None
        for _ in range(100):  # a server that pages forever cannot hang startup
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        self.tools = tools
        caps = client.server_capabilities
        self.has_resources = getattr(caps, "resources", None) is not None
        self.instructions = getattr(client, "instructions", None)

    # ── state ──────────────────────────────────────────────────────────────────────────────

    def _set(self, state: State, error: str | None) -> None:
        self.state = state
        self.error = error
        if state != "pending":
            self._settled.set()
        self._on_change(self)

    def _fail(self, message: str) -> None:
        tail = self.stderr_tail()
        if tail:
            message = f"{message}\nserver stderr (last lines):\n{tail}"
        self.tools = []
        self.has_resources = False
        self._set("failed", message)

    def mark_gone(self, during: str, exc: BaseException) -> str:
        """The server broke during a request: mark it failed and let its task clean up."""
        if self.state == "connected":
            self._fail(f"connection lost during {during}: {describe_error(exc)}")
        self._stop.set()
        return f"MCP server '{self.name}' failed: {self.error or f'connection lost during {during}'}"

    def stderr_tail(self) -> str:
        stream = self._stderr
        if stream is None or stream.closed:
            return ""
        try:
            stream.flush()
            stream.seek(0, os.SEEK_END)
            size = stream.tell()
            stream.seek(max(0, size - STDERR_TAIL_CHARS * 4))
            text = stream.read()
        except (OSError, ValueError):
            return ""
        return text.strip()[-STDERR_TAIL_CHARS:]

    def _close_stderr(self) -> None:
        if self._stderr is not None and not self._stderr.closed:
            with contextlib.suppress(OSError):
                self._stderr.close()

    # ── requests ───────────────────────────────────────────────────────────────────────────

    def require_client(self) -> Any:
        if self.state != "connected" or self.client is None:
            detail = f": {self.error}" if self.error else ""
            raise ServerGone(f"MCP server '{self.name}' is not connected ({self.state}{detail})")
        return self.client

    async def request(self, what: str, make: Callable[[Any], Any]) -> Any:
        """Run `make(client)` (an SDK coroutine); a broken connection raises ServerGone and
        marks this server failed; an MCP error answer is re-raised as is."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        client = self.require_client()
        try:
            return await make(client)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED or self._connection_broken():
                raise ServerGone(self.mark_gone(what, exc)) from exc
            raise
        except (asyncio.CancelledError, TimeoutError):
            raise
        except Exception as exc:
            raise ServerGone(self.mark_gone(what, exc)) from exc

    def _connection_broken(self) -> bool:
        return self._task is None or self._task.done()


@contextlib.asynccontextmanager
async def _http_transport(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    """Streamable HTTP with our headers; the HTTP client is ours to close."""
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


def describe_error(exc: BaseException) -> str:
    """A one-line reason, unwrapping the exception groups anyio task groups raise."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or text}"
    name = type(exc).__name__
    return f"{name}: {text}" if text else name
