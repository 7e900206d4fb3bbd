"""Settings: read every source, validate key by key, merge with Claude Code's precedence.

Why key by key: a user's settings file with one wrong value (a string where a list belongs, a
rule with a typo) must not take their whole configuration down, and must not crash the app.
Each bad key is dropped with a warning naming the file and the key; the rest applies.

Precedence, highest first: managed policy, CLI flags (--allowedTools, --disallowedTools,
--permission-mode, --add-dir), --settings, `.claude/settings.local.json`, `.claude/settings.json`,
user settings, session rules. Scalars: the highest source that sets them wins. Permission rules
from every source are merged, each keeping its source (deny anywhere beats any allow: the
resolver checks deny first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from claude_harness.config.paths import (
    local_settings_path,
    managed_settings_paths,
    project_settings_path,
    user_settings_path,
)
from claude_harness.config.trust import ignored_notice
from claude_harness.config.trust_rules import Held, enabled_by_untrusted_only, held_count
from claude_harness.config.trust_rules import split as split_untrusted
from claude_harness.permissions.modes import parse_mode
from claude_harness.permissions.rules import PRIMARY_FIELDS, RuleSyntaxError, param_rule, parse_rule
from claude_harness.protocol.permission_data import (
    PermissionContext,
    PermissionMode,
    PermissionRule,
    RuleSource,
)

RULE_KINDS = ("allow", "ask", "deny")
# the settings files that arrive with a clone of the repository
_REPO_SOURCES = frozenset({"projectSettings", "localSettings"})


class PermissionsSettings(BaseModel):
    """`permissions` block; unknown keys are kept (newer Claude Code keys must not break us)."""

    model_config = ConfigDict(extra="allow")

    allow: list[str] = []
    ask: list[str] = []
    deny: list[str] = []
    defaultMode: str | None = None  # noqa: N815 - JSON key
    additionalDirectories: list[str] = []  # noqa: N815 - JSON key
    disableBypassPermissionsMode: str | None = None  # noqa: N815 - JSON key


class Settings(BaseModel):
    """One settings file. `hooks` stays raw: the hooks package parses it."""

    model_config = ConfigDict(extra="allow")

    permissions: PermissionsSettings = PermissionsSettings()
    hooks: dict[str, Any] | None = None
    env: dict[str, str] = {}
    model: str | None = None


_FIELD_TYPES: dict[str, TypeAdapter[Any]] = {
    "hooks": TypeAdapter(dict[str, Any]),
    "env": TypeAdapter(dict[str, str | int | float | bool]),
    "model": TypeAdapter(str),
}
_PERMISSION_TYPES: dict[str, TypeAdapter[Any]] = {
    "allow": TypeAdapter(list[Any]),
    "ask": TypeAdapter(list[Any]),
    "deny": TypeAdapter(list[Any]),
    "defaultMode": TypeAdapter(str),
    "additionalDirectories": TypeAdapter(list[str]),
    "disableBypassPermissionsMode": TypeAdapter(str),
}


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return err.get("msg", "invalid value")


def validate_settings(raw: Any, origin: str) -> tuple[Settings, list[str]]:
    """Validate a parsed JSON value key by key; returns the usable part and warnings."""
    warnings: list[str] = []
    if not isinstance(raw, dict):
        return Settings(), [f"{origin}: settings must be a JSON object; file ignored"]
    clean: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "permissions":
            clean[key] = _validate_permissions(value, origin, warnings)
        elif key in _FIELD_TYPES:
            try:
                checked = _FIELD_TYPES[key].validate_python(value, strict=True)
            except ValidationError as exc:
                warnings.append(f"{origin}: key '{key}' ignored ({_first_error(exc)})")
                continue
            if key == "env":
                checked = {str(k): _env_text(v) for k, v in checked.items()}
            clean[key] = checked
        else:
            clean[key] = value  # unknown keys are tolerated and kept
    return Settings.model_validate(clean), warnings


def _env_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _validate_permissions(value: Any, origin: str, warnings: list[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        warnings.append(f"{origin}: key 'permissions' ignored (expected an object)")
        return {}
    out: dict[str, Any] = {}
    for key, item in value.items():
        adapter = _PERMISSION_TYPES.get(key)
        if adapter is None:
            out[key] = item
            continue
        try:
            checked: Any = adapter.validate_python(item, strict=True)  # the adapter's type
        except ValidationError as exc:
            warnings.append(f"{origin}: key 'permissions.{key}' ignored ({_first_error(exc)})")
            continue
        if key in RULE_KINDS:
            good = []
            for i, rule in enumerate(checked):
                if not isinstance(rule, str):
                    warnings.append(
                        f"{origin}: permissions.{key}[{i}] ignored (a rule must be a string)"
                    )
                    continue
                try:
                    value = parse_rule(rule)
                except RuleSyntaxError as exc:
                    warnings.append(f"{origin}: permissions.{key}[{i}] ignored ({exc})")
                    continue
                problem = _param_rule_problem(value.rule_content, key)
                if problem:
                    warnings.append(f"{origin}: permissions.{key}[{i}] {rule!r} ignored ({problem})")
                    continue
                good.append(rule)
            checked = good
        if key == "defaultMode":
            try:
                parse_mode(checked)
            except ValueError as exc:
                warnings.append(f"{origin}: key 'permissions.defaultMode' ignored ({exc})")
                continue
        out[key] = checked
    return out


def _param_rule_problem(content: str | None, kind: str) -> str | None:
    """Parameter rules are for deny/ask on secondary fields; anything else is a silent no-op."""
    parsed = param_rule(content)
    if parsed is None:
        return None
    field_name = parsed[0]
    if field_name in PRIMARY_FIELDS:
        return f"a rule cannot match on the '{field_name}' field; write the pattern itself"
    if kind == "allow":
        return "parameter rules are only allowed in deny and ask"
    return None


def read_settings_file(path: Path) -> tuple[Settings | None, list[str]]:
    """(settings, warnings); None when the file does not exist or cannot be used at all."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, []
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{path}: cannot read settings ({exc}); file ignored"]
    if not text.strip():
        return Settings(), []
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [f"{path}: invalid JSON at line {exc.lineno} column {exc.colno} "
                      f"({exc.msg}); file ignored"]
    settings, warnings = validate_settings(raw, str(path))
    return settings, warnings


