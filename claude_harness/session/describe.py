"""Reports (what /permissions, /hooks, /mcp, /memory and /sandbox show, written once for every
front end, and the structured facts a program on the SDK pipe asks for: mcp_status, context) and
the /mcp approve|reconnect actions, with a program's disable|enable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.api.pricing import context_window_for
from claude_harness.mcp.approvals import approval_project, record_approval
from claude_harness.protocol.events import Notice, Report
from claude_harness.session.sandbox_control import sandbox_status


def report(topic: str, session: Any) -> Report:
    """The Report answering a Describe op; `session` is the Session answering it."""
    maker = DATA_TOPICS.get(topic)
    if maker is not None:
        return Report(topic, (), maker(session))
    return Report(topic, describe(topic, session))


def describe(topic: str, session: Any) -> tuple[str, ...]:
    writer = TOPICS.get(topic)
    if writer is None:
        return (f"Nothing to describe for {topic!r}.",)
    return tuple(writer(session))


def _permissions(session: Any) -> list[str]:
    rules = [f"{behavior:5} {value}  [{source}]"
             for behavior, value, source in session.prompter.describe_rules(
                 session.permission.rules)]
    return [f"Mode: {session.mode}", *(rules or ["No permission rules."]), "",
            "Add one with /permissions allow|deny|ask <rule>, e.g. /permissions allow "
            "Bash(npm test:*);",
            "remove one saved in .claude/settings.local.json with /permissions remove <rule>"]


def _hooks(session: Any) -> list[str]:
    hooks = session.config.hooks
    lines = [str(line) for line in hooks.describe()] if hooks is not None else []
    return ["Configured hooks:", *lines] if lines else ["No hooks are configured."]


def _mcp(session: Any) -> list[str]:
    manager = session.config.mcp
    if manager is None:
        return ["No MCP servers are configured (.mcp.json, ~/.claude.json or --mcp-config)."]
    return manager.format_status().splitlines()


def _memory(session: Any) -> list[str]:
    files = [str(f) for f in session.config.memory_files]
    return ["Memory files (changes apply from the next session):", *(files or ["(none yet)"])]


def _sandbox(session: Any) -> list[str]:
    return sandbox_status(session.permission)


TOPICS = {"permissions": _permissions, "hooks": _hooks, "mcp": _mcp, "memory": _memory,
          "sandbox": _sandbox}


def mcp_action(manager: Any, action: str, name: str, cwd: Path) -> Notice:
    """`/mcp approve <name>` (a project server waiting for approval) or `/mcp reconnect`."""
    if manager is None:
        return Notice("No MCP servers are configured (.mcp.json, ~/.claude.json or "
                      "--mcp-config).")
    if action in ("disable", "enable"):
        done = manager.disable(name) if action == "disable" else manager.enable(name)
        return Notice(f"{action.capitalize()}d {name}." if done else f"Cannot {action} {name}.",
                      "info" if done else "error")
    if action == "reconnect":
        ok = manager.reconnect(name)
        return Notice(f"Reconnecting {name}…" if ok else f"Cannot reconnect {name}.")
    config = next((c for c in manager.pending_approvals() if c.name == name), None)
    if config is None:
        return Notice(f"No project server {name!r} is waiting for approval.", "warning")
    record_approval(approval_project(config, cwd), name, True)
    manager.approve(name)
    return Notice(f"Approved {name}; it starts now. Its tools are offered from the next session "
                  "on (the tool list is fixed per session).")


def _mcp_status(session: Any) -> list[dict[str, Any]]:
    manager = session.config.mcp
    if manager is None:
        return []
    return [{"name": c.name, "status": c.state, "scope": c.config.scope,
             "transport": c.config.transport, "error": c.error,
             "tools": [{"name": t.name, "description": getattr(t, "description", "") or ""}
                       for t in c.tools]}
            for c in manager.connections]


def _context(session: Any) -> dict[str, Any]:
    window = context_window_for(session.model)
    tokens = session.totals.last_context_tokens
    return {"model": session.model, "tokens": tokens, "window": window,
            "compact_threshold": session.compact_threshold,
            "system_chars": len(session.config.system_prompt),
            "tool_chars": sum(len(str(t.api_schema())) for t in session.config.tools),
            "messages": len(session.messages),
            "memory_files": [str(f) for f in session.config.memory_files]}


DATA_TOPICS = {"mcp_status": _mcp_status, "context": _context}
