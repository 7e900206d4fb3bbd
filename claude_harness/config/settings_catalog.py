"""The settings keys Claude Code 2.1.332 documents that this harness does not apply, each with
the reason `/doctor` and `claude-harness doctor --json` give.

The list is the public (not `@internal`) keys of Claude Code's own settings schema, plus the
older keys its documentation still names. The keys this harness applies are in
settings_keys.py (APPLIED, EXPOSED); every key of both is classified in trust_rules.py.
"""

from __future__ import annotations

_CLOUD = ("a claude.ai / Anthropic cloud feature (Remote Control, cloud sessions, connectors, "
          "workflows, notifications to the phone); this harness runs on this machine only")
_LOGIN = ("login and provider policy: this harness talks to the Anthropic API with an API key "
          "(ANTHROPIC_API_KEY or apiKeyHelper) only; there is no OAuth login to restrict")
_SCREEN = "a detail of Claude Code's own terminal interface that this harness's screens lack"
_DESKTOP = "Claude Desktop, IDE, Windows or SSH integration this harness does not have"
_UPDATES = "Claude Code's installer and auto-updater; this harness is installed and updated " \
           "with pip"
_HELPERS = "a credential or launcher helper for providers and proxies this harness does not use"
_MARKET = ("plugin marketplace policy this harness does not enforce yet "
           "(strictKnownMarketplaces and blockedMarketplaces are)")
_MEMORY = "auto-memory is not part of this harness (CLAUDE.md files are)"
_MODELS = "model catalog, picker and pricing details of Claude Code's /model screen"

UNSUPPORTED_REASONS: dict[str, str] = {
    **dict.fromkeys(("awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh",
                     "proxyAuthHelper", "processWrapper", "otelHeadersHelper", "xaaIdp",
                     "policyHelper"), _HELPERS),
    **dict.fromkeys(("forceLoginGatewayUrl", "gatewayInternalNetworks",
                     "allowNestedModelAccessUnderForceLogin", "allowedProviders",
                     "forceRemoteSettingsRefresh", "parentSettingsBehavior",
                     "managedSourcesBehavior"), _LOGIN),
    "forceLoginOrgUUID": "it pins the organisation of a claude.ai / Console OAuth sign-in; "
                         "this harness has no sign-in (API keys only), so there is no "
                         "account to check and the pin is not enforced",
    "forceLoginMethod": "we only have API keys: a `claudeai` requirement cannot be met (there "
                        "is no claude.ai login here) and `console` is what an API key already "
                        "is; nothing changes",
    **dict.fromkeys(("syncClaudeAiSkills", "syncClaudeAiPlugins", "disableClaudeAiConnectors",
                     "allowAllClaudeAiMcps", "allowClaudeInChromeWithManagedMcp",
                     "disableReplyCheck", "disableAgentView", "disableRemoteControl",
                     "disableWorkflows", "disableArtifact", "enableArtifact", "enableWorkflows",
                     "workflowSizeGuideline", "workflowKeywordTriggerEnabled", "remote",
                     "channelsEnabled", "allowedChannelPlugins", "remoteControlAtStartup",
                     "isolatePeerMachines", "daemonColdStart", "crossSessionInbound",
                     "autoUploadSessions", "inputNeededNotifEnabled", "agentPushNotifEnabled",
                     "attributionProject", "attributionProjectPolicy", "feedbackSurveyRate",
                     "feedbackDrafts", "teammateMode", "switchModelsOnFlag",
                     "autoContinueAtUsageLimit", "desktopSessionCleanupPeriodDays",
                     "skipWebFetchPreflight", "advisorModel", "ultracode", "fastMode",
                     "fastModePerSessionOptIn", "promptCacheTtl", "subagentPromptCacheTtl"),
                    _CLOUD),
    **dict.fromkeys(("wslInheritsWindowsSettings", "disableWindowsBashCommandSplit",
                     "desktopMcpServersListScope", "sshConfigs", "sshHostCommands",
                     "autoConnectIde", "preferredNotifChannel", "voice", "voiceEnabled",
                     "worktree"), _DESKTOP),
    **dict.fromkeys(("autoUpdatesChannel", "minimumVersion", "requiredMinimumVersion",
                     "requiredMaximumVersion", "downloadsMirrorUrl"), _UPDATES),
    **dict.fromkeys(("additionalMarketplaces", "allowedMarketplaces",
                     "extraKnownMarketplaces", "disableCommandPluginSources",
                     "pluginSuggestionMarketplaces", "prependPlugins", "appendPlugins",
                     "pluginConfigs", "pluginTrustMessage", "disableSideloadFlags"), _MARKET),
    **dict.fromkeys(("autoMemoryEnabled", "autoMemoryDirectory", "autoDreamEnabled"), _MEMORY),
    **dict.fromkeys(("modelPicker", "modelPricing", "modelSettings", "maxEffortLevel"),
                    _MODELS),
    **dict.fromkeys(("companyAnnouncements", "spinnerVerbs", "spinnerTipsOverride",
                     "terminalProgressBarEnabled", "showTurnDuration", "prefersReducedMotion",
                     "viewMode", "syntaxHighlightingDisabled", "maxProseWidth", "spellcheck",
                     "terminalTitleFromRename", "emojiCompletionEnabled",
                     "showClearContextOnPlanAccept", "autoScrollEnabled",
                     "wheelScrollAccelerationEnabled", "showMessageTimestamps",
                     "todoFeatureEnabled", "footerLinksRegexes", "subagentStatusLine",
                     "prUrlTemplate", "tui", "timeFormat", "timeZone", "keybindingFlavor",
                     "showThinkingSummaries", "bashEditDiffEnabled", "askUserQuestionTimeout",
                     "dialogExpiry", "promptSuggestionEnabled", "fileSuggestion"), _SCREEN),
    "alwaysAllowSandbox": "the sandbox asks as its own settings say (sandbox.* keys)",
    "disableAutoMode": "this harness has no auto (classifier) permission mode to disable",
    "skipDangerousModePermissionPrompt": "bypassPermissions is chosen with "
                                         "--permission-mode each time; there is no dialog",
    "skillOverrides": "skills load from their folders as they are; per-skill overrides are "
                      "not supported yet",
    "skillListingMaxDescChars": "the skill listing sent to the model has its own fixed size",
    "skillListingBudgetFraction": "the skill listing sent to the model has its own fixed size",
    "disableBundledSkills": "this harness ships no bundled skills",
    "disableDirectMcpSkills": "MCP servers' skills are not loaded by this harness",
    "managedMcpServers": "managed MCP servers come from managed-mcp.json here, not from "
                         "settings",
    "bashOutputMaxChars": "the Bash tool keeps its own output limit",
    "taskOutputMaxChars": "no effect in Claude Code either (the TaskOutput tool was removed)",
    "respondToBashCommands": "input-box `!` commands always get a reply here",
    "precomputeCompactionEnabled": "compaction runs when it is needed, not ahead of time",
    "idleCompaction": "this harness never compacts while idle",
    "claudeMd": "organisation memory comes from the managed CLAUDE.md file here",
    "agent": "start as a custom agent with --agent (the setting is not read yet)",
}