@dataclass
class CliSettings:
    """Settings-relevant command-line flags, as the CLI parsed them."""

    settings: str | None = None  # --settings FILE|JSON
    allowed_tools: list[str] | None = None
    disallowed_tools: list[str] | None = None
    permission_mode: str | None = None
    add_dirs: list[str] | None = None
    setting_sources: tuple[str, ...] | None = None  # --setting-sources: user, project, local


@dataclass
class SettingsSource:
    """One loaded source: where it came from and what it says."""

    source: RuleSource
    path: Path | None
    settings: Settings
    root: Path | None = None  # project root for `/path` rules
    held: tuple[Held, ...] = ()  # what the trust table held back (an untrusted folder's file)


@dataclass
class LoadedSettings:
    """Every source, highest precedence first, plus the CLI flags and the warnings."""

    cwd: Path
    sources: list[SettingsSource] = field(default_factory=list)
    cli: CliSettings = field(default_factory=CliSettings)
    cli_rules: list[PermissionRule] = field(default_factory=list)
    session_rules: list[PermissionRule] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def value(self, key: str, default: Any = None) -> Any:
        """A top-level scalar: the highest source that sets it wins (unknown keys included)."""
        for src in self.sources:
            data = src.settings.model_dump(exclude_unset=True)
            if key in data and data[key] is not None:
                return data[key]
        return default

    @property
    def model(self) -> str | None:
        return self.value("model")

    @property
    def env(self) -> dict[str, str]:
        merged: dict[str, str] = {}
        for src in reversed(self.sources):  # lowest first, so higher sources overwrite
            merged.update(src.settings.env)
        return merged

    @property
    def hooks_sources(self) -> list[tuple[str, Path | None, dict[str, Any]]]:
        """(source, path, raw hooks) from the broadest (user) to the most specific."""
        return [
            (src.source, src.path, src.settings.hooks)
            for src in reversed(self.sources)
            if src.settings.hooks
        ]

    @property
    def held_hooks_sources(self) -> list[tuple[str, Path | None, dict[str, Any]]]:
        """The hooks an untrusted folder's files hold back: listed by /hooks, never run."""
        return [(src.source, src.path, item.value) for src in reversed(self.sources)
                for item in src.held if item.key == "hooks" and isinstance(item.value, dict)]

    @property
    def managed_rules_only(self) -> bool:
        """`allowManagedPermissionRulesOnly` in managed settings: only managed rules apply."""
        return any(s.source == "policySettings" and
                   s.settings.model_dump().get("allowManagedPermissionRulesOnly") is True
                   for s in self.sources)

    @property
    def rules(self) -> tuple[PermissionRule, ...]:
        out: list[PermissionRule] = []
        if self.managed_rules_only:
            for src in self.sources:
                if src.source == "policySettings":
                    for kind in RULE_KINDS:
                        out.extend(PermissionRule(src.source, kind, parse_rule(text), src.root)
                                   for text in getattr(src.settings.permissions, kind))
            return tuple(out)
        for src in self.sources:
            for kind in RULE_KINDS:
                for text in getattr(src.settings.permissions, kind):
                    out.append(PermissionRule(src.source, kind, parse_rule(text), src.root))
        return tuple(self.cli_rules + out + self.session_rules)

    @property
    def mode(self) -> PermissionMode:
        bypass_disabled = any(
            src.settings.permissions.disableBypassPermissionsMode == "disable"
            for src in self.sources
        )
        mode: PermissionMode = "default"
        policy = [s.settings.permissions.defaultMode for s in self.sources
                  if s.source == "policySettings"]
        candidates = [*policy, self.cli.permission_mode] + [
            s.settings.permissions.defaultMode for s in self.sources
        ]
        for cand in candidates:
            if cand:
                try:
                    mode = parse_mode(cand)
                except ValueError:
                    continue
                break
        if mode == "bypassPermissions" and bypass_disabled:
            return "default"
        return mode

    @property
    def additional_dirs(self) -> tuple[Path, ...]:
        dirs: list[Path] = []
        for raw in self.cli.add_dirs or []:
            dirs.append(_as_dir(raw, self.cwd))
        for src in self.sources:
            for raw in src.settings.permissions.additionalDirectories:
                dirs.append(_as_dir(raw, src.root or self.cwd))
        out: list[Path] = []
        for d in dirs:
            if d not in out and d != self.cwd:
                out.append(d)
        return tuple(out)

    def permission_context(self, interactive: bool) -> PermissionContext:
        mode = self.mode
        return PermissionContext(
            mode=mode,
            rules=self.rules,
            cwd=self.cwd,
            additional_dirs=self.additional_dirs,
            interactive=interactive,
            bypass_available=mode == "bypassPermissions",
        )


