"""Helpers for the MCP tests: configs for the demo server, a real ToolUseContext over a tool
pool, one call through the real pipeline, and a free port."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

from claude_harness.mcp.config import McpServerConfig
from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
from claude_harness.protocol.tool import Tool
from claude_harness.tools.pipeline import ToolOutcome, check_permissions_and_call_tool

SERVER = str(Path(__file__).parent / "servers" / "demo_server.py")


def demo(name: str, **kw: Any) -> McpServerConfig:
    """The demo server over stdio, named `name`."""
    return McpServerConfig(name=name, command=sys.executable, args=(SERVER, name),
                           scope=kw.pop("scope", "cli"), **kw)


def permission(cwd: Path, *, allow: tuple[str, ...] = (), deny: tuple[str, ...] = (),
               interactive: bool = False) -> PermissionContext:
    rules = tuple(
        PermissionRule("cliArg", behavior, parse_rule(text))  # type: ignore[arg-type]
        for behavior, texts in (("allow", allow), ("deny", deny)) for text in texts
    )
    return PermissionContext(cwd=cwd, rules=rules, interactive=interactive)


def make_ctx(perm: PermissionContext, tools: tuple[Tool, ...], session_dir: Path | None = None
             ) -> ToolUseContext:
    """A context over `tools`. Deferred tools (a pool with many MCP tools defers them behind
    ToolSearch) count as already loaded: these tests are about MCP calls, not ToolSearch."""
    extra: dict[str, Any] = {}
    if "loaded_deferred" in ToolUseOptions.__dataclass_fields__:
        extra["loaded_deferred"] = frozenset(t.name for t in tools if t.should_defer)
    return ToolUseContext(
        options=ToolUseOptions(tools=tools, session_dir=session_dir, **extra),
        permission=perm,
        abort=AbortSignal(),
        read_file_state=FileStateCache(),
        shell=ShellState(perm.cwd),
    )


async def call(ctx: ToolUseContext, name: str, args: dict[str, Any],
               events: list[Any] | None = None) -> ToolOutcome:
    """One tool_use block through check_permissions_and_call_tool."""
    sink = events if events is not None else []
    return await check_permissions_and_call_tool(
        {"id": f"toolu_{name[-20:]}", "name": name, "input": args}, ctx, sink.append)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def text_of(outcome: ToolOutcome) -> str:
    content = outcome.content
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if b.get("type") == "text")


class TypedAnswers:
    """A user at the form: types `answers` (field name -> text, as typed) into the fields and
    submits; fields not in `answers` are left empty, so their defaults apply. `action` other
    than "accept" is the user pressing decline / escape. Every request is kept."""

    def __init__(self, answers: dict[str, str] | None = None, action: str = "accept") -> None:
        self.answers = answers or {}
        self.action = action
        self.requests: list[Any] = []

    async def elicit(self, request: Any) -> Any:
        from claude_harness.mcp.elicitation import ElicitationAnswer, parse_value

        self.requests.append(request)
        if self.action != "accept":
            return ElicitationAnswer(self.action)  # type: ignore[arg-type]
        values = {}
        for field in request.fields():
            value = parse_value(field, self.answers.get(field.name, ""))
            if value is not None:
                values[field.name] = value
        return ElicitationAnswer.accept(values)
