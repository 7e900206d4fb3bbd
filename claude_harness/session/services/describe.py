"""Reports (what /permissions, /hooks, /mcp, /memory and /sandbox show, written once for every
front end, and the structured facts a program on the SDK pipe asks for: mcp_status, context) and
the /mcp approve|reconnect actions, with a program's disable|enable."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.api.pricing import context_window_for
from claude_harness.api.token_estimate import estimate_tokens
from claude_harness.mcp.approvals import approval_project, record_approval
from claude_harness.protocol.events import Notice, Report
from claude_harness.session.services.sandbox_control import sandbox_status

if TYPE_CHECKING:
    from claude_harness.commands.catalog import Catalog
    from claude_harness.config.load_report import LoadReport
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.mcp.client import McpManager
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.protocol.tool import Tool
    from claude_harness.session.services.prompter import Prompter
    from claude_harness.session.services.totals import Totals


class Described(Protocol):
    """What the reports read of the session (handlers.services.OpServices has it all)."""

    @property
    def permission(self) -> PermissionContext: ...
    @property
    def prompter(self) -> Prompter: ...
    @property
    def hooks(self) -> HookRunner | None: ...
    @property
    def mcp(self) -> McpManager | None: ...
    @property
    def memory_files(self) -> tuple[Path, ...]: ...
    @property
    def load_report(self) -> LoadReport | None: ...
    @property
    def catalog(self) -> Catalog: ...
    @property
    def cwd(self) -> Path: ...
    @property
    def model(self) -> str: ...
    @property
    def totals(self) -> Totals: ...
    @property
    def system_prompt(self) -> str: ...
    @property
    def tools(self) -> tuple[Tool, ...]: ...
    @property
    def messages(self) -> list[dict[str, Any]]: ...
    def compact_threshold(self) -> int | None: ...


def report(topic: str, services: Described) -> Report:
    """The Report answering a Describe op."""
    maker = DATA_TOPICS.get(topic)
    if maker is not None:
        return Report(topic, (), maker(services))
    return Report(topic, describe(topic, services))


def describe(topic: str, services: Described) -> tuple[str, ...]:
    writer = TOPICS.get(topic)
    if writer is None:
        return (f"Nothing to describe for {topic!r}.",)
    return tuple(writer(services))


def _permissions(services: Described) -> list[str]:
    rules = [f"{behavior:5} {value}  [{source}]"
             for behavior, value, source in services.prompter.describe_rules(
                 services.permission.rules)]
    return [f"Mode: {services.permission.mode}", *(rules or ["No permission rules."]), "",
            "Add one with /permissions allow|deny|ask <rule>, e.g. /permissions allow "
            "Bash(npm test:*);",
            "remove one saved in .claude/settings.local.json with /permissions remove <rule>"]


def _hooks(services: Described) -> list[str]:
    hooks = services.hooks
    lines = [str(line) for line in hooks.describe()] if hooks is not None else []
    return ["Configured hooks:", *lines] if lines else ["No hooks are configured."]


def _mcp(services: Described) -> list[str]:
    manager = services.mcp
    if manager is None:
        return ["No MCP servers are configured (.mcp.json, ~/.claude.json or --mcp-config)."]
    return manager.format_status().splitlines()


def _memory(services: Described) -> list[str]:
    files = [str(f) for f in services.memory_files]
    return ["Memory files (changes apply from the next session):", *(files or ["(none yet)"])]


def _sandbox(services: Described) -> list[str]:
    return sandbox_status(services.permission)



def _doctor(services: Described) -> list[str]:
    report = services.load_report
    if report is None:
        return ["No load report: this session was not started from the command line."]
    return [*report.format().splitlines(), "",
            "(`claude-harness doctor --json` prints the same for scripts.)"]


def _agents(services: Described) -> list[str]:
    lines = ["Agent types (the Agent tool's subagent_type):"]
    for agent in services.catalog.agent_list():
        where = str(agent.path) if agent.path else agent.scope
        extras = [f"model {agent.model}" if agent.model else "",
                  f"mode {agent.permission_mode}" if agent.permission_mode else "",
                  f"max {agent.max_turns} turns" if agent.max_turns else "",
                  f"colour {agent.color}" if agent.color else "",
                  "hooks" if agent.hooks else ""]
        detail = ", ".join(e for e in extras if e)
        lines.append(f"  {agent.name}  [{agent.scope}] {where}")
        lines.append(f"    {agent.description}  (tools: {agent.tools_summary}"
                     + (f"; {detail})" if detail else ")"))
    lines += ["", "/agents view <name> shows one; /agents create <name> <description> writes "
              ".claude/agents/<name>.md; /agents edit <name> opens an agent's file in $EDITOR "
              "(both apply from the next session)."]
    return lines


def _plugins(services: Described) -> list[str]:
    catalog = services.catalog
    if not catalog.plugins and not catalog.plugin_load.errors:
        return ["No plugins loaded (--plugin-dir DIR, or enabledPlugins in the settings)."]
    lines: list[str] = []
    commands = catalog.command_list()
    agents = catalog.agent_list()
    for plugin in catalog.plugins:
        own = [c for c in commands if c.plugin == plugin.name]
        version = f" {plugin.version}" if plugin.version else ""
        lines.append(f"{plugin.name}{version}  ({plugin.source}, {plugin.root})")
        for label, names in (
                ("commands", [f"/{c.name}" for c in own if c.kind == "command"]),
                ("skills", [f"/{c.name}" for c in own if c.kind == "skill"]),
                ("agents", [a.name for a in agents if a.plugin == plugin.name]),
                ("hooks", sorted(plugin.hooks or {})),
                ("MCP servers", sorted(plugin.mcp_servers))):
            if names:
                lines.append(f"  {label}: {', '.join(names)}")
    for who, why in catalog.plugin_load.errors:
        lines.append(f"{who}: not loaded: {why}")
    return lines


TOPICS = {"permissions": _permissions, "hooks": _hooks, "mcp": _mcp, "memory": _memory,
          "sandbox": _sandbox, "doctor": _doctor, "agents": _agents, "plugins": _plugins}


def mcp_action(manager: Any, action: str, name: str, cwd: Path) -> Notice:
    """`/mcp approve <name>` (a project server waiting for approval) or `/mcp reconnect`."""
    if manager is None:
        return Notice("No MCP servers are configured (.mcp.json, ~/.claude.json or "
                      "--mcp-config).")
    if action in ("disable", "enable"):
        from claude_harness.session.services.mcp_panel import toggle_server  # /mcp enable|disable

        return toggle_server(manager, name, action == "enable", cwd)
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


def _mcp_status(services: Described) -> list[dict[str, Any]]:
    manager = services.mcp
    if manager is None:
        return []
    return [{"name": c.name, "status": c.state, "scope": c.config.scope,
             "transport": c.config.transport, "error": c.error,
             "tools": [{"name": t.name, "description": getattr(t, "description", "") or ""}
                       for t in c.tools]}
            for c in manager.connections]


def _context(services: Described) -> dict[str, Any]:
    window = context_window_for(services.model)
    tokens = services.totals.last_context_tokens
    return {"model": services.model, "tokens": tokens, "window": window,
            "compact_threshold": services.compact_threshold(),
            "system_tokens": estimate_tokens(services.system_prompt),
            "tool_tokens": sum(estimate_tokens(t.api_schema()) for t in services.tools),
            "messages": len(services.messages),
            "memory_files": [str(f) for f in services.memory_files]}


def _mcp_servers(services: Described) -> list[dict[str, Any]]:
    from claude_harness.session.services.mcp_panel import server_rows  # the /mcp panel's rows

    return server_rows(services.mcp)


def _agent_list(services: Described) -> list[dict[str, Any]]:
    from claude_harness.session.services.agent_panel import agent_rows  # the /agents panel's rows

    return agent_rows(services.catalog, services.cwd)


DATA_TOPICS: dict[str, Callable[[Described], Any]] = {
    "mcp_status": _mcp_status, "context": _context, "mcp_servers": _mcp_servers,
    "agent_list": _agent_list}
