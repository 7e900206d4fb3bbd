"""What an untrusted folder's own settings may still do: one table, every key classified once.

A settings file inside the repository (`.claude/settings.json`, `.claude/settings.local.json`:
both arrive with a clone) is split here before anything reads it. Each key is one of:

  GRANTS   gives the repository something: a permission, a program that runs (a helper, a
           hook, a status line), a wider sandbox, an MCP server, the right to delete files. Held
           back until the folder is trusted.
  NARROWS  takes something away (deny and ask rules, a stricter sandbox): applies at once.
  NEUTRAL  neither (the model's name, an output style, the spinner): applies at once.

A nested block (`permissions`, `sandbox`) has its own table; a value-dependent key narrows only
with the value named (`sandbox.enabled: true` narrows, `false` would switch the user's sandbox
off). A key that no table names GRANTS: a setting added later is held back until someone
classifies it here, never granted by accident. Every front end (app, REPL, `-p`, SDK) loads
settings through config/settings.py, which is the only caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GRANTS = "grants"
NARROWS = "narrows"
NEUTRAL = "neutral"


@dataclass(frozen=True)
class NarrowsWhen:
    """Narrows only when set to `value` (any other value grants)."""

    value: Any


Rule = str | NarrowsWhen | Mapping[str, "Rule"]

PERMISSIONS: Mapping[str, Rule] = {
    "allow": GRANTS,
    "ask": NARROWS,
    "deny": NARROWS,
    "defaultMode": GRANTS,
    "additionalDirectories": GRANTS,
    "disableBypassPermissionsMode": NARROWS,
}

SANDBOX: Mapping[str, Rule] = {
    "enabled": NarrowsWhen(True),
    "failIfUnavailable": NarrowsWhen(True),
    "autoAllowBashIfSandboxed": NarrowsWhen(False),
    "allowUnsandboxedCommands": NarrowsWhen(False),
    "excludedCommands": GRANTS,  # they run outside the sandbox
    "enableWeakerNestedSandbox": NarrowsWhen(False),
    "network": {
        "allowedDomains": GRANTS,
        "deniedDomains": NARROWS,
        "allowLocalBinding": NarrowsWhen(False),
        "allowUnixSockets": GRANTS,
        "allowAllUnixSockets": NarrowsWhen(False),
    },
    "filesystem": {
        "allowWrite": GRANTS,
        "denyWrite": NARROWS,
        "denyRead": NARROWS,
        "allowRead": GRANTS,  # un-hides what a denyRead hid
    },
    "bwrapPath": GRANTS,  # a program to run
    "socatPath": GRANTS,
}

TOP_LEVEL: Mapping[str, Rule] = {
    "$schema": NEUTRAL,
    "permissions": PERMISSIONS,
    "sandbox": SANDBOX,
    # programs that run
    "hooks": GRANTS,
    "apiKeyHelper": GRANTS,
    "statusLine": GRANTS,
    "awsAuthRefresh": GRANTS,
    "awsCredentialExport": GRANTS,
    "otelHeadersHelper": GRANTS,
    "fileSuggestion": GRANTS,
    "env": GRANTS,  # reaches every command, hook and server this session starts
    # servers, plugins and what they bring
    "enableAllProjectMcpServers": GRANTS,
    "enabledMcpjsonServers": GRANTS,
    "disabledMcpjsonServers": NARROWS,
    "allowedMcpServers": NARROWS,
    "deniedMcpServers": NARROWS,
    "allowManagedMcpServersOnly": NARROWS,
    "enabledPlugins": GRANTS,
    "extraKnownMarketplaces": GRANTS,
    "strictKnownMarketplaces": NARROWS,
    "skillOverrides": GRANTS,
    # files outside the repository
    "cleanupPeriodDays": GRANTS,  # 0 deletes every other transcript
    "plansDirectory": GRANTS,
    # checks switched off or on
    "disableAllHooks": NarrowsWhen(True),
    "allowManagedHooksOnly": NarrowsWhen(True),
    "allowManagedPermissionRulesOnly": NarrowsWhen(True),
    "disableAutoMode": NarrowsWhen("disable"),
    "skipWebFetchPreflight": GRANTS,
    "alwaysAllowSandbox": GRANTS,
    "autoConnectIde": GRANTS,
    "forceLoginMethod": NEUTRAL,
    "forceLoginOrgUUID": NEUTRAL,
    "availableModels": NARROWS,
    # how the session looks and talks
    "model": NEUTRAL,
    "effortLevel": NEUTRAL,
    "alwaysThinkingEnabled": NEUTRAL,
    "autoCompactThreshold": NEUTRAL,
    "includeCoAuthoredBy": NEUTRAL,
    "attribution": NEUTRAL,
    "outputStyle": NEUTRAL,
    "parallelAgents": NEUTRAL,
    "companyAnnouncements": NEUTRAL,
    "includeGitInstructions": NEUTRAL,
    "spinnerTipsEnabled": NEUTRAL,
    "spinnerVerbs": NEUTRAL,
    "spinnerTipsOverride": NEUTRAL,
    "terminalProgressBarEnabled": NEUTRAL,
    "showTurnDuration": NEUTRAL,
    "language": NEUTRAL,
    "autoUpdatesChannel": GRANTS,  # which build of a program runs next
    "respectGitignore": NEUTRAL,
    "prefersReducedMotion": NEUTRAL,
    "teammateMode": NEUTRAL,
    "autoMemoryEnabled": NEUTRAL,
    "feedbackSurveyRate": NEUTRAL,
    "forceRemoteSettingsRefresh": NEUTRAL,
    "voiceEnabled": NEUTRAL,
    "theme": NEUTRAL,
    "verbose": NEUTRAL,
    "editorMode": NEUTRAL,
    "preferredNotifChannel": NEUTRAL,
    "promptSuggestionEnabled": NEUTRAL,
    "fastMode": NEUTRAL,
    # Claude Code 2.1.332's further documented keys (settings_catalog.py)
    # programs that run, places data goes, what a session may reach
    "proxyAuthHelper": GRANTS,
    "gcpAuthRefresh": GRANTS,
    "processWrapper": GRANTS,
    "policyHelper": GRANTS,
    "xaaIdp": GRANTS,
    "subagentStatusLine": GRANTS,
    "defaultShell": GRANTS,  # which program runs `!` commands
    "worktree": GRANTS,
    "sshConfigs": GRANTS,
    "sshHostCommands": GRANTS,
    "managedMcpServers": GRANTS,
    "allowAllClaudeAiMcps": GRANTS,
    "allowClaudeInChromeWithManagedMcp": GRANTS,
    "allowedHttpHookUrls": GRANTS,
    "httpHookAllowedEnvVars": GRANTS,
    "pluginConfigs": GRANTS,
    "additionalMarketplaces": GRANTS,
    "prependPlugins": GRANTS,
    "appendPlugins": GRANTS,
    "autoMemoryDirectory": GRANTS,  # files outside the repository
    "desktopSessionCleanupPeriodDays": GRANTS,  # deletes transcripts
    "claudeMd": GRANTS,  # instructions with the organisation's authority
    "agent": GRANTS,  # a repository's agent with its own tools and prompt
    "skipDangerousModePermissionPrompt": GRANTS,
    "forceLoginGatewayUrl": GRANTS,  # where credentials are sent
    "gatewayInternalNetworks": GRANTS,
    "parentSettingsBehavior": GRANTS,
    "managedSourcesBehavior": GRANTS,
    "allowNestedModelAccessUnderForceLogin": GRANTS,
    "wslInheritsWindowsSettings": GRANTS,
    "remote": GRANTS,
    "remoteControlAtStartup": GRANTS,
    "channelsEnabled": GRANTS,
    "allowedChannelPlugins": GRANTS,
    "daemonColdStart": GRANTS,
    "crossSessionInbound": GRANTS,
    "autoUploadSessions": GRANTS,  # sends the sessions away
    "downloadsMirrorUrl": GRANTS,  # where the next build comes from
    "minimumVersion": GRANTS,
    # restrictions
    "allowedMarketplaces": NARROWS,
    "blockedMarketplaces": NARROWS,
    "disableCommandPluginSources": NARROWS,
    "strictPluginOnlyCustomization": NARROWS,
    "allowedProviders": NARROWS,
    "deniedModels": NARROWS,
    "enforceAvailableModels": NarrowsWhen(True),
    "availableModelsMatch": NarrowsWhen("exact"),
    "disableSideloadFlags": NarrowsWhen(True),
    "disableSkillShellExecution": NarrowsWhen(True),
    "disableBundledSkills": NarrowsWhen(True),
    "disableDirectMcpSkills": NarrowsWhen(True),
    "disableClaudeAiConnectors": NarrowsWhen(True),
    "disableRemoteControl": NarrowsWhen(True),
    "disableWorkflows": NarrowsWhen(True),
    "isolatePeerMachines": NarrowsWhen(True),
    "syncClaudeAiSkills": NarrowsWhen(False),
    "syncClaudeAiPlugins": NarrowsWhen(False),
    "fileCheckpointingEnabled": NEUTRAL,
    # how the session looks, talks and compacts
    **dict.fromkeys((
        "fallbackModel", "modelOverrides", "modelPicker",
        "modelPricing", "modelSettings", "maxEffortLevel", "ultracode", "advisorModel",
        "fastModePerSessionOptIn", "promptCacheTtl", "subagentPromptCacheTtl",
        "autoCompactEnabled", "autoCompactWindow", "precomputeCompactionEnabled",
        "idleCompaction", "skillListingMaxDescChars", "skillListingBudgetFraction",
        "attributionProject", "attributionProjectPolicy", "disableReplyCheck",
        "disableAgentView", "disableArtifact", "enableArtifact", "enableWorkflows",
        "workflowSizeGuideline", "workflowKeywordTriggerEnabled",
        "disableWindowsBashCommandSplit", "bashEditDiffEnabled", "bashOutputMaxChars",
        "taskOutputMaxChars", "respondToBashCommands", "desktopMcpServersListScope",
        "prUrlTemplate", "footerLinksRegexes", "pluginSuggestionMarketplaces",
        "pluginTrustMessage", "viewMode", "feedbackDrafts", "syntaxHighlightingDisabled",
        "maxProseWidth", "spellcheck", "terminalTitleFromRename", "emojiCompletionEnabled",
        "showClearContextOnPlanAccept", "askUserQuestionTimeout", "dialogExpiry", "tui",
        "voice", "timeFormat", "timeZone", "autoDreamEnabled", "showThinkingSummaries",
        "claudeMdExcludes", "keybindingFlavor", "vimInsertModeRemaps", "switchModelsOnFlag",
        "autoContinueAtUsageLimit", "autoScrollEnabled", "wheelScrollAccelerationEnabled",
        "showMessageTimestamps", "todoFeatureEnabled", "inputNeededNotifEnabled",
        "agentPushNotifEnabled", "requiredMinimumVersion", "requiredMaximumVersion",
    ), NEUTRAL),
}


def classify(path: tuple[str, ...], value: Any) -> str:
    """GRANTS, NARROWS or NEUTRAL for the setting at `path` (("sandbox", "enabled")) set to
    `value`; a block classifies as the table it has (callers split blocks, see split())."""
    rule: Rule = TOP_LEVEL
    for part in path:
        if not isinstance(rule, Mapping) or part not in rule:
            return GRANTS
        rule = rule[part]
    if isinstance(rule, NarrowsWhen):
        return NARROWS if value == rule.value else GRANTS
    return rule if isinstance(rule, str) else GRANTS


@dataclass(frozen=True)
class Held:
    """A setting held back until trust: where it is (dotted) and what it said."""

    key: str
    value: Any


def split(raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[Held]]:
    """(what applies before trust, what is held back) of one repository settings file."""
    return _split(raw, TOP_LEVEL, ())


def _split(raw: Mapping[str, Any], table: Mapping[str, Rule], where: tuple[str, ...]
           ) -> tuple[dict[str, Any], list[Held]]:
    kept: dict[str, Any] = {}
    held: list[Held] = []
    for key, value in raw.items():
        rule = table.get(key, GRANTS)
        path = (*where, key)
        if isinstance(rule, Mapping):
            if not isinstance(value, Mapping):  # a malformed block: nothing in it is known
                held.append(Held(".".join(path), value))
                continue
            inner, more = _split(value, rule, path)
            if inner:
                kept[key] = inner
            held.extend(more)
        elif classify(path, value) == GRANTS:
            if value not in (None, [], {}):
                held.append(Held(".".join(path), value))
        else:
            kept[key] = value
    return kept, held


def held_count(item: Held) -> int | None:
    """How many entries a held list (or object of entries: env) had; None for one value
    (`statusLine` is one setting however many keys it has); hooks: their commands."""
    if item.key == "hooks" and isinstance(item.value, Mapping):
        return sum(len(g.get("hooks") or []) if isinstance(g, Mapping) else 1
                   for groups in item.value.values() if isinstance(groups, list)
                   for g in groups) or None
    if isinstance(item.value, list) or (item.key in _COUNTED_OBJECTS
                                        and isinstance(item.value, Mapping)):
        return len(item.value)
    return None


_COUNTED_OBJECTS = frozenset({"env", "enabledPlugins"})  # objects of entries, not one value


def enabled_by_untrusted_only(trusted_blocks: list[Any], untrusted_blocks: list[Any]) -> bool:
    """The sandbox is on only because a repository's settings turned it on: then its default
    `autoAllowBashIfSandboxed: true` would let commands run without asking, a grant the user
    never made. Blocks are raw `sandbox` values, trusted ones from the user's own sources."""
    def enables(block: Any) -> bool:
        return isinstance(block, Mapping) and block.get("enabled") is True

    return any(enables(b) for b in untrusted_blocks) and not any(
        enables(b) for b in trusted_blocks)


def documented_keys_unclassified(keys: set[str]) -> list[str]:
    """Documented top-level keys the table does not name (a test keeps this empty)."""
    return sorted(k for k in keys if k not in TOP_LEVEL)