def _as_dir(raw: str, base: Path) -> Path:
    p = Path(raw).expanduser()
    if not p.is_absolute():
        p = base / p
    return p.resolve()


def _cli_rules(cli: CliSettings, warnings: list[str]) -> list[PermissionRule]:
    out: list[PermissionRule] = []
    for behavior, items, flag in (
        ("deny", cli.disallowed_tools, "--disallowedTools"),
        ("allow", cli.allowed_tools, "--allowedTools"),
    ):
        for text in items or []:
            try:
                out.append(PermissionRule("cliArg", behavior, parse_rule(text)))  # type: ignore[arg-type]
            except RuleSyntaxError as exc:
                warnings.append(f"{flag}: rule {text!r} ignored ({exc})")
    return out


def _flag_settings(value: str, cwd: Path, warnings: list[str]) -> SettingsSource | None:
    text = value.strip()
    if text.startswith("{"):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            warnings.append(f"--settings: invalid JSON ({exc.msg}); ignored")
            return None
        settings, more = validate_settings(raw, "--settings")
        warnings.extend(more)
        return SettingsSource("flagSettings", None, settings, cwd)
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = cwd / path
    if not path.exists():
        warnings.append(f"--settings: file {path} does not exist; ignored")
        return None
    settings, more = read_settings_file(path)
    warnings.extend(more)
    return SettingsSource("flagSettings", path, settings, cwd) if settings else None


