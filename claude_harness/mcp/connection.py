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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from claude_harness import __version__
from claude_harness.mcp.config import McpServerConfig
from claude_harness.mcp.elicitation import ElicitationRouter
from claude_harness.mcp.oauth import Authorizer, build_auth, needs_auth_reason
from claude_harness.mcp.roots import Roots
from claude_harness.mcp.sdk_transport import SdkMcpChannel, sdk_transport

State = Literal["pending", "connected", "failed", "needs-auth", "needs-approval", "disabled",
                "closed"]

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
    import mcp.client.streamable_http  # noqa: F401

    import claude_harness.mcp.guarded_stdio  # noqa: F401 - the stdio transport we use


class ServerGone(Exception):
    """The connection to the server broke (process exited, HTTP endpoint went away)."""


class BadAnswer(Exception):
    """The server answered, but not in a shape the protocol allows; the connection is fine."""


@dataclass
class ClientServices:
    """What this client offers every server: its roots, who answers elicitations, and how an
    OAuth login is asked for (None: report `needs-auth` instead of asking)."""

    roots: Roots = field(default_factory=Roots)
    elicitation: ElicitationRouter = field(default_factory=ElicitationRouter)


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
        services: ClientServices | None = None,
        authorizer: Authorizer | None = None,
        sdk_channel: SdkMcpChannel | None = None,
    ) -> None:
        self.config = config
        self.services = services or ClientServices()
        self.authorizer = authorizer or Authorizer()
        self.sdk_channel = sdk_channel
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
        self.prompts: list[Any] = []  # mcp_types.Prompt
        self.has_resources = False
        self._refreshing: set[asyncio.Task[None]] = set()
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
        """A server that waited for approval, or was stopped (disabled, failed, closed), may
        start (again): call `start()` next. The object stays the same, so the tools built on
        it keep working."""
        if self.state in ("needs-approval", "disabled", "failed", "closed"):
            self.state = "pending"
            self.error = None
            self._settled = asyncio.Event()
            if self._task is not None and self._task.done():
                self._task, self._stop = None, asyncio.Event()
                self._close_stderr()

    async def stop(self, state: State = "disabled") -> None:
        """Close the connection and stay down in `state` until `allow_start`."""
        await self.close()
        self._set(state, None)

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
        for refresh in list(self._refreshing):
            refresh.cancel()
        if self.authorizer.listener is not None:
            await self.authorizer.listener.close()
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
                    listening = asyncio.ensure_future(self._listen(client))
                    try:
                        await self._stop.wait()
                    finally:
                        listening.cancel()
                        with contextlib.suppress(BaseException):
                            await listening
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
                login = needs_auth_reason(exc)
                if login is not None:
                    self._needs_auth(login)
                else:
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

        info = Implementation(name="claude-harness", version=__version__)
        async with Client(
            self._transport(), client_info=info,
            list_roots_callback=self.services.roots.list_roots,
            elicitation_callback=self.services.elicitation.callback(self.name),
            message_handler=self._on_message,
        ) as client:
            yield client

    def _transport(self) -> Any:
        cfg = self.config
        if cfg.transport == "sdk":
            return sdk_transport(self.sdk_channel, self.name)
        if cfg.transport == "stdio":
            # with the SDK: loaded when the first server connects
            from claude_harness.mcp.guarded_stdio import guarded_stdio_client

            self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
            return guarded_stdio_client(cfg.command, list(cfg.args),
                                        env={**os.environ, **cfg.env}, cwd=self.cwd,
                                        errlog=self._stderr)
        auth = self._auth()
        if cfg.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(cfg.url, headers=dict(cfg.headers), auth=auth)
        return _http_transport(cfg.url, dict(cfg.headers), auth)

    def _auth(self) -> Any:
        """OAuth for a remote server, unless the user configured an Authorization header
        (then the credentials are theirs to manage)."""
        if any(k.lower() == "authorization" for k in self.config.headers):
            return None
        auth, _ = build_auth(self.name, self.config.url, self.authorizer,
                             client=self._pre_registered())
        return auth

    def _pre_registered(self) -> Any:
        """The OAuth client `mcp add --client-id` configured (its secret where Claude Code
        keeps it), or None: the SDK registers one."""
        oauth = self.config.oauth
        if not oauth:
            return None
        from claude_harness.mcp.client_secrets import stored_secret
        from claude_harness.mcp.oauth import PreRegistered

        entry = {"type": self.config.transport, "url": self.config.url,
                 "headers": dict(self.config.headers)}
        return PreRegistered(oauth.get("clientId"), stored_secret(self.name, entry),
                             oauth.get("callbackPort"))

    async def _discover(self, client: Any) -> None:
        self.tools = await _list_all(lambda cursor: client.list_tools(cursor=cursor), "tools")
        caps = client.server_capabilities
        self.has_resources = getattr(caps, "resources", None) is not None
        if getattr(caps, "prompts", None) is not None:
            self.prompts = await _list_all(lambda cursor: client.list_prompts(cursor=cursor),
                                           "prompts")
        self.instructions = getattr(client, "instructions", None)

    def offers(self, tool: str) -> bool:
        """Whether the server's current tool list has `tool` (it may change mid-session)."""
        return any(t.name == tool for t in self.tools)

    # ── notifications from the server ──────────────────────────────────────────────────────

    async def _on_message(self, message: Any) -> None:
        """tools/prompts list_changed: list again, in a task of our own (the SDK delivers
        notifications on its receive path, which a request of ours must not block)."""
        from mcp_types import PromptListChangedNotification, ToolListChangedNotification

        if isinstance(message, ToolListChangedNotification):
            self._spawn_refresh("tools")
        elif isinstance(message, PromptListChangedNotification):
            self._spawn_refresh("prompts")

    async def _listen(self, client: Any) -> None:
        """On a 2026-era connection, list changes only flow on a `subscriptions/listen`
        stream; keep one open. Its events also reach `_on_message` (the SDK tees them), which
        does the refresh, so the loop here only drains them."""
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS

        if client.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return
        caps = client.server_capabilities
        tools = getattr(getattr(caps, "tools", None), "list_changed", False)
        prompts = getattr(getattr(caps, "prompts", None), "list_changed", False)
        if not (tools or prompts):
            return
        with contextlib.suppress(Exception):
            async with client.listen(tools_list_changed=bool(tools),
                                     prompts_list_changed=bool(prompts)) as subscription:
                async for _event in subscription:
                    pass

    def _spawn_refresh(self, what: Literal["tools", "prompts"]) -> None:
        task = asyncio.ensure_future(self._refresh(what))
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def _refresh(self, what: Literal["tools", "prompts"]) -> None:
        client = self.client
        if client is None or self.state != "connected":
            return
        try:
            if what == "tools":
                self.tools = await _list_all(
                    lambda cursor: client.list_tools(cursor=cursor, cache_mode="refresh"), what)
            else:
                self.prompts = await _list_all(
                    lambda cursor: client.list_prompts(cursor=cursor, cache_mode="refresh"), what)
        except Exception:  # noqa: BLE001 - keep the old list; the next change lists again
            return
        self._on_change(self)

    async def notify_roots_changed(self) -> None:
        """Tell the server the roots changed (handshake-era protocol versions only: the
        2026 revision dropped the notification, servers there ask again per request)."""
        from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

        client = self.client
        if client is None or self.state != "connected":
            return
        if client.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
            return
        with contextlib.suppress(Exception):
            await client.session.send_notification(_roots_changed())

    # ── state ──────────────────────────────────────────────────────────────────────────────

    def _set(self, state: State, error: str | None) -> None:
        self.state = state
        self.error = error
        if state != "pending":
            self._settled.set()
        self._on_change(self)

    def _needs_auth(self, reason: str) -> None:
        self.tools = []
        self.prompts = []
        self.has_resources = False
        self._set("needs-auth", reason)

    def _fail(self, message: str) -> None:
        tail = self.stderr_tail()
        if tail:
            message = f"{message}\nserver stderr (last lines):\n{tail}"
        self.tools = []
        self.prompts = []
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
        marks this server failed; an MCP error answer is re-raised as is; an answer that breaks
        the protocol (wrong shape, structured content against its own output schema) raises
        BadAnswer and leaves the connection alone."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED
        from pydantic import ValidationError

        if self.state == "pending":  # (re)connecting: the call waits for the handshake
            await self.wait_settled()
        client = self.require_client()
        try:
            return await make(client)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED or self._connection_broken():
                raise ServerGone(self.mark_gone(what, exc)) from exc
            raise
        except (asyncio.CancelledError, TimeoutError):
            raise
        except (ValidationError, RuntimeError) as exc:
            if self._connection_broken():
                raise ServerGone(self.mark_gone(what, exc)) from exc
            raise BadAnswer(f"MCP server '{self.name}' gave an unusable answer to {what}: "
                            f"{describe_error(exc)}") from exc
        except Exception as exc:
            raise ServerGone(self.mark_gone(what, exc)) from exc

    def _connection_broken(self) -> bool:
        return self._task is None or self._task.done()


async def _list_all(fetch: Callable[[str | None], Any], attr: str) -> list[Any]:
    """Every page of a tools/list or prompts/list (at most 100: a server that pages forever
    cannot hang startup)."""
    found: list[Any] = []
    cursor: str | None = None
    for _ in range(100):
        page = await fetch(cursor)
        found.extend(getattr(page, attr))
        cursor = page.next_cursor
        if not cursor:
            break
    return found


def _roots_changed() -> Any:
    from mcp_types import RootsListChangedNotification

    return RootsListChangedNotification()


@contextlib.asynccontextmanager
async def _http_transport(url: str, headers: dict[str, str], auth: Any = None
                          ) -> AsyncIterator[Any]:
    """Streamable HTTP with our headers (and OAuth); the HTTP client is ours to close."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client  # defined there, re-exported nowhere

    async with create_mcp_http_client(headers=headers, auth=auth) as http:
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
