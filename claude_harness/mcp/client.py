"""McpManager: every configured MCP server, started in the background, offered as tools.

    manager = McpManager.from_options(cwd, opts.mcp_config)   # reads configs; starts nothing
    manager.start()                 # inside the running loop; returns at once
    tools = manager.tools()         # the tools of servers connected *so far*
    await manager.wait_ready()      # headless: wait until every server connected or failed
    manager.status()                # for /mcp and stream-json init
    await manager.close()

What the session wires in (see each method): `manager.elicitation` (who answers a server's
questions), `add_root()` on /add-dir, `prompt_commands()` for the command registry,
`tool_changes(tools)` after a `tools/list_changed`, `authenticate(name, show_url)` from /mcp.

Servers connect concurrently in their own tasks, so the first paint and the first prompt never
wait for them. A server that cannot start, hangs past MCP_TIMEOUT (default 30 s) or dies later is
reported as failed in `status()`; the others and the session go on. Listeners added with
`add_listener` hear about every state change, so a front end can refresh its tool pool and its
/mcp view (`assemble_tool_pool(permission, mcp_tools=manager.tools())`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from claude_harness.mcp.approvals import ProjectPolicy, approval_state
from claude_harness.mcp.config import McpServerConfig, load_mcp_configs, parse_server
from claude_harness.mcp.connection import ClientServices, McpConnection, State
from claude_harness.mcp.disabled import disabled_servers
from claude_harness.mcp.elicitation import ElicitationRouter
from claude_harness.mcp.names import sanitize
from claude_harness.mcp.oauth import LOGIN_TIMEOUT_SECONDS, Authorizer, ShowUrl
from claude_harness.mcp.prompts import McpPromptCommand, build_prompt_commands
from claude_harness.mcp.resources import build_list_tool, build_read_tool
from claude_harness.mcp.roots import Roots
from claude_harness.mcp.sdk_transport import SdkMcpChannel
from claude_harness.mcp.tools import build_server_tools
from claude_harness.protocol.tool import Tool

DEFAULT_STARTUP_TIMEOUT = 30.0

Listener = Callable[["McpManager"], None]


def _seconds_from_env(name: str, default: float | None) -> float | None:
    """MCP_TIMEOUT / MCP_TOOL_TIMEOUT are milliseconds, as in Claude Code."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw) / 1000.0
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass(frozen=True)
class ServerStatus:
    """One line of /mcp."""

    name: str
    state: State
    scope: str
    transport: str
    source: str
    error: str | None
    tool_count: int
    has_resources: bool

    def describe(self) -> str:
        label = {"connected": "✔ connected", "pending": "… connecting", "failed": "✘ failed",
                 "needs-auth": "⚠ needs authentication",
                 "needs-approval": "? needs approval", "disabled": "○ disabled",
                 "closed": "○ closed"}[self.state]
        line = f"{self.name} · {label} · {self.transport} · {self.scope}"
        if self.state == "connected":
            line += f" · {self.tool_count} tool{'s' if self.tool_count != 1 else ''}"
            if self.has_resources:
                line += " · resources"
        if self.error:
            line += f"\n    {self.error}".replace("\n", "\n    ") if "\n" in self.error \
                else f"\n    {self.error}"
        return line


@dataclass(frozen=True)
class ToolChanges:
    """How the servers' tools differ from the session's fixed tool list.

    `added`: tools a server offers now that the session does not have, marked deferred so they
    join through ToolSearch without touching the cached tool prefix. `removed`: session tools
    no server offers any more; calling one fails with a clear message."""

    added: tuple[Tool, ...] = ()
    removed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


