"""What the `/mcp` panels show and do, for every front end: the servers as plain data
(`Describe("mcp_servers")` answers with it) and the enable/disable toggle, saved as Claude
Code saves it (mcp/disabled.py) so the choice holds in the next session of either program."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.mcp.disabled import save_disabled
from claude_harness.protocol.events import Notice

STATUS_WORDS = {"connected": "connected", "pending": "connecting", "failed": "failed",
                "needs-auth": "needs authentication", "needs-approval": "pending approval",
                "disabled": "disabled", "closed": "closed"}


def toggle_server(manager: Any, name: str, enable: bool, cwd: Path) -> Notice:
    """`/mcp enable|disable NAME`: start or stop the server now and remember it for this
    project (`disabledMcpServers`); a server that is already so is still saved so."""
    conn = manager.get(name)
    if conn is None:
        names = ", ".join(c.name for c in manager.connections) or "none"
        return Notice(f"No MCP server named {name!r}. Servers: {names}.", "error")
    done = manager.enable(name) if enable else manager.disable(name)
    try:
        save_disabled(cwd, name, not enable)
    except (OSError, ValueError) as exc:
        return Notice(f"{'Enabled' if enable else 'Disabled'} {name} for this session only: "
                      f"the user config could not be written ({exc}).", "warning")
    if enable:
        text = f"Enabled {name}." if done else f"{name} is not disabled; it stays as it is."
        if done and conn.config.error:
            text = f"Enabled {name}, but it cannot start: {conn.config.error}"
    else:
        text = f"Disabled {name} in this project." if done else f"{name} was already disabled."
    return Notice(text)


def config_location(conn: Any) -> str:
    """Where the server is configured, as the panel names it."""
    source = conn.config.source or ""
    scope: str = conn.config.scope or ""
    if scope == "local":
        from claude_harness.mcp.config import local_project_key

        return f"{source or '~/.claude.json'} [project: {local_project_key(Path(conn.cwd))}]"
    return source or {"cli": "--mcp-config", "sdk": "the SDK program"}.get(scope, scope)


def server_rows(manager: Any) -> list[dict[str, Any]]:
    """Every server with what the panel draws: status (and why it failed), scope, where it is
    configured, its tools, whether it offers resources and which actions apply."""
    if manager is None:
        return []
    return [_row(conn) for conn in manager.connections]


def _row(conn: Any) -> dict[str, Any]:
    cfg = conn.config
    remote = cfg.transport != "stdio"
    target = cfg.url if remote else " ".join([cfg.command, *cfg.args])
    return {
        "name": conn.name, "status": conn.state, "status_text": STATUS_WORDS.get(
            conn.state, conn.state), "error": conn.error, "scope": cfg.scope,
        "transport": cfg.transport, "target": target, "location": config_location(conn),
        "tools": [{"name": getattr(t, "name", ""),
                   "description": (getattr(t, "description", "") or "").strip()}
                  for t in conn.tools],
        "resources": bool(conn.has_resources), "actions": _actions(conn, remote)}


def _actions(conn: Any, remote: bool) -> list[str]:
    """What the panel offers for this server, in Claude Code's order."""
    state = conn.state
    actions = ["tools"] if state == "connected" else []
    if state == "needs-approval":
        actions.append("approve")
    if remote and state in ("needs-auth", "failed"):
        actions.append("authenticate")
    if state in ("failed", "closed", "needs-auth", "connected") and not conn.config.error:
        actions.append("reconnect")
    actions.append("enable" if state == "disabled" else "disable")
    return actions
