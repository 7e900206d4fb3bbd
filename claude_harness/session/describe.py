"""The lines of a Report (what /permissions, /hooks, /mcp, /memory and /sandbox show, written once for
every front end) and the /mcp approve|reconnect actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.mcp.approvals import approval_project, record_approval
from claude_harness.protocol.events import Notice
from claude_harness.session.sandbox_control import sandbox_status


def describe(topic: str, session: Any) -> tuple[str, ...]:
    """`session` is the Session answering a Describe op."""
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
