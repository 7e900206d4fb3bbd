"""The whole load report of a folder's configuration: the catalog's (plugins, agents, commands,
skills), hooks, settings keys, MCP servers and rules files, each loaded, skipped or not
supported, and why. `/doctor` shows the session's; `claude-harness doctor` builds the same from
disk for scripts; `--debug` prints it at start-up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.config.keybindings import add_to_report as add_keybindings
from claude_harness.config.load_report import LoadReport
from claude_harness.config.rules import load_rules
from claude_harness.config.settings_keys import settings_report
from claude_harness.hooks.config import HookConfig
from claude_harness.mcp.server_policy import ServerPolicy
from claude_harness.mcp.status import server_states


def configuration_report(cwd: Path, loaded: Any, catalog: Any, hooks: HookConfig,
                         mcp_policy: Any = None) -> LoadReport:
    report = LoadReport()
    report.extend(catalog.report)
    _hooks(hooks, report)
    settings_report(loaded, report)
    servers = ServerPolicy.from_settings(loaded)
    for server, _state, reason in server_states(cwd, mcp_policy):
        reason = servers.blocked(server) or reason
        report.add("mcp", server.name, server.source or server.scope,
                   "loaded" if reason is None else "skipped", reason or "")
    for name in catalog.mcp_servers():
        report.add("mcp", name, "plugin", "loaded", "started with the plugin")
    for rule in load_rules(cwd):
        report.add("rule", rule.path.name, str(rule.path), "loaded",
                   f"applies to {', '.join(rule.globs)}" if rule.globs else "")
    add_keybindings(report)
    return report


def _hooks(hooks: HookConfig, report: LoadReport) -> None:
    for entry in hooks.entries:
        report.add("hook", f"{entry.event} [{entry.matcher.raw or '*'}] {entry.kind}",
                   entry.origin, "skipped" if hooks.disabled else "loaded",
                   "disableAllHooks is set in managed settings" if hooks.disabled else "")
    for row in hooks.describe()[len(hooks.entries):]:
        report.add("hook", f"{row.event} [{row.matcher or '*'}]", row.source, "skipped",
                   row.note)
    for warning in hooks.warnings:
        where, _, reason = warning.partition(": ")
        report.add("hook", reason.split(":", 1)[0], where, "skipped", reason)


def unsupported_settings(report: LoadReport | None) -> tuple[str, ...]:
    """`key (file)` of every settings key that is not supported: for /status."""
    if report is None:
        return ()
    return tuple(f"{e.name} ({e.source})" for e in report.of("setting", "unsupported"))


def keybindings_notice(report: LoadReport) -> str | None:
    """The one start-up line for a keybindings file with entries that cannot apply."""
    skipped = [e for e in report.of("keybinding") if e.status in ("skipped", "unsupported")]
    if not skipped:
        return None
    first = skipped[0].reason or skipped[0].name
    more = f" (and {len(skipped) - 1} more)" if len(skipped) > 1 else ""
    return (f"Keybindings: {len(skipped)} entr{'ies' if len(skipped) > 1 else 'y'} of "
            f"{skipped[0].source} left out: {first}{more}; /doctor lists them.")
