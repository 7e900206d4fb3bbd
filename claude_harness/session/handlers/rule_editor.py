"""/permissions as an editor: every rule with the file it lives in, a new rule saved to the file
the person picks (user, project, local, or this session only), a rule removed from its own file.

Managed settings, the command line and `--settings` are read-only here, as in Claude Code. A rule
added here joins the prompter's live list with the source it was saved to, so the very next tool
call (this turn's too) is decided by it; a removed one leaves the session's rules and the
prompter's at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.config.local_rules import update_rules_file
from claude_harness.config.paths import (
    local_settings_path,
    managed_settings_paths,
    project_settings_path,
    user_settings_path,
)
from claude_harness.permissions.rules import parse_rule, split_rules
from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice
from claude_harness.protocol.panels import (
    ListPermissionRules,
    PermissionRulesListed,
    RuleDestination,
    RuleRow,
)
from claude_harness.protocol.permission_data import PermissionRule
from claude_harness.session.handlers.services import Emits

if TYPE_CHECKING:
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.services.prompter import Prompter

FILE_SOURCES = ("localSettings", "projectSettings", "userSettings")
SOURCE_LABELS = {
    "localSettings": "Project settings (local)", "projectSettings": "Project settings",
    "userSettings": "User settings", "session": "This session only",
    "policySettings": "Managed settings", "cliArg": "Command line", "flagSettings": "--settings",
}


class RuleServices(Emits, Protocol):
    permission: PermissionContext

    @property
    def prompter(self) -> Prompter: ...
    @property
    def cwd(self) -> Path: ...
    def rules_changed(self) -> None: ...


def source_path(source: str, cwd: Path) -> str:
    """The file a rule of `source` lives in ("" for the command line and this session)."""
    if source == "userSettings":
        return str(user_settings_path())
    if source == "projectSettings":
        return str(project_settings_path(cwd))
    if source == "localSettings":
        return str(local_settings_path(cwd))
    if source == "policySettings":
        managed = [p for p in managed_settings_paths() if p.is_file()]
        return str(managed[0]) if managed else "managed settings"
    return ""


def list_rules(services: RuleServices, _op: ListPermissionRules) -> None:
    rows = []
    for rule in (*services.permission.rules, *services.prompter.rules()):
        where = rule.root if rule.root is not None else services.cwd
        rows.append(RuleRow(rule.behavior, str(rule.value), rule.source,
                            source_path(rule.source, where),
                            rule.source in (*FILE_SOURCES, "session")))
    destinations = tuple(RuleDestination(s, SOURCE_LABELS[s], source_path(s, services.cwd))
                         for s in (*FILE_SOURCES, "session"))
    services.emit(PermissionRulesListed(tuple(dict.fromkeys(rows)), destinations,
                                        services.permission.mode))


def add_rule(services: RuleServices, op: ops.AddRule) -> None:
    """AddRule to the user or project settings file (the local file and "this session" go
    through the prompter's own saving, as "don't ask again" does)."""
    source = op.destination
    path = Path(source_path(source, services.cwd))
    try:
        parsed = [parse_rule(text) for text in split_rules(op.rule)]
        update_rules_file(path, add=op.rule, behavior=op.behavior)
    except (OSError, ValueError) as exc:
        services.emit(Notice(f"Could not save rule {op.rule}: {exc}", "error"))
        return
    root = services.cwd if source == "projectSettings" else None
    services.prompter.keep_rules([PermissionRule(source, op.behavior, value, root)  # type: ignore[arg-type]
                                  for value in parsed])
    services.emit(Notice(f"Saved {op.behavior} rule {op.rule} to {path}."))


def remove_rule(services: RuleServices, op: ops.RemoveRule) -> None:
    """RemoveRule from the file of `op.source` (user or project) or from this session."""
    source, rule = op.source, op.rule
    if source not in ("userSettings", "projectSettings", "session"):
        label = SOURCE_LABELS.get(source, source)
        services.emit(Notice(f"{rule} comes from {label}, which /permissions cannot change.",
                             "error"))
        return
    if source != "session":
        path = Path(source_path(source, services.cwd))
        try:
            _path, removed = update_rules_file(path, remove=rule)
        except (OSError, ValueError) as exc:
            services.emit(Notice(f"Could not change the settings: {exc}", "error"))
            return
        if not removed:
            services.emit(Notice(f"{rule} is not in {path}.", "warning"))
            return
    keep = tuple(r for r in services.permission.rules
                 if not (r.source == source and str(r.value) == rule))
    services.permission = replace(services.permission, rules=keep)
    services.prompter.drop_rule(rule, source)
    where = "this session" if source == "session" else source_path(source, services.cwd)
    services.emit(Notice(f"Removed {rule} from {where}."))
    services.rules_changed()


HANDLERS: dict[type[Any], Callable[[RuleServices, Any], None]] = {
    ListPermissionRules: list_rules}
