"""The hook events we fire and what each one may do.

One table instead of `if event == ...` scattered through the runner: it says which value the
matcher is compared with, what exit code 2 means for the event, and whether plain stdout becomes
context. The semantics follow Claude Code's documented contract so existing hook scripts keep
working unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PRE_TOOL_USE = "PreToolUse"
POST_TOOL_USE = "PostToolUse"
POST_TOOL_USE_FAILURE = "PostToolUseFailure"
PERMISSION_REQUEST = "PermissionRequest"
PERMISSION_DENIED = "PermissionDenied"
USER_PROMPT_SUBMIT = "UserPromptSubmit"
STOP = "Stop"
SUBAGENT_STOP = "SubagentStop"
SESSION_START = "SessionStart"
SESSION_END = "SessionEnd"
PRE_COMPACT = "PreCompact"
POST_COMPACT = "PostCompact"
NOTIFICATION = "Notification"
SETUP = "Setup"
SUBAGENT_START = "SubagentStart"
POST_TOOL_BATCH = "PostToolBatch"
STOP_FAILURE = "StopFailure"
ELICITATION = "Elicitation"
ELICITATION_RESULT = "ElicitationResult"
INSTRUCTIONS_LOADED = "InstructionsLoaded"
CWD_CHANGED = "CwdChanged"
USER_PROMPT_EXPANSION = "UserPromptExpansion"
CONFIG_CHANGE = "ConfigChange"
FILE_CHANGED = "FileChanged"
TASK_CREATED = "TaskCreated"
TASK_COMPLETED = "TaskCompleted"
DIRECTORY_ADDED = "DirectoryAdded"
PRE_MODEL_SWITCH = "PreModelSwitch"
POST_MODEL_SWITCH = "PostModelSwitch"
PRE_SKILL_SHELL_COMMAND = "PreSkillShellCommand"

# What exit code 2 does for an event:
#   deny      the pending permission is refused; stderr is the reason given to the model
#   block     the action (prompt, stop, compaction) is blocked; stderr is the reason
#   feedback  the action already happened; stderr is fed to the model (HookOutcome.blocked)
#   none      nothing can be blocked; stderr is shown to the user as a hook error
Exit2Effect = Literal["deny", "block", "feedback", "none"]

# What the matcher is compared with (the `matcher_value` the caller passes):
MatcherKind = Literal["tool_name", "source", "reason", "trigger", "notification_type",
                      "agent_type", "error", "mcp_server_name", "load_reason", "command_name",
                      "file_name", "to_model", "none"]


@dataclass(frozen=True)
class EventSpec:
    """How one event behaves: matcher subject, exit-2 effect, accepted JSON fields."""

    name: str
    matcher: MatcherKind
    exit2: Exit2Effect
    plain_stdout_is_context: bool = False
    # Top-level `decision: "block"` + `reason` is honoured (for PreToolUse it is the legacy form).
    decision_block: bool = False
    # `hookSpecificOutput.permissionDecision` (or PermissionRequest's `decision.behavior`).
    permission: bool = False


EVENT_SPECS: dict[str, EventSpec] = {
    spec.name: spec
    for spec in (
        EventSpec(PRE_TOOL_USE, "tool_name", "deny", decision_block=True, permission=True),
        EventSpec(POST_TOOL_USE, "tool_name", "feedback", decision_block=True),
        EventSpec(POST_TOOL_USE_FAILURE, "tool_name", "feedback"),
        EventSpec(PERMISSION_REQUEST, "tool_name", "deny", permission=True),
        EventSpec(PERMISSION_DENIED, "tool_name", "none"),
        EventSpec(
            USER_PROMPT_SUBMIT, "none", "block", plain_stdout_is_context=True, decision_block=True
        ),
        EventSpec(STOP, "none", "block", decision_block=True),
        EventSpec(SUBAGENT_STOP, "agent_type", "block", decision_block=True),
        EventSpec(SUBAGENT_START, "agent_type", "none"),
        EventSpec(SESSION_START, "source", "none", plain_stdout_is_context=True),
        EventSpec(SETUP, "trigger", "none", plain_stdout_is_context=True),
        EventSpec(SESSION_END, "reason", "none"),
        EventSpec(PRE_COMPACT, "trigger", "block", decision_block=True),
        EventSpec(POST_COMPACT, "trigger", "none"),
        EventSpec(NOTIFICATION, "notification_type", "none"),
        EventSpec(POST_TOOL_BATCH, "none", "feedback", decision_block=True),
        EventSpec(STOP_FAILURE, "error", "none"),
        # An MCP server asks the user (elicitation): a hook may answer instead
        # (`hookSpecificOutput.action` / `content`); exit 2 declines.
        EventSpec(ELICITATION, "mcp_server_name", "block"),
        EventSpec(ELICITATION_RESULT, "mcp_server_name", "block"),
        # A memory file was loaded (a nested CLAUDE.md when a file below it is first read);
        # observation only, as in Claude Code.
        EventSpec(INSTRUCTIONS_LOADED, "load_reason", "none"),
        # The Bash tool's working directory moved (a `cd` that carries over).
        EventSpec(CWD_CHANGED, "none", "none"),
        # A typed custom command or skill expands into its prompt: exit 2 (or `decision:
        # "block"`) stops it being sent; plain stdout is context, as for UserPromptSubmit.
        # A settings file changed while the session runs (seen before the next prompt).
        EventSpec(CONFIG_CHANGE, "source", "block", decision_block=True),
        EventSpec(USER_PROMPT_EXPANSION, "command_name", "block", plain_stdout_is_context=True,
                  decision_block=True),
        # A watched file changed on disk (hooks/file_watch.py); the matcher is its name.
        EventSpec(FILE_CHANGED, "file_name", "none"),
        # TodoWrite adds a task, or marks one completed: exit 2 (or `decision: "block"`)
        # refuses the update, and the reason goes to the model.
        EventSpec(TASK_CREATED, "none", "block", decision_block=True),
        EventSpec(TASK_COMPLETED, "none", "block", decision_block=True),
        # /add-dir registered a directory (`directory`, `source`: slash_command): nothing can
        # be blocked; a hook's systemMessage reaches the model as context.
        EventSpec(DIRECTORY_ADDED, "source", "none"),
        # /model, the model picker or the SDK's set_model asks for another model: exit 2 or
        # `permissionDecision: "deny"` keeps the current one ("ask" asks the person); the
        # matcher is the model id switched to.
        EventSpec(PRE_MODEL_SWITCH, "to_model", "block", permission=True),
        # The session's model changed: plain stdout (or additionalContext) reaches the model
        # with the next request.
        EventSpec(POST_MODEL_SWITCH, "to_model", "none", plain_stdout_is_context=True),
        # A skill's or command's !`cmd` is about to run (matcher: the shell tool, Bash): exit 2,
        # `decision: "block"`, or a permissionDecision deny/ask (or an updatedInput) keeps it
        # from running; its place in the prompt then says why.
        EventSpec(PRE_SKILL_SHELL_COMMAND, "tool_name", "block", decision_block=True,
                  permission=True),
    )
}

# Events Claude Code documents that this harness never fires: hooks on them load (and are
# reported as never running) instead of being rejected as unknown.
NOT_FIRED_EVENTS: frozenset[str] = frozenset({
    "MessageDisplay", "WorktreeCreate", "WorktreeRemove", "TeammateIdle",
})

# InstructionsLoaded's `load_reason`s and `memory_type`s (Claude Code's values).
LOAD_REASONS: tuple[str, ...] = ("session_start", "nested_traversal", "path_glob_match",
                                 "include", "compact")
MEMORY_TYPES: tuple[str, ...] = ("User", "Project", "Local", "Managed")

# Events whose hooks get CLAUDE_ENV_FILE: what they export reaches later Bash commands.
ENV_FILE_EVENTS: frozenset[str] = frozenset({SESSION_START, SETUP})

HOOK_EVENTS: tuple[str, ...] = tuple(EVENT_SPECS)

# Events whose payload names a tool: the runner passes `tool_name` as the matcher value when the
# caller did not give one explicitly.
TOOL_EVENTS: frozenset[str] = frozenset(
    name for name, spec in EVENT_SPECS.items() if spec.matcher == "tool_name"
)

SESSION_START_SOURCES: tuple[str, ...] = ("startup", "resume", "clear", "compact")
PRE_COMPACT_TRIGGERS: tuple[str, ...] = ("manual", "auto")
SETUP_TRIGGERS: tuple[str, ...] = ("init", "maintenance")
