"""What a session does with its MCP servers after start: prompts offered as slash commands,
tools a server adds mid-session, and logins.

- Prompts: each connected server's prompts are `/mcp__<server>__<prompt> args` commands. The
  front ends learn the list from `McpPromptsChanged` (sent again whenever a server's list
  changes) and show it in /help and completion; the command runs as a prompt whose content the
  server renders (`prompts/get`).
- Tools: the tool list sits at the front of the prompt cache, so after the first request it
  never changes in place. A server that adds tools later (`tools/list_changed`, or a server
  that connects late) gets them appended after the last definition, deferred (loaded with
  ToolSearch or called directly), and the model is told by a reminder with the next prompt;
  tools a server dropped are named in that reminder too (calling one fails cleanly).
- Logins: `/mcp authenticate NAME` runs the OAuth flow in a task and reports the link and the
  outcome as events.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from claude_harness.mcp.client import McpManager
from claude_harness.mcp.prompts import McpPromptCommand, PromptError
from claude_harness.permissions.resolver import tool_denied_entirely
from claude_harness.protocol.events import (
    McpAuthUrl,
    McpPromptInfo,
    McpPromptsChanged,
    McpResourceInfo,
    McpResourcesChanged,
    Notice,
)
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.protocol.tool import Tool
from claude_harness.tools.registry import TOOL_SEARCH, find_base_tool

Emit = Callable[[Any], None]


@dataclass(frozen=True)
class ToolUpdate:
    """Tools to append to the session's list (deferred), and the reminder for the model."""

    added: tuple[Tool, ...]
    reminder: str


class McpWiring:
    def __init__(self, manager: McpManager, emit: Emit) -> None:
        self.manager = manager
        self._emit = emit
        self._prompts: tuple[McpPromptInfo, ...] = ()
        self._announced_removed: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._resources: dict[str, tuple[McpResourceInfo, ...]] = {}  # server -> listed
        self._resources_sent: tuple[McpResourceInfo, ...] = ()

    # ── prompts ─────────────────────────────────────────────────────────────────────────────

    def prompts_event(self) -> McpPromptsChanged | None:
        """The prompt list for the front ends, when it differs from the last one sent."""
        prompts = tuple(McpPromptInfo(c.name, c.description, c.argument_hint)
                        for c in self.manager.prompt_commands())
        if prompts == self._prompts:
            return None
        self._prompts = prompts
        return McpPromptsChanged(prompts)

    def find_prompt(self, name: str) -> McpPromptCommand | None:
        return next((c for c in self.manager.prompt_commands() if c.name == name), None)

    async def render_prompt(self, command: McpPromptCommand,
                            args: str) -> tuple[dict[str, Any], ...] | None:
        """The prompt's content blocks from the server; None (after an error notice) when the
        arguments are incomplete or the server refused."""
        try:
            return tuple(await command.render(args))
        except PromptError as exc:
            self._emit(Notice(str(exc), "error"))
            return None

    # ── resources, for `@server:uri` ────────────────────────────────────────────────────────

    def resources(self) -> tuple[McpResourceInfo, ...]:
        return tuple(r for name in sorted(self._resources) for r in self._resources[name])

    def resources_changed(self) -> None:
        """After a state change: list the resources of servers that just connected (in a
        task), forget those of servers gone; the front ends hear McpResourcesChanged."""
        from claude_harness.session.services.mcp_resources import list_resources  # resources only

        live = {c.name: c for c in self.manager.connections
                if c.state == "connected" and c.has_resources}
        for name in [n for n in self._resources if n not in live]:
            del self._resources[name]
        for name, conn in live.items():
            if name not in self._resources:
                self._resources[name] = ()  # listing: asked once per connection

                async def listed(conn: Any = conn) -> None:
                    found = await list_resources(conn)
                    if conn.name in self._resources:  # still connected
                        self._resources[conn.name] = found
                    self._send_resources()

                self._start(listed(), f"mcp-resources-{name}")
        self._send_resources()

    def _send_resources(self) -> None:
        current = self.resources()
        if current != self._resources_sent:
            self._resources_sent = current
            self._emit(McpResourcesChanged(current))

    def _start(self, work: Any, name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ── tools that arrive after the first request ───────────────────────────────────────────

    def tool_update(self, tools: Iterable[Tool],
                    permission: PermissionContext) -> ToolUpdate | None:
        """New server tools (deferred, those the deny rules allow) and newly removed names,
        compared with the session's fixed list; None when nothing changed."""
        tools = tuple(tools)
        changes = self.manager.tool_changes(tools)
        added = tuple(t for t in changes.added if not tool_denied_entirely(t.name, permission))
        removed = [n for n in changes.removed if n not in self._announced_removed]
        self._announced_removed.update(removed)
        if not (added or removed):
            return None
        if added and not any(t.name == TOOL_SEARCH for t in tools):
            search = find_base_tool(TOOL_SEARCH)
            if search is not None and not tool_denied_entirely(TOOL_SEARCH, permission):
                added = (*added, search)
        notes = []
        new_names = [t.name for t in added if t.name != TOOL_SEARCH]
        if new_names:
            notes.append("MCP servers added these deferred tools; load one with ToolSearch "
                         "(or call it directly): " + ", ".join(new_names))
        if removed:
            notes.append("These MCP tools are no longer available: " + ", ".join(removed))
        return ToolUpdate(added, "\n".join(notes))

    # ── logins ──────────────────────────────────────────────────────────────────────────────

    def authenticate(self, name: str) -> None:
        """/mcp authenticate NAME: start the login; its link and outcome arrive as events."""
        task = asyncio.create_task(self._authenticate(name), name=f"mcp-auth-{name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _authenticate(self, name: str) -> None:
        conn = self.manager.get(name)
        if conn is None:
            self._emit(Notice(f"No MCP server named {name}. /mcp lists them.", "error"))
            return
        if conn.config.transport == "stdio":
            self._emit(Notice(f"{name} is a local (stdio) server: it needs no login.",
                              "warning"))
            return
        self._emit(Notice(f"Authenticating with {name}…"))
        try:
            state = await self.manager.authenticate(
                name, lambda url: self._emit(McpAuthUrl(name, url)))
        except Exception as exc:  # a broken server or flow is reported, never raised
            self._emit(Notice(f"Authentication with {name} failed: {exc}", "error"))
            return
        conn = self.manager.get(name)
        if state == "connected":
            self._emit(Notice(f"Authentication successful. Connected to {name}."))
        else:
            error = f": {conn.error.splitlines()[0]}" if conn is not None and conn.error else ""
            self._emit(Notice(f"Authentication with {name} did not complete ({state}){error}",
                              "error"))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