class McpManager:
    """Owns the connections; hands out Tool objects for the connected ones."""

    def __init__(
        self,
        servers: Sequence[McpServerConfig],
        *,
        cwd: Path,
        startup_timeout: float | None = None,
        tool_timeout: float | None = None,
        approve_project: bool = False,
        policy: ProjectPolicy | None = None,
        warnings: Iterable[str] = (),
        sdk_channel: SdkMcpChannel | None = None,
    ) -> None:
        """`approve_project=True` starts project servers never asked about (e.g. `-p` in a
        trusted folder); an explicit "no" recorded earlier is still honoured. `policy` carries
        the enabled/disabled server lists of the user's settings. `sdk_channel` reaches the
        servers of type `sdk`, which the program on the Agent SDK pipe hosts."""
        self.cwd = Path(cwd)
        self.policy = policy
        self.sdk_channel = sdk_channel
        self.warnings: list[str] = list(warnings)
        self.startup_timeout = startup_timeout or _seconds_from_env(
            "MCP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT) or DEFAULT_STARTUP_TIMEOUT
        self.tool_timeout = tool_timeout or _seconds_from_env("MCP_TOOL_TIMEOUT", None)
        self._listeners: list[Listener] = []
        self._tools: tuple[Tool, ...] | None = None
        self._retired: list[asyncio.Future[None]] = []  # replaced connections still closing
        self._toggles: dict[str, asyncio.Future[None]] = {}  # stops and restarts under way
        self.services = ClientServices(roots=Roots([self.cwd]))
        self.services.roots.on_change(self._roots_changed)
        self._disabled = disabled_servers(self.cwd)  # `disabledMcpServers` of this project
        self.connections: list[McpConnection] = [
            self._connection(cfg, self._initial_state(cfg, approve_project)) for cfg in servers
        ]

    def _connection(self, cfg: McpServerConfig, state: State = "pending",
                    authorizer: Authorizer | None = None,
                    startup_timeout: float | None = None) -> McpConnection:
        return McpConnection(
            cfg, cwd=self.cwd, startup_timeout=startup_timeout or self.startup_timeout,
            tool_timeout=self.tool_timeout, on_change=self._changed, initial_state=state,
            services=self.services, authorizer=authorizer, sdk_channel=self.sdk_channel,
        )

    @classmethod
    def from_options(
        cls, cwd: Path, mcp_config: Iterable[str] = (), *, approve_project: bool = False,
        policy: ProjectPolicy | None = None, startup_timeout: float | None = None,
        strict: bool = False, sdk_channel: SdkMcpChannel | None = None,
        extra_servers: Mapping[str, Any] | None = None,
    ) -> McpManager:
        """Servers from the user config, `.mcp.json` and `--mcp-config` values (`strict`: from
        `--mcp-config` only), plus `extra_servers` (plugins' servers,
        `plugin:<plugin>:<server>`: started like the user's own, since the user chose the
        plugin)."""
        loaded = load_mcp_configs(Path(cwd), cli_values=mcp_config, include_user=not strict,
                                  include_project=not strict)
        servers = list(loaded.servers)
        for name, raw in (extra_servers or {}).items():
            servers.append(parse_server(name, raw, scope="user", source=f"plugin {name}",
                                        env=os.environ))
        return cls(servers, cwd=cwd, approve_project=approve_project, policy=policy,
                   startup_timeout=startup_timeout, warnings=loaded.warnings,
                   sdk_channel=sdk_channel)

    def pending_approvals(self) -> list[McpServerConfig]:
        """Project servers waiting for the user's first yes/no (ask, record_approval, approve)."""
        return [c.config for c in self.connections if c.state == "needs-approval"]

    def _initial_state(self, cfg: McpServerConfig, approve_project: bool) -> State:
        if cfg.name in self._disabled:
            return "disabled"
        approved = approval_state(cfg, self.cwd, self.policy)
        if approved is False:
            return "disabled"
        if approved is None and not approve_project:
            return "needs-approval"
        return "pending"

    # ── lifecycle ──────────────────────────────────────────────────────────────────────────

    def start(self) -> None:
        """Start every startable server in the background. Must be called from the event loop
        that will run the tool calls. Never blocks, never raises for a bad server."""
        for conn in self.connections:
            conn.start()

    def approve(self, name: str) -> None:
        """Start a server that was waiting for approval (call after record_approval)."""
        conn = self.get(name)
        if conn is not None and conn.state in ("needs-approval", "disabled"):
            conn.allow_start()
            conn.start()
            self._changed(conn)

    def reconnect(self, name: str) -> bool:
        """Start a failed or closed server again (for /mcp); False when it cannot be. A
        connected one is closed and started again as the same object (its tools hold it)."""
        old = self.get(name)
        if old is not None and old.state == "connected":
            self._restart(old, after=asyncio.ensure_future(old.stop("closed")))
            return True
        if old is None or old.state not in ("failed", "closed", "needs-auth") or old.config.error:
            return False
        self._replace(old, self._connection(old.config))
        return True

    def _replace(self, old: McpConnection, fresh: McpConnection) -> None:
        self.connections[self.connections.index(old)] = fresh
        self._retired.append(asyncio.ensure_future(old.close()))
        fresh.start()
        self._changed(fresh)

    async def authenticate(self, name: str, show_url: ShowUrl,
                           timeout: float = LOGIN_TIMEOUT_SECONDS) -> State | None:
        """Log in to a remote server that needs it (what /mcp's "authenticate" runs).

        The OAuth flow discovers the server's metadata, registers this client, and hands the
        authorization URL to `show_url` (print it; the app makes it a link); it then waits up
        to `timeout` for the browser to come back to the local listener, stores the tokens
        (0600, in the data dir) and connects. Returns the server's state afterwards (None: no
        such remote server)."""
        old = self.get(name)
        if old is None or old.config.transport == "stdio" or old.config.error:
            return None
        fresh = self._connection(old.config, authorizer=Authorizer(show_url, timeout),
                                 startup_timeout=timeout + self.startup_timeout)
        self._replace(old, fresh)
        await fresh.wait_settled()
        return fresh.state

    def disable(self, name: str) -> bool:
        """Stop a server until `enable` (a program's toggle); its tools fail meanwhile."""
        conn = self.get(name)
        if conn is None or conn.state == "disabled":
            return False
        self._toggles[name] = asyncio.ensure_future(conn.stop("disabled"))
        return True

    def enable(self, name: str) -> bool:
        """Start a server `disable` stopped (once it is down); False when it was not."""
        conn = self.get(name)
        stopping = self._toggles.pop(name, None)
        if conn is None or conn.config.error or (stopping is None and conn.state != "disabled"):
            return False
        self._restart(conn, after=stopping)
        return True

    def _restart(self, conn: McpConnection, after: asyncio.Future[None] | None = None) -> None:
        """The same connection object starts again (tools hold it): now, or once `after`."""
        if after is None:
            conn.allow_start()
            conn.start()
            self._changed(conn)
            return

        async def restart() -> None:
            await after
            self._restart(conn)

        self._toggles[conn.name] = asyncio.ensure_future(restart())

    async def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until no server is still connecting; False when `timeout` ran out first."""
        waits = [c.wait_settled() for c in self.connections if c.state == "pending"]
        if not waits:
            return True
        try:
            await asyncio.wait_for(asyncio.gather(*waits), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        """Stop every server (each stdio process is closed, then killed if it lingers)."""
        for toggle in self._toggles.values():
            toggle.cancel()
        await asyncio.gather(*(c.close() for c in self.connections), *self._retired,
                             *self._toggles.values(),
                             return_exceptions=True)

    # ── what front ends read ─────────────────────────────────────────────────────────────

    def get(self, name: str) -> McpConnection | None:
        return next((c for c in self.connections if c.name == name), None)

    def tools(self) -> tuple[Tool, ...]:
        """Tools of the servers connected right now, plus the two resource tools when any of
        them offers resources. Rebuilt only after a state change, so the objects (and their
        serialized schemas) stay identical between turns."""
        if self._tools is None:
            self._tools = self._build_tools()
        return self._tools

    def _build_tools(self) -> tuple[Tool, ...]:
        taken: set[str] = set()
        tools: list[Tool] = []
        connected = [c for c in self.connections if c.state == "connected"]
        for conn in connected:
            built, skipped = build_server_tools(conn, taken)
            tools.extend(built)
            self.warnings.extend(w for w in skipped if w not in self.warnings)
        if any(c.has_resources for c in connected):
            live = lambda: list(self.connections)  # noqa: E731
            tools.extend([build_list_tool(live), build_read_tool(live)])
        return tuple(sorted(tools, key=lambda t: t.name))

    def status(self) -> list[ServerStatus]:
        return [
            ServerStatus(
                name=c.name, state=c.state, scope=c.config.scope, transport=c.config.transport,
                source=c.config.source, error=c.error, tool_count=len(c.tools),
                has_resources=c.has_resources,
            )
            for c in self.connections
        ]

    def init_info(self) -> list[dict[str, str]]:
        """`mcp_servers` of stream-json's init line: [{name, status}], with a one-line
        `error` for a server that failed or needs a login."""
        info = []
        for conn in self.connections:
            entry = {"name": conn.name, "status": conn.state}
            if conn.state in ("failed", "needs-auth") and conn.error:
                entry["error"] = conn.error.splitlines()[0]
            info.append(entry)
        return info

    # ── what the session wires in ──────────────────────────────────────────────────────────

    @property
    def elicitation(self) -> ElicitationRouter:
        """Who answers a server's elicitation: append hook/SDK answerers to `.answerers`, set
        the front end's form as `.front_end` (None: cancelled, as in -p)."""
        return self.services.elicitation

    @property
    def roots(self) -> Roots:
        return self.services.roots

    def add_root(self, directory: Path) -> bool:
        """/add-dir: offer one more working directory; connected servers are told the roots
        changed. False when it already was a root."""
        return self.services.roots.add(directory)

    def _roots_changed(self) -> None:
        for conn in self.connections:
            if conn.state == "connected":
                self._retired.append(asyncio.ensure_future(conn.notify_roots_changed()))

    def prompt_commands(self) -> list[McpPromptCommand]:
        """`/mcp__<server>__<prompt>` for every prompt of every connected server."""
        commands: list[McpPromptCommand] = []
        for conn in self.connections:
            if conn.state == "connected" and conn.prompts:
                fetch = _prompt_fetcher(conn)
                commands.extend(build_prompt_commands(conn.name, conn.prompts, fetch))
        return commands

    def tool_changes(self, session_tools: Iterable[Tool]) -> ToolChanges:
        """Compare the servers' tools now with the session's fixed list (after a
        `tools/list_changed`): new tools come back deferred, gone ones by name. Only tools of
        connected servers count as removed (a failed server's tools fail on their own)."""
        session = {t.name for t in session_tools}
        current = {t.name: t for t in self.tools()}
        added = tuple(replace(t, should_defer=True) for name, t in sorted(current.items())
                      if name not in session)
        live = tuple(f"mcp__{sanitize(c.name)}__" for c in self.connections
                     if c.state == "connected")
        removed = tuple(sorted(n for n in session if n.startswith(live) and n not in current))
        return ToolChanges(added, removed)

    def format_status(self) -> str:
        """The text of /mcp."""
        if not self.connections:
            return "No MCP servers configured. Add them to .mcp.json or pass --mcp-config."
        lines = [s.describe() for s in self.status()]
        lines.extend(f"warning: {w}" for w in self.warnings)
        return "\n".join(lines)

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(manager)` after every server state change; returns a remover."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self, conn: McpConnection) -> None:
        self._tools = None
        for listener in list(self._listeners):
            try:
                listener(self)
            except Exception:  # noqa: BLE001 - a front end's bug must not break a server task
                pass


def _prompt_fetcher(conn: McpConnection) -> Callable[[str, dict[str, str]], Awaitable[Any]]:
    """prompts/get on one connection (a broken connection raises ServerGone)."""

    async def fetch(prompt: str, args: dict[str, str]) -> Any:
        return await conn.request(f"prompt {prompt}", lambda c: c.get_prompt(prompt, args))

    return fetch
