"""The `mcp_tool` hook type, as Claude Code documents it: call a tool of an MCP server the
session already has configured.

    {"type": "mcp_tool", "server": "audit", "tool": "log_call",
     "input": {"path": "${tool_input.file_path}", "event": "${hook_event_name}"}}

String values of `input` may name fields of the hook's input JSON as `${dotted.path}` (a
string that is exactly one such reference takes the field's value whatever its type). The
tool's text answer is read exactly like a command hook's stdout (JSON decisions included); a
tool error, an unknown server or a timeout is a non-blocking error, as a failing command is.

The session gives the runner the caller (`McpToolCaller`), so the hooks package never imports
the MCP client.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from claude_harness.hooks.outcome import HookResult
from claude_harness.hooks.output import MAX_TEXT, Verdict, interpret

if TYPE_CHECKING:
    from claude_harness.hooks.config import HookEntry

# (server, tool, arguments) -> (the tool's text, whether it answered with an error)
McpToolCaller = Callable[[str, str, dict[str, Any]], Awaitable[tuple[str, bool]]]
_REF = re.compile(r"\$\{([A-Za-z0-9_.\-]+)\}")


def _lookup(data: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        else:
            return None
    return data


def interpolate(value: Any, hook_input: dict[str, Any]) -> Any:
    """`${path}` references in string values (nested objects and lists too)."""
    if isinstance(value, dict):
        return {k: interpolate(v, hook_input) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, hook_input) for v in value]
    if not isinstance(value, str):
        return value
    whole = _REF.fullmatch(value)
    if whole:
        return _lookup(hook_input, whole.group(1))

    def sub(match: re.Match[str]) -> str:
        found = _lookup(hook_input, match.group(1))
        if found is None:
            return ""
        return found if isinstance(found, str) else json.dumps(found)

    return _REF.sub(sub, value)


def _result(entry: HookEntry, started: float, *, code: int | None, out: str = "",
            error: str | None = None, timed_out: bool = False) -> HookResult:
    return HookResult(command=entry.command, source=entry.origin, exit_code=code,
                      duration_s=time.monotonic() - started, stdout=out[:MAX_TEXT], stderr="",
                      timed_out=timed_out, error=error)


async def run_mcp_tool_hook(event: str, entry: HookEntry, stdin: bytes, label: str,
                            caller: McpToolCaller | None) -> tuple[HookResult, Verdict]:
    started = time.monotonic()
    server, tool = entry.extra.get("server", ""), entry.extra.get("tool", "")
    if caller is None:
        return _result(entry, started, code=None, error=(
            f"{event} hook {label}: MCP server '{server}' is not configured in this "
            "session; it made no decision")), Verdict()
    arguments = interpolate(entry.extra.get("input") or {}, json.loads(stdin))
    try:
        text, is_error = await asyncio.wait_for(caller(server, tool, arguments), entry.timeout)
    except TimeoutError:
        return _result(entry, started, code=None, timed_out=True, error=(
            f"{event} hook {label} timed out after {entry.timeout:g}s; it made no "
            "decision")), Verdict()
    except Exception as exc:  # noqa: BLE001 - the server's failure is the hook's failure
        return _result(entry, started, code=None, error=(
            f"{event} hook {label} failed: {exc}; it made no decision")), Verdict()
    if is_error:
        return _result(entry, started, code=1, out=text, error=(
            f"{event} hook {label}: the tool answered with an error: {text[:300]}")), Verdict()
    return _result(entry, started, code=0, out=text), interpret(event, label, 0, text, "")
