"""Every settings key Claude Code documents: applied here, read for another part to apply, or
reported (once) as not supported. Unknown keys are reported too, so a typo is never silent.

`session_settings(loaded)` gives the values other parts apply (the API client: model, effort,
thinking; the loop: autoCompactThreshold; commits: includeCoAuthoredBy / attribution; the front
ends: outputStyle, statusLine). `settings_report(loaded)` feeds /status, /doctor and --debug.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from claude_harness.config.load_report import LoadReport
from claude_harness.config.settings_catalog import UNSUPPORTED_REASONS

# Applied by this harness's configuration code (settings, hooks, MCP, plugins, start-up).
APPLIED = frozenset({
    "$schema", "permissions", "hooks", "env", "model", "disableAllHooks",
    "allowManagedHooksOnly", "allowManagedPermissionRulesOnly", "enableAllProjectMcpServers",
    "enabledMcpjsonServers", "disabledMcpjsonServers", "enabledPlugins", "cleanupPeriodDays",
    "parallelAgents", "theme", "verbose", "respectGitignore", "autoCompactEnabled",
    "autoCompactWindow", "availableModels", "modelOverrides", "fallbackModel",
    "allowedMcpServers", "deniedMcpServers", "allowManagedMcpServersOnly",
    "strictKnownMarketplaces", "fileCheckpointingEnabled", "plansDirectory",
    "allowedHttpHookUrls", "httpHookAllowedEnvVars",  # hooks/kinds.py HttpHookPolicy
    "disableSkillShellExecution",  # session/prompt/command_prompt.py SHELL_DISABLED
    "deniedModels", "enforceAvailableModels", "availableModelsMatch",  # model_policy.py
    "blockedMarketplaces",  # commands/plugins/store.py _allowed_by_policy
    # config/plugin_only.py locked_surfaces: commands/catalog.py load_catalog (skills,
    # commands, agents), hooks/config.py hook_config_from_settings, mcp/server_policy.py
    "strictPluginOnlyCustomization",
})
# Read and exposed through `session_settings()`; the part named applies it.
EXPOSED = {
    "effortLevel": "the API request (effort)",
    "alwaysThinkingEnabled": "the API request (thinking)",
    "autoCompactThreshold": "the agent loop (auto-compaction)",
    "includeCoAuthoredBy": "the commit attribution reminder",
    "attribution": "the commit and pull request attribution reminder",
    "apiKeyHelper": "the API client (the key comes from this command)",
    "outputStyle": "the system prompt (output style)",
    "statusLine": "the front ends (status line command)",
    "sandbox": "the Bash sandbox",
    "language": "the system prompt (the language Claude answers in)",
    "includeGitInstructions": "the system prompt (git snapshot and commit instructions)",
    "claudeMdExcludes": "the memory loader (CLAUDE.md files left out)",
    "editorMode": "the front ends' input (\"vim\": vim's NORMAL/INSERT editing, as /vim sets)",
    "vimInsertModeRemaps": "the front ends' vim input (two typed characters that leave INSERT)",
    "spinnerTipsEnabled": "the app's spinner (`false`: no tips under it)",
}
# Documented by Claude Code, not supported here: reported once with the reason, never an error.
UNSUPPORTED = frozenset(UNSUPPORTED_REASONS)
# Keys whose documented effect already holds here without reading them (said so, as loaded).
HONOURED = {
    "defaultShell": "`!` commands run bash, as Claude Code's default `bash` says",
}
# Keys honoured for some values only: any other value is reported as not supported, why.
OTHER_VALUES: dict[str, tuple[tuple[object, ...], str]] = {
    "defaultShell": (("bash",), "`!` commands (and the Bash tool) always run /bin/bash here; "
                                "this harness has no PowerShell path for them"),
}


@dataclass(frozen=True)
class SessionSettings:
    """The values other parts apply (None = not set anywhere)."""

    model: str | None = None
    effort_level: str | None = None
    always_thinking: bool | None = None
    auto_compact_threshold: float | None = None
    include_co_authored_by: bool = True
    attribution: dict[str, Any] | None = None
    api_key_helper: str | None = None
    output_style: str = "default"
    status_line: dict[str, Any] | None = None
    cleanup_period_days: int = 30
    language: str | None = None  # the system prompt names it (agent/prompt.py)
    include_git_instructions: bool = True  # false: no git snapshot and git instructions


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def session_settings(loaded: Any) -> SessionSettings:
    value = loaded.value
    threshold = _number(value("autoCompactThreshold"))
    days = value("cleanupPeriodDays")
    effort = value("effortLevel")
    helper = value("apiKeyHelper")
    style = value("outputStyle")
    status = value("statusLine")
    attribution = value("attribution")
    language = value("language")
    return SessionSettings(
        model=loaded.model,
        effort_level=effort if isinstance(effort, str) else None,
        always_thinking=value("alwaysThinkingEnabled")
        if isinstance(value("alwaysThinkingEnabled"), bool) else None,
        auto_compact_threshold=threshold,
        include_co_authored_by=value("includeCoAuthoredBy", True) is not False,
        attribution=attribution if isinstance(attribution, dict) else None,
        api_key_helper=helper if isinstance(helper, str) and helper.strip() else None,
        output_style=style if isinstance(style, str) and style else "default",
        status_line=status if isinstance(status, dict) else None,
        cleanup_period_days=int(days) if isinstance(days, int) and not isinstance(days, bool)
        and days >= 0 else 30,
        language=language.strip() if isinstance(language, str) and language.strip() else None,
        include_git_instructions=value("includeGitInstructions") is not False
        and os.environ.get("CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS", "").lower()
        not in ("1", "true"),
    )


def key_status(key: str) -> tuple[str, str]:
    """(report status, reason) for one top-level settings key."""
    if key in APPLIED:
        return "loaded", ""
    if key in EXPOSED:
        return "loaded", f"read; applied by {EXPOSED[key]}"
    if key in HONOURED:
        reason = HONOURED[key]
        return ("unsupported" if reason.startswith("not yet") else "loaded"), reason
    if key in UNSUPPORTED:
        return "unsupported", f"not supported: {UNSUPPORTED_REASONS[key]}; ignored"
    return "unsupported", "not a setting Claude Code documents (a typo?); ignored"


_SHOWN_VALUES = frozenset({"editorMode", "defaultShell", "forceLoginMethod"})  # stored, shown


def _written(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_written(v) for v in value.values())
    return value not in (None, [], {}, "")


def settings_report(loaded: Any, report: LoadReport | None = None) -> LoadReport:
    """One entry per key per settings file, plus the warnings the settings loader gave."""
    report = report if report is not None else LoadReport()
    for src in loaded.sources:
        origin = str(src.path) if src.path is not None else src.source
        for key, value in src.settings.model_dump(exclude_unset=True).items():
            if key in ("permissions", "env") and not _written(value):
                continue  # defaults filled in by the loader, not written in the file
            status, reason = key_status(key)
            honoured, why = OTHER_VALUES.get(key, ((value,), ""))
            if value not in honoured:
                status, reason = "unsupported", f"not supported: {why}; ignored"
            if key in _SHOWN_VALUES and isinstance(value, str):
                reason = f"set to {value!r}: {reason}"
            report.add("setting", key, origin, status, reason)  # type: ignore[arg-type]
    for warning in loaded.warnings:
        where, _, reason = warning.partition(": ")
        report.add("setting", "(file)", where, "warning", reason or warning)
    return report


# Every key Claude Code documents, as this harness knows them (each classified in trust_rules).
DOCUMENTED = frozenset(APPLIED | set(EXPOSED) | UNSUPPORTED | set(HONOURED))
