"""The ops and events of the /config, /permissions and /hooks panels.

A front end asks for a listing (ListSettings, ListPermissionRules, ListHooks), draws the answer
(SettingsListed, PermissionRulesListed, HooksListed) and sends a change as an op (ChangeSetting;
AddRule / RemoveRule from ops.py with a destination / source); the session writes the file
Claude Code writes, applies the change to the running session and says so (SettingChanged,
RulesChanged). Kept apart from ops.py and events.py so the panels grow without touching them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# ── ops ─────────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class ListSettings:
    """/config: every setting the panel offers, with its value and the file it is saved in."""


@dataclass(frozen=True)
class ChangeSetting:
    """/config: set `key` (a SettingRow.key) to `value`, apply it now and save it."""

    key: str
    value: Any


@dataclass(frozen=True)
class ListPermissionRules:
    """/permissions: every rule with its source and file."""


@dataclass(frozen=True)
class ListHooks:
    """/hooks: every configured hook by event and matcher, with its source file."""


# ── events ──────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class SettingRow:
    key: str  # the settings key ("autoCompactEnabled", "permissions.defaultMode", ...)
    label: str  # Claude Code's words in its /config panel
    value: Any
    options: tuple[Any, ...]  # (True, False) for a switch
    path: str  # the file a change is saved in
    note: str = ""  # e.g. "applies from the next session"


@dataclass(frozen=True)
class SettingsListed:
    rows: tuple[SettingRow, ...]


@dataclass(frozen=True)
class SettingChanged:
    """A /config change: applied and saved (`error` empty), or refused with the reason."""

    key: str
    value: Any
    path: str
    message: str
    error: str = ""


@dataclass(frozen=True)
class RuleRow:
    behavior: str  # allow | ask | deny
    rule: str
    source: str  # RuleSource: userSettings, projectSettings, localSettings, policySettings...
    path: str  # the file it lives in ("" for the command line and this session)
    editable: bool  # False: managed settings, the command line, --settings


@dataclass(frozen=True)
class RuleDestination:
    source: str  # userSettings | projectSettings | localSettings | session
    label: str
    path: str


@dataclass(frozen=True)
class PermissionRulesListed:
    rules: tuple[RuleRow, ...]
    destinations: tuple[RuleDestination, ...]  # where a new rule may be saved
    mode: str


@dataclass(frozen=True)
class HookRow:
    event: str
    matcher: str
    command: str
    source: str  # the settings file (or "sdk", "plugin"...)
    note: str = ""  # why it does not run, if it does not


@dataclass(frozen=True)
class HooksListed:
    events: tuple[str, ...]  # every event a hook may be configured for, in Claude Code's order
    hooks: tuple[HookRow, ...]
    disabled: bool = False  # disableAllHooks


PanelOp = ListSettings | ChangeSetting | ListPermissionRules | ListHooks
"""The panels' ops: members of `ops.Op`, so `Session.submit` takes them."""

PanelEvent = SettingsListed | SettingChanged | PermissionRulesListed | HooksListed
"""The panels' answers: members of `events.SessionEvent`, so the session may emit them."""

PANEL_OPS = (ListSettings, ChangeSetting, ListPermissionRules, ListHooks)
PANEL_EVENTS = (SettingsListed, SettingChanged, PermissionRulesListed, HooksListed)
