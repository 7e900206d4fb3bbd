"""Hook configuration: the `hooks` sections of every settings file, validated and merged.

Settings files are edited by hand, so a bad entry must not take the session down: each problem
becomes a warning that names the file and the key, and the rest of the file still loads. Hooks
run arbitrary shell commands, so hooks from the project's own files (`.claude/settings.json`,
`.claude/settings.local.json`) only run once the user trusts the workspace; until then they are
kept in `skipped` so `/hooks` can show what is being held back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, NamedTuple

from claude_harness.hooks.conditions import RuleSyntaxError, parse_condition
from claude_harness.hooks.events import EVENT_SPECS, HOOK_EVENTS, NOT_FIRED_EVENTS
from claude_harness.hooks.kinds import HttpHookPolicy
from claude_harness.hooks.matcher import Matcher, MatcherError
from claude_harness.protocol.permission_data import RuleValue

DEFAULT_TIMEOUT_S = 60.0
MODEL_HOOK_TIMEOUT_S = 30.0  # prompt and agent hooks: Claude Code's default
PROJECT_SOURCES = frozenset({"projectSettings", "localSettings"})
MANAGED_SOURCE = "policySettings"
UNTRUSTED_NOTE = "skipped: workspace not trusted"
MANAGED_ONLY_NOTE = "skipped: allowManagedHooksOnly is set in managed settings"
PLUGIN_SOURCE = "pluginHooks"
HookKind = Literal["command", "http", "prompt", "agent", "callback", "mcp_tool"]

# Keys each handler type reads; anything else earns a warning.
_COMMON_KEYS = frozenset({"type", "timeout", "statusMessage", "if", "once"})
_HANDLER_KEYS: dict[str, frozenset[str]] = {
    "command": _COMMON_KEYS | {"command", "async", "shell"},
    "http": _COMMON_KEYS | {"url", "headers", "allowedEnvVars"},
    "prompt": _COMMON_KEYS | {"prompt", "model"},
    "agent": _COMMON_KEYS | {"prompt", "model"},
    "mcp_tool": _COMMON_KEYS | {"server", "tool", "input"},
}
_IGNORED_WITH_WARNING = {
    "args": "'args' is not supported; put the arguments in 'command'",
}

SourceItem = tuple[str, Path | None, Any]


@dataclass(frozen=True)
class HookEntry:
    """One hook as configured: what it runs, where it came from and when it fires.

    kind command  `command` runs in /bin/sh with the event JSON on stdin (`is_async`: in the
                  background, its answer delivered on the next turn)
         http     the event JSON is POSTed to `url`; the response body is read like a command's
                  stdout (a non-2xx status is a non-blocking error)
         prompt   `prompt` goes to a small model that answers {"ok": bool, "reason": str}
         agent    the same, answered by a sub-agent that may use read-only tools
         callback `callback_id` names a hook the program on the Agent SDK pipe registered; it
                  is asked with the event JSON, and its answer is read like a command's stdout
    """

    event: str
    matcher: Matcher
    command: str  # command text, URL or prompt: what the hook is, for messages and /hooks
    timeout: float
    source: str
    path: Path | None
    status_message: str | None = None
    kind: HookKind = "command"
    condition: RuleValue | None = None  # `if`: a permission rule the tool call must match
    is_async: bool = False
    headers: tuple[tuple[str, str], ...] = ()
    allowed_env_vars: tuple[str, ...] = ()
    model: str | None = None
    once: bool = False
    plugin_root: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    callback_id: str | None = None

    @property
    def origin(self) -> str:
        """The settings file (or the source name when there is no file) for messages and /hooks."""
        return str(self.path) if self.path is not None else self.source

    @property
    def identity(self) -> tuple[str, str, str]:
        """Identical hooks (same kind, same text, same `if`) run once per event."""
        return (self.kind, self.command, str(self.condition or ""))


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
    skip_notes: tuple[str, ...] = ()  # why each of `skipped` is held back
    http_policy: HttpHookPolicy = field(default_factory=HttpHookPolicy)  # URL / env allowlists

    @classmethod
    def from_sources(
        cls,
        sources: Iterable[SourceItem],
        *,
        allow_project_hooks: bool = False,
        disable_all: bool = False,
        managed_only: bool = False,
        plugin_only_note: str | None = None,
        plugin_roots: Mapping[Path, Path] | None = None,
    ) -> HookConfig:
        """Parse each (source name, settings path or None, raw `hooks` value) in order.

        Order matters only for ties the runner resolves by configuration order (see
        `combine.py`); pass sources from the broadest (user) to the most specific (cliArg).
        `managed_only` (allowManagedHooksOnly in managed settings) keeps only policySettings
        hooks; `plugin_only_note` (strictPluginOnlyCustomization locks hooks) keeps
        policySettings and plugin hooks, the others skipped with that note; `plugin_roots` maps a plugin's hooks file to its folder (CLAUDE_PLUGIN_ROOT).
        """
        entries: list[HookEntry] = []
        skipped: list[tuple[HookEntry, str]] = []
        warnings: list[str] = []
        for source, path, raw in sources:
            parsed = _parse_source(source, path, raw, warnings)
            root = (plugin_roots or {}).get(path) if path is not None else None
            if root is not None:
                parsed = [replace(e, plugin_root=root) for e in parsed]
            if managed_only and source != MANAGED_SOURCE:
                skipped.extend((e, MANAGED_ONLY_NOTE) for e in parsed)
            elif plugin_only_note and source not in (MANAGED_SOURCE, PLUGIN_SOURCE):
                skipped.extend((e, plugin_only_note) for e in parsed)
            elif source in PROJECT_SOURCES and not allow_project_hooks:
                skipped.extend((e, UNTRUSTED_NOTE) for e in parsed)
            else:
                entries.extend(parsed)
        return cls(tuple(entries), tuple(e for e, _ in skipped), tuple(warnings),
                   disabled=disable_all, skip_notes=tuple(n for _, n in skipped))

    @classmethod
    def empty(cls) -> HookConfig:
        return cls()

    def with_entries(self, more: Iterable[HookEntry]) -> HookConfig:
        """This configuration and `more` after it (callback hooks registered later)."""
        return replace(self, entries=(*self.entries, *more))

    def merged(self, other: HookConfig) -> HookConfig:
        """These hooks, then `other`'s (one `disableAllHooks` switches both off)."""
        return HookConfig(self.entries + other.entries, self.skipped + other.skipped,
                          self.warnings + other.warnings, self.disabled or other.disabled,
                          self.skip_notes + other.skip_notes, http_policy=self.http_policy)

    def matching(self, event: str, matcher_value: str | None) -> list[HookEntry]:
        """Hooks to run for this event and subject, identical commands collapsed to the first."""
        if self.disabled:
            return []
        use_matcher = EVENT_SPECS[event].matcher != "none"
        seen: set[tuple[str, str, str]] = set()
        selected: list[HookEntry] = []
        for entry in self.entries:
            if entry.event != event:
                continue
            if use_matcher and not entry.matcher.matches(matcher_value):
                continue
            if entry.identity in seen:
                continue
            seen.add(entry.identity)
            selected.append(entry)
        return selected

    def has_hooks(self, event: str) -> bool:
        """Cheap check so callers can skip building a payload when nothing listens."""
        return not self.disabled and any(e.event == event for e in self.entries)

    def describe(self) -> list[HookLine]:
        """Rows for `/hooks`: active hooks first, then the ones held back and why."""
        note = "disabled by disableAllHooks" if self.disabled else ""
        rows = [_line(e, note) for e in self.entries]
        notes = self.skip_notes or (UNTRUSTED_NOTE,) * len(self.skipped)
        rows.extend(_line(e, n) for e, n in zip(self.skipped, notes, strict=False))
        return rows


