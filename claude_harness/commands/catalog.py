"""Everything a folder's configuration offers: commands, skills, agents and plugins, loaded once
per session, with a load report of what was skipped and why.

Front ends and the session ask the catalog, never the file system again:
  catalog.find_command("review")   `/review` typed by the person (commands and skills)
  catalog.init_fields()            `slash_commands`, `skills`, `agents`, `plugins` of system/init
  catalog.skill_listing()          the skill listing for the model (a system reminder)
  catalog.agent_listing()          the agent types for the Agent tool
  catalog.hook_sources()           plugin hooks, in the HookConfig.from_sources format
  catalog.report                   the LoadReport for /doctor and the start-up notice
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.commands.agents import (
    AgentDefinition,
    AgentSet,
    collect_agents,
    parse_agents_json,
    unknown_tools,
)
from claude_harness.commands.custom import CommandSet, CustomCommand, collect_commands
from claude_harness.commands.plugins.discovery import PluginLoad, discover_plugins
from claude_harness.config.load_report import LoadReport
from claude_harness.config.plugin_only import PLUGIN_ONLY_NOTE

SKILL_LISTING_HEADER = "The following skills are available for use with the Skill tool:\n\n"
SKILL_LISTING_BUDGET = 12_000  # characters (about 3,000 tokens) before descriptions are cut
SHORT_DESCRIPTION = 160


@dataclass
class Catalog:
    cwd: Path
    commands: CommandSet
    agents: AgentSet
    plugin_load: PluginLoad
    report: LoadReport = field(default_factory=LoadReport)

    # -- lookups ------------------------------------------------------------------------------

    def command_list(self) -> list[CustomCommand]:
        return self.commands.ordered()

    def agent_list(self) -> list[AgentDefinition]:
        return self.agents.ordered()

    def find_command(self, name: str) -> CustomCommand | None:
        return self.commands.find(name.lstrip("/"))

    def find_agent(self, name: str) -> AgentDefinition | None:
        return self.agents.found.get(name)

    @property
    def plugins(self) -> list[Any]:
        return self.plugin_load.plugins

    # -- what the session shows -----------------------------------------------------------

    def init_fields(self) -> dict[str, Any]:
        """The configuration part of system/init; the session adds its built-in commands to
        `slash_commands` (before these, as Claude Code lists them)."""
        items = self.command_list()
        return {
            "slash_commands": [c.name for c in items if c.user_invocable],
            "skills": [c.name for c in items if c.in_init_skills],
            "agents": [a.name for a in self.agent_list()],
            "plugins": [p.init_info() for p in self.plugins],
        }

    def skill_listing(self, budget_chars: int = SKILL_LISTING_BUDGET) -> str:
        """The skills (and commands) the model may load with the Skill tool, one per line.

        Over the budget, descriptions are shortened; still over it, only names are listed
        (the model loads a skill by exact name, so nothing becomes unreachable)."""
        items = [c for c in self.command_list() if c.listed_to_model]
        if not items:
            return ""
        for limit in (None, SHORT_DESCRIPTION, 0):
            lines = [_listing_line(c, limit) for c in items]
            text = SKILL_LISTING_HEADER + "\n".join(lines)
            if len(text) <= budget_chars or limit == 0:
                break
        if limit == 0:
            text += ("\n\n(Descriptions are left out: there are too many skills. Load one by its "
                     "exact name with the Skill tool.)")
        return text

    def agent_listing(self) -> str:
        lines = [f"- {a.name}: {a.description} (Tools: {a.tools_summary})"
                 for a in self.agent_list()]
        return "Available agent types for the Agent tool:\n" + "\n".join(lines)

    def hook_sources(self) -> list[tuple[str, Path | None, dict[str, Any]]]:
        """Plugin hooks as (source, file, raw hooks), for HookConfig.from_sources."""
        return [("pluginHooks", p.hooks_path, p.hooks) for p in self.plugins if p.hooks]

    def plugin_roots(self) -> dict[Path, Path]:
        """hooks file -> plugin folder, so the runner sets CLAUDE_PLUGIN_ROOT for its hooks."""
        return {p.hooks_path: p.root for p in self.plugins if p.hooks_path is not None}

    def mcp_servers(self) -> dict[str, dict[str, Any]]:
        """Plugin MCP servers, named `plugin:<plugin>:<server>` as Claude Code names them."""
        return {f"plugin:{p.name}:{name}": cfg for p in self.plugins
                for name, cfg in p.mcp_servers.items()}


def _listing_line(command: CustomCommand, limit: int | None) -> str:
    name = command.name
    if command.declared_name:
        name = f"{name} ({command.declared_name})"
    if limit == 0:
        return f"- {name}"
    text = " ".join(command.listing_description.split()) if limit else \
        command.listing_description
    if limit and len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"- {name}: {text}" if text else f"- {name}"


def load_catalog(
    cwd: Path,
    *,
    plugin_dirs: Iterable[str | Path] = (),
    enabled_plugins: Mapping[str, Any] | None = None,
    agents_json: str | None = None,
    known_tools: Iterable[str] | None = None,
    locked: frozenset[str] = frozenset(),
) -> Catalog:
    """Load every command, skill, agent and plugin visible from `cwd`; never raises for a bad
    file (it goes to the report). `locked`: the surfaces strictPluginOnlyCustomization locks
    ("skills", "agents"), whose user and project files are skipped and reported."""

    cwd = Path(cwd)
    plugins = discover_plugins(plugin_dirs, enabled_plugins, cwd=cwd)
    flag_agents: list[AgentDefinition] = []
    flag_problems: list[str] = []
    if agents_json:
        flag_agents, flag_problems = parse_agents_json(agents_json)
    commands = collect_commands(cwd, plugins.plugins,
                                locked_note=PLUGIN_ONLY_NOTE if "skills" in locked else None)
    agents = collect_agents(cwd, plugins=plugins.plugins, flag_agents=flag_agents,
                            locked_note=PLUGIN_ONLY_NOTE if "agents" in locked else None)
    catalog = Catalog(cwd, commands, agents, plugins)
    _report(catalog, flag_problems, known_tools)
    remember(catalog)
    return catalog


def _report(catalog: Catalog, flag_problems: list[str], known_tools: Iterable[str] | None) -> None:
    report = catalog.report
    for plugin in catalog.plugins:
        report.add("plugin", plugin.name, str(plugin.root))
        for warning in plugin.warnings:
            report.add("plugin", plugin.name, str(plugin.root), "warning", warning)
    for who, why in catalog.plugin_load.errors:
        report.add("plugin", who, "plugins", "skipped", why)
    for item in catalog.command_list():
        report.add(item.kind, item.name, str(item.path))
        for warning in item.warnings:
            report.add(item.kind, item.name, str(item.path), "warning",
                       warning.split(": ", 1)[-1] + " (read leniently)")
    for shadow, path in catalog.commands.shadowed:
        report.add(shadow.kind, shadow.name, str(path), "skipped",
                   f"the same name is defined in {shadow.path}, which is used")
    for skipped in catalog.commands.skipped + catalog.agents.skipped:
        name = skipped.path.parent.name if skipped.path.name == "SKILL.md" else skipped.path.stem
        report.add(skipped.kind, name, str(skipped.path), "skipped", skipped.reason)
    known = set(known_tools) if known_tools is not None else None
    for agent in catalog.agent_list():
        if agent.scope == "built-in":
            continue
        source = str(agent.path) if agent.path else "--agents"
        report.add("agent", agent.name, source)
        missing = unknown_tools(agent, known) if known is not None else []
        if missing:
            report.add("agent", agent.name, source, "warning",
                       f"names tools this harness does not have: {', '.join(missing)}")
    for problem in flag_problems:
        report.add("agent", "--agents", "--agents", "skipped", problem)


# -- the session's catalog, for tools that run without a reference to the session ----------

_ACTIVE: dict[Path, Catalog] = {}


def remember(catalog: Catalog) -> None:
    """Make `catalog` the one `catalog_for(cwd)` returns (the latest loaded for a folder)."""
    _ACTIVE[Path(catalog.cwd).resolve()] = catalog


def catalog_for(cwd: Path) -> Catalog:
    """The catalog loaded for this folder, or a fresh one (project and user files only, as
    managed settings' strictPluginOnlyCustomization allows)."""
    key = Path(cwd).resolve()
    for folder in (key, *key.parents):
        if folder in _ACTIVE:
            return _ACTIVE[folder]
    from claude_harness.config.plugin_only import managed_locked_surfaces

    return load_catalog(key, locked=managed_locked_surfaces())
