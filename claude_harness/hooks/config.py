"""Hook configuration: the `hooks` sections of every settings file, validated and merged.

Settings files are edited by hand, so a bad entry must not take the session down: each problem
becomes a warning that names the file and the key, and the rest of the file still loads. Hooks
run arbitrary shell commands, so hooks from the project's own files (`.claude/settings.json`,
`.claude/settings.local.json`) only run once the user trusts the workspace; until then they are
kept in `skipped` so `/hooks` can show what is being held back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from claude_harness.hooks.events import EVENT_SPECS, HOOK_EVENTS
from claude_harness.hooks.matcher import Matcher, MatcherError

DEFAULT_TIMEOUT_S = 60.0
PROJECT_SOURCES = frozenset({"projectSettings", "localSettings"})
UNTRUSTED_NOTE = "skipped: workspace not trusted"

# Keys of a hook handler we read or knowingly ignore; anything else earns a warning.
_HANDLER_KEYS = frozenset({"type", "command", "timeout", "statusMessage"})
_IGNORED_WITH_WARNING = {
    "if": "the 'if' filter is not supported; the hook runs for every matching call",
    "async": "'async' is not supported; the hook runs synchronously",
    "args": "'args' is not supported; put the arguments in 'command'",
}

SourceItem = tuple[str, Path | None, Any]


@dataclass(frozen=True)
class HookEntry:
    """One command hook as configured: where it came from and when it fires."""

    event: str
    matcher: Matcher
    command: str
    timeout: float
    source: str
    path: Path | None
    status_message: str | None = None

    @property
    def origin(self) -> str:
        """The settings file (or the source name when there is no file) for messages and /hooks."""
        return str(self.path) if self.path is not None else self.source


class HookLine(NamedTuple):
    """One row of `/hooks`: (event, matcher, command, source file) plus a note (e.g. skipped)."""

    event: str
    matcher: str
    command: str
    source: str
    note: str = ""

    def __str__(self) -> str:
        matcher = self.matcher or "*"
        text = f"{self.event} [{matcher}] {self.command}  ({self.source})"
        return f"{text}  [{self.note}]" if self.note else text


@dataclass(frozen=True)
class HookConfig:
    """Every configured hook, in source order; built once per settings load."""

    entries: tuple[HookEntry, ...] = ()
    skipped: tuple[HookEntry, ...] = ()
    warnings: tuple[str, ...] = ()
    disabled: bool = False  # `disableAllHooks`: nothing runs, /hooks still lists them

    @classmethod
    def from_sources(
        cls,
        sources: Iterable[SourceItem],
        *,
        allow_project_hooks: bool = False,
        disable_all: bool = False,
    ) -> HookConfig:
        """Parse each (source name, settings path or None, raw `hooks` value) in order.

        Order matters only for ties the runner resolves by configuration order (see
        `combine.py`); pass sources from the broadest (user) to the most specific (cliArg).
        """
        entries: list[HookEntry] = []
        skipped: list[HookEntry] = []
        warnings: list[str] = []
        for source, path, raw in sources:
            parsed = _parse_source(source, path, raw, warnings)
            if source in PROJECT_SOURCES and not allow_project_hooks:
                skipped.extend(parsed)
            else:
                entries.extend(parsed)
        return cls(tuple(entries), tuple(skipped), tuple(warnings), disabled=disable_all)

    @classmethod
    def empty(cls) -> HookConfig:
        return cls()

    def matching(self, event: str, matcher_value: str | None) -> list[HookEntry]:
        """Hooks to run for this event and subject, identical commands collapsed to the first."""
        if self.disabled:
            return []
        use_matcher = EVENT_SPECS[event].matcher != "none"
        seen: set[str] = set()
        selected: list[HookEntry] = []
        for entry in self.entries:
            if entry.event != event:
                continue
            if use_matcher and not entry.matcher.matches(matcher_value):
                continue
            if entry.command in seen:
                continue
            seen.add(entry.command)
            selected.append(entry)
        return selected

    def has_hooks(self, event: str) -> bool:
        """Cheap check so callers can skip building a payload when nothing listens."""
        return not self.disabled and any(e.event == event for e in self.entries)

    def describe(self) -> list[HookLine]:
        """Rows for `/hooks`: active hooks first, then the ones held back and why."""
        note = "disabled by disableAllHooks" if self.disabled else ""
        rows = [_line(e, note) for e in self.entries]
        rows.extend(_line(e, UNTRUSTED_NOTE) for e in self.skipped)
        return rows


def _line(entry: HookEntry, note: str) -> HookLine:
    return HookLine(entry.event, entry.matcher.raw, entry.command, entry.origin, note)


def _parse_source(source: str, path: Path | None, raw: Any, warnings: list[str]) -> list[HookEntry]:
    where = str(path) if path is not None else source
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        warnings.append(f"{where}: hooks: must be an object mapping event names to lists")
        return []
    out: list[HookEntry] = []
    for event, groups in raw.items():
        key = f"hooks.{event}"
        if event not in EVENT_SPECS:
            known = ", ".join(HOOK_EVENTS)
            warnings.append(f"{where}: {key}: unknown hook event (known: {known})")
            continue
        if not isinstance(groups, list):
            warnings.append(f"{where}: {key}: must be a list of matcher groups")
            continue
        for gi, group in enumerate(groups):
            out.extend(_parse_group(event, group, f"{key}[{gi}]", source, path, where, warnings))
    return out


def _parse_group(
    event: str,
    group: Any,
    key: str,
    source: str,
    path: Path | None,
    where: str,
    warnings: list[str],
) -> list[HookEntry]:
    if not isinstance(group, Mapping):
        warnings.append(f"{where}: {key}: must be an object with 'matcher' and 'hooks'")
        return []
    raw_matcher = group.get("matcher", "")
    if raw_matcher is None:
        raw_matcher = ""
    if not isinstance(raw_matcher, str):
        warnings.append(f"{where}: {key}.matcher: must be a string; group skipped")
        return []
    try:
        matcher = Matcher.compile(raw_matcher)
    except MatcherError as exc:
        warnings.append(f"{where}: {key}.matcher: {exc}; group skipped")
        return []
    handlers = group.get("hooks")
    if not isinstance(handlers, list):
        warnings.append(f"{where}: {key}.hooks: must be a list of hook handlers")
        return []
    out: list[HookEntry] = []
    for hi, handler in enumerate(handlers):
        entry = _parse_handler(
            event, matcher, handler, f"{key}.hooks[{hi}]", source, path, where, warnings
        )
        if entry is not None:
            out.append(entry)
    return out


def _parse_handler(
    event: str,
    matcher: Matcher,
    handler: Any,
    key: str,
    source: str,
    path: Path | None,
    where: str,
    warnings: list[str],
) -> HookEntry | None:
    if not isinstance(handler, Mapping):
        warnings.append(
            f'{where}: {key}: must be an object like {{"type": "command", "command": ...}}'
        )
        return None
    kind = handler.get("type", "command")
    if kind != "command":
        warnings.append(
            f"{where}: {key}.type: {kind!r} hooks are not supported (only 'command'); skipped"
        )
        return None
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        warnings.append(f"{where}: {key}.command: must be a non-empty string; skipped")
        return None
    timeout = _timeout(handler.get("timeout"), f"{where}: {key}.timeout", warnings)
    status = handler.get("statusMessage")
    for name in handler:
        if name in _IGNORED_WITH_WARNING:
            warnings.append(f"{where}: {key}.{name}: {_IGNORED_WITH_WARNING[name]}")
        elif name not in _HANDLER_KEYS:
            warnings.append(f"{where}: {key}.{name}: unknown key ignored")
    return HookEntry(
        event=event,
        matcher=matcher,
        command=command,
        timeout=timeout,
        source=source,
        path=path,
        status_message=status if isinstance(status, str) else None,
    )


def _timeout(value: Any, where: str, warnings: list[str]) -> float:
    """Seconds; a bad value keeps the hook (it may be a safety check) with the default timeout."""
    if value is None:
        return DEFAULT_TIMEOUT_S
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        warnings.append(
            f"{where}: must be a positive number of seconds; using {DEFAULT_TIMEOUT_S:g}"
        )
        return DEFAULT_TIMEOUT_S
    return float(value)