def callback_entry(event: str, matcher: str | None, callback_id: str,
                   timeout: float | None) -> HookEntry:
    """A program's callback hook (see HookEntry); raises ValueError for an unknown event or
    a bad matcher."""
    if event not in EVENT_SPECS:
        raise ValueError(f"unknown hook event {event!r}")
    try:
        compiled = Matcher.compile(matcher or "")
    except MatcherError as exc:
        raise ValueError(f"{event} matcher: {exc}") from exc
    return HookEntry(event=event, matcher=compiled, command=f"sdk callback {callback_id}",
                     timeout=float(timeout) if timeout else DEFAULT_TIMEOUT_S,
                     source="sdk", path=None, kind="callback", callback_id=callback_id)


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
        if event in NOT_FIRED_EVENTS:
            warnings.append(f"{where}: {key}: Claude Code's {event} event never fires in this "
                            "harness; its hooks are ignored")
            continue
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
    if kind not in _HANDLER_KEYS:
        warnings.append(f"{where}: {key}.type: {kind!r} is not a hook type (command, http, "
                        "prompt, agent, mcp_tool); skipped")
        return None
    extra: dict[str, Any] = {}
    if kind == "mcp_tool":
        text, extra = _mcp_tool_handler(handler, f"{where}: {key}", warnings)
        if text is None:
            return None
    else:
        text_key = {"command": "command", "http": "url"}.get(kind, "prompt")
        text = handler.get(text_key)
        if not isinstance(text, str) or not text.strip():
            warnings.append(f"{where}: {key}.{text_key}: must be a non-empty string; skipped")
            return None
    condition = None
    if handler.get("if") is not None:
        try:
            condition = parse_condition(str(handler["if"]))
        except RuleSyntaxError as exc:
            warnings.append(f"{where}: {key}.if: {exc}; the hook is skipped rather than run "
                            "for every call")
            return None
    default = DEFAULT_TIMEOUT_S if kind in ("command", "http", "mcp_tool") \
        else MODEL_HOOK_TIMEOUT_S
    timeout = _timeout(handler.get("timeout"), f"{where}: {key}.timeout", warnings, default)
    status = handler.get("statusMessage")
    for name in handler:
        if name in _IGNORED_WITH_WARNING:
            warnings.append(f"{where}: {key}.{name}: {_IGNORED_WITH_WARNING[name]}")
        elif name not in _HANDLER_KEYS[kind]:
            warnings.append(f"{where}: {key}.{name}: unknown key ignored")
    return HookEntry(
        event=event,
        matcher=matcher,
        command=text,
        timeout=timeout,
        source=source,
        path=path,
        status_message=status if isinstance(status, str) else None,
        kind=kind,
        condition=condition,
        is_async=handler.get("async") is True and kind == "command",
        headers=_headers(handler.get("headers"), f"{where}: {key}.headers", warnings),
        allowed_env_vars=tuple(v for v in handler.get("allowedEnvVars") or ()
                               if isinstance(v, str)),
        model=handler.get("model") if isinstance(handler.get("model"), str) else None,
        once=handler.get("once") is True,
        extra=extra,
    )