# Environment a repository's committed settings may not set, even in a trusted folder: where API
# keys go (CVE-2026-21852 leaked keys through ANTHROPIC_BASE_URL) and the variables that make
# every child process load or run other code (Claude Code's own list of such variables, which it
# strips from commands it runs). Everything else passes: GIT_FLOW_*, AWS_REGION, MY_APP_MODE...
_REPO_ENV_DENY_NAMES = frozenset({
    "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL", "ANTHROPIC_CUSTOM_HEADERS", "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX", "AWS_BEARER_TOKEN_BEDROCK", "PATH", "HOME", "SHELL", "IFS",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "NODE_EXTRA_CA_CERTS",
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH",
    "NODE_OPTIONS", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "BASH_ENV",
    "ENV", "ZDOTDIR", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "PERL5OPT", "PERL5LIB",
    "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "GIT_SSH_COMMAND",
    "GIT_SSH", "GIT_EXEC_PATH", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_PAGER", "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "PAGER", "EDITOR", "VISUAL", "BROWSER",
    "LESSOPEN", "LESSCLOSE", "MANPAGER", "OPENSSL_CONF", "GCONV_PATH", "NLSPATH",
    "npm_config_script_shell", "NPM_CONFIG_SCRIPT_SHELL", "RUSTC_WRAPPER", "CARGO_BUILD_RUSTC",
    "DOTNET_STARTUP_HOOKS", "MAKEFLAGS",
})


def _repo_may_not_set(name: str) -> bool:
    upper = name.upper()
    return name in _REPO_ENV_DENY_NAMES or upper in _REPO_ENV_DENY_NAMES or \
        upper.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "LD_", "DYLD_"))


def _restrict_repo_source(src: SettingsSource, trusted: bool, warnings: list[str]) -> SettingsSource:
    """A repository's own settings cannot raise its privileges.

    Committed `.claude/settings.json` may not pick bypassPermissions or set key-leaking / code-
    loading environment variables. Before the workspace is trusted, project and local settings
    grant nothing: every key the trust table (trust_rules.py) calls a grant is held back (allow
    rules, extra directories, a default mode, environment, hooks, helper commands, MCP
    approvals, cleanup, a wider sandbox); their deny/ask rules and a stricter sandbox apply.
    """
    if src.source not in _REPO_SOURCES:
        return src
    perms = src.settings.permissions
    env = dict(src.settings.env)
    where = str(src.path)
    if src.source == "projectSettings":
        if perms.defaultMode == "bypassPermissions":
            warnings.append(f"{where}: defaultMode bypassPermissions ignored (a repository "
                            "cannot switch permission checks off; use --permission-mode)")
            perms = perms.model_copy(update={"defaultMode": None})
        blocked = sorted(k for k in env if _repo_may_not_set(k))
        if blocked:
            warnings.append(f"{where}: env {', '.join(blocked)} ignored (a repository may not "
                            "set these)")
            env = {k: v for k, v in env.items() if k not in blocked}
    updates = {"permissions": perms, "env": env}
    settings = src.settings.model_copy(update=updates)
    if trusted:
        return SettingsSource(src.source, src.path, settings, src.root)
    kept, held = split_untrusted(settings.model_dump(exclude_unset=True))
    origin = src.path or Path("settings")
    warnings.extend(  # held hooks are listed and announced by the hooks layer (/hooks)
        ignored_notice(item.key, held_count(item), origin, src.root or Path.cwd())
        for item in held if item.key != "hooks")
    return SettingsSource(src.source, src.path, Settings.model_validate(kept), src.root,
                          tuple(held))


