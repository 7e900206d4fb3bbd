"""Permission answers, modes, rules and the sandbox switch: what the person decides about
what the model may do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.config.local_rules import update_local_rules
from claude_harness.permissions.modes import next_mode
from claude_harness.protocol import ops
from claude_harness.protocol.events import ModeChanged, Notice, PermissionAnswer
from claude_harness.protocol.permission_data import PERMISSION_MODES
from claude_harness.session.handlers import rule_editor
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.sandbox_control import switch_sandbox

if TYPE_CHECKING:
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.services.prompter import Prompter


class PermissionServices(Emits, Protocol):
    permission: PermissionContext

    @property
    def prompter(self) -> Prompter: ...
    @property
    def cwd(self) -> Path: ...
    @property
    def running(self) -> bool: ...
    def rules_changed(self) -> None: ...


def answer(services: PermissionServices, op: ops.AnswerPermission) -> None:
    services.prompter.answer(op.request_id,
                             PermissionAnswer(op.choice, op.feedback, op.updated_input))


def set_mode(services: PermissionServices, op: ops.SetMode) -> None:
    mode, permission = op.mode, services.permission
    if mode not in PERMISSION_MODES or mode == "bubble" or (
            mode == "bypassPermissions" and not permission.bypass_available):
        services.emit(Notice(f"Cannot switch to mode {mode!r}.", "error"))
        return
    change_mode(services, mode)


def cycle_mode(services: PermissionServices, _op: ops.CycleMode) -> None:
    permission = services.permission
    change_mode(services, next_mode(permission.mode, permission.bypass_available))


def change_mode(services: PermissionServices, mode: str) -> None:
    services.permission = replace(services.permission, mode=mode)  # type: ignore[arg-type]
    services.emit(ModeChanged(mode))


def add_rule(services: PermissionServices, op: ops.AddRule) -> None:
    if op.persist and op.destination in ("userSettings", "projectSettings"):
        rule_editor.add_rule(services, op)  # /permissions: the file the person picked
        return
    persist = op.persist and op.destination != "session"
    services.prompter.save_rule(op.behavior, op.rule, persist=persist)


def remove_rule(services: PermissionServices, op: ops.RemoveRule) -> None:
    if op.source != "localSettings":
        rule_editor.remove_rule(services, op)
        return
    rule = op.rule
    try:
        path, removed = update_local_rules(services.cwd, remove=rule)
    except (OSError, ValueError) as exc:
        services.emit(Notice(f"Could not change the settings: {exc}", "error"))
        return
    if not removed:
        services.emit(Notice(f"{rule} is not in {path}.", "warning"))
        return
    keep = tuple(r for r in services.permission.rules
                 if not (r.source == "localSettings" and str(r.value) == rule))
    services.permission = replace(services.permission, rules=keep)
    services.prompter.drop_rule(rule, "localSettings")
    services.emit(Notice(f"Removed {rule} from .claude/settings.local.json."))
    services.rules_changed()


def set_sandbox(services: PermissionServices, op: ops.SetSandbox) -> None:
    """Between turns only: a call allowed because it runs sandboxed must run sandboxed."""
    if services.running:
        services.emit(Notice("Wait for the current job to finish (or Esc) before /sandbox.",
                             "warning"))
        return
    services.emit(switch_sandbox(op.enabled, services.cwd, services.permission))


HANDLERS: dict[type[ops.Op], Callable[[PermissionServices, Any], None]] = {
    ops.AnswerPermission: answer, ops.SetMode: set_mode, ops.CycleMode: cycle_mode,
    ops.AddRule: add_rule, ops.RemoveRule: remove_rule, ops.SetSandbox: set_sandbox}