def _mcp_tool_handler(handler: Mapping[str, Any], where: str,
                      warnings: list[str]) -> tuple[str | None, dict[str, Any]]:
    """(what the hook is, for messages: `mcp__server__tool`; its server, tool and input), or
    (None, {}) after a warning when `server` or `tool` is missing."""
    server, tool, arguments = handler.get("server"), handler.get("tool"), handler.get("input")
    for name, value in (("server", server), ("tool", tool)):
        if not isinstance(value, str) or not value.strip():
            warnings.append(f"{where}.{name}: must be a non-empty string; skipped")
            return None, {}
    if arguments is not None and not isinstance(arguments, Mapping):
        warnings.append(f"{where}.input: must be an object; skipped")
        return None, {}
    return f"mcp__{server}__{tool}", {"server": server, "tool": tool,
                                      "input": dict(arguments or {})}


def _headers(value: Any, where: str, warnings: list[str]) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        warnings.append(f"{where}: must be an object of strings; ignored")
        return ()
    return tuple((str(k), v) for k, v in value.items())


def _timeout(value: Any, where: str, warnings: list[str],
             default: float = DEFAULT_TIMEOUT_S) -> float:
    """Seconds; a bad value keeps the hook (it may be a safety check) with the default timeout."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        warnings.append(f"{where}: must be a positive number of seconds; using {default:g}")
        return default
    return float(value)


def agent_hook_config(hooks: Mapping[str, Any], *, source: str, path: Path | None,
                      allow_project_hooks: bool) -> HookConfig:
    """An agent definition's own `hooks` (active while that agent runs). Its `Stop` hooks fire
    when the agent stops, as SubagentStop hooks, as Claude Code converts them."""
    raw = {("SubagentStop" if event == "Stop" else event): groups
           for event, groups in hooks.items()}
    return HookConfig.from_sources([(source, path, raw)],
                                   allow_project_hooks=allow_project_hooks)


def hook_config_from_settings(
    loaded: Any,
    *,
    trusted: bool,
    plugin_sources: Iterable[SourceItem] = (),
    plugin_roots: Mapping[Path, Path] | None = None,
) -> HookConfig:
    """The session's hooks from its settings (`LoadedSettings`) and plugins.

    Applies `disableAllHooks` (in managed settings: nothing runs; elsewhere: every hook but the
    managed ones is off), `allowManagedHooksOnly` (managed settings only: user, project and
    plugin hooks are held back and listed as such) and strictPluginOnlyCustomization locking
    hooks (the same, except that plugin hooks still run).
    """
    from claude_harness.config.plugin_only import PLUGIN_ONLY_NOTE, locked_surfaces

    policy = [s.settings.model_dump() for s in loaded.sources if s.source == MANAGED_SOURCE]
    managed_only = any(p.get("allowManagedHooksOnly") is True for p in policy)
    disable_everything = any(p.get("disableAllHooks") is True for p in policy)
    disable_others = loaded.value("disableAllHooks") is True and not disable_everything
    held = list(getattr(loaded, "held_hooks_sources", ()))  # an untrusted folder's: listed only
    sources = [*plugin_sources, *loaded.hooks_sources, *held]
    if disable_others:
        sources = [s for s in sources if s[0] == MANAGED_SOURCE]
    config = HookConfig.from_sources(sources, allow_project_hooks=trusted and not held,
                                     disable_all=disable_everything, managed_only=managed_only,
                                     plugin_only_note=PLUGIN_ONLY_NOTE
                                     if "hooks" in locked_surfaces(loaded) else None,
                                     plugin_roots=plugin_roots)
    return replace(config, http_policy=HttpHookPolicy.from_sources(
        [(s.source, s.settings.model_dump(exclude_unset=True)) for s in loaded.sources]))