def _sandbox_before_trust(sources: list[SettingsSource], warnings: list[str]) -> None:
    """A sandbox that only the untrusted repository switched on still asks before each command
    (its default `autoAllowBashIfSandboxed: true` would be a grant the user never made)."""
    def block(src: SettingsSource) -> Any:
        return src.settings.model_dump(exclude_unset=True).get("sandbox")

    repo = [s for s in sources if s.source in _REPO_SOURCES]
    own = [block(s) for s in sources if s.source not in _REPO_SOURCES]
    if not enabled_by_untrusted_only(own, [block(s) for s in repo]):
        return
    for i, src in enumerate(sources):
        raw = block(src) if src.source in _REPO_SOURCES else None
        if isinstance(raw, dict) and raw.get("enabled") is True:
            changed = {**raw, "autoAllowBashIfSandboxed": False}
            sources[i] = SettingsSource(src.source, src.path, src.settings.model_copy(
                update={"sandbox": changed}), src.root, src.held)
            warnings.append(f"{src.path}: the sandbox this file enables asks before each "
                            "command until this workspace is trusted")
            return


_SOURCE_NAMES = {"localSettings": "local", "projectSettings": "project", "userSettings": "user"}


def load_settings(
    cwd: Path,
    *,
    cli: CliSettings | None = None,
    session_rules: list[PermissionRule] | None = None,
    trusted: bool = True,
) -> LoadedSettings:
    """Read every source; never raises on bad files (their problems become warnings).

    `trusted=False` (the folder has not been trusted yet) keeps project and local settings from
    granting anything; their deny and ask rules still apply.
    """
    cwd = Path(cwd).resolve()
    cli = cli or CliSettings()
    warnings: list[str] = []
    sources: list[SettingsSource] = []
    candidates: list[tuple[RuleSource, Path, Path | None]] = [
        ("policySettings", path, cwd) for path in managed_settings_paths()
    ]
    for source, path, root in candidates:
        settings, more = read_settings_file(path)
        warnings.extend(more)
        if settings is not None:
            sources.append(SettingsSource(source, path, settings, root))
    if cli.settings:
        flag = _flag_settings(cli.settings, cwd, warnings)
        if flag is not None:
            sources.append(flag)
    for source, path, root in (
        ("localSettings", local_settings_path(cwd), cwd),
        ("projectSettings", project_settings_path(cwd), cwd),
        ("userSettings", user_settings_path(), None),
    ):
        if cli.setting_sources is not None and _SOURCE_NAMES[source] not in cli.setting_sources:
            continue
        settings, more = read_settings_file(path)
        warnings.extend(more)
        if settings is not None:
            src = SettingsSource(source, path, settings, root)  # type: ignore[arg-type]
            sources.append(_restrict_repo_source(src, trusted, warnings))
    if not trusted:
        _sandbox_before_trust(sources, warnings)
    if cli.permission_mode:
        try:
            parse_mode(cli.permission_mode)
        except ValueError as exc:
            warnings.append(f"--permission-mode: {exc}")
            cli = CliSettings(cli.settings, cli.allowed_tools, cli.disallowed_tools, None,
                              cli.add_dirs)
    loaded = LoadedSettings(
        cwd=cwd,
        sources=sources,
        cli=cli,
        cli_rules=_cli_rules(cli, warnings),
        session_rules=list(session_rules or []),
        warnings=warnings,
    )
    _warn_missing_dirs(loaded)
    if loaded.mode == "default" and _bypass_requested(loaded):
        warnings.append("bypassPermissions mode is disabled by managed settings; using default")
    return loaded


def _bypass_requested(loaded: LoadedSettings) -> bool:
    wanted = loaded.cli.permission_mode == "bypassPermissions" or any(
        s.settings.permissions.defaultMode == "bypassPermissions" for s in loaded.sources
    )
    return wanted and any(
        s.settings.permissions.disableBypassPermissionsMode == "disable" for s in loaded.sources
    )


def _warn_missing_dirs(loaded: LoadedSettings) -> None:
    for d in loaded.additional_dirs:
        if not d.is_dir():
            loaded.warnings.append(f"additional directory {d} does not exist")
