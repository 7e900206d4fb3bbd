"""The Agent SDK's messages on the pipe, as TypedDicts: the keys pyright checks where the bridge
builds a line, and the value types it assumes where the bridge reads one.

The names follow the Python SDK's own (`claude_agent_sdk/types.py`: SDKControlRequest,
SDKControlInitializeRequest, ControlResponse...) and the TypeScript SDK's where Python has none
(set_model, mcp_status, get_context_usage, the initialize fields only TypeScript sends). The SDK
is a test dependency: nothing here imports it, and tests/sdk checks these shapes against the
programs themselves.

What the program writes is JSON we did not make: a TypedDict here says which keys we read, not
that they are there or well typed, so the bridge still reads with `.get` and checks each value
(every key of an inbound message is NotRequired but `type` and `subtype`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

# ── prompts (stdin) ──────────────────────────────────────────────────────────────────────────


class SDKUserMessageContent(TypedDict):
    role: NotRequired[str]
    content: NotRequired[str | list[dict[str, Any]]]  # text, or content blocks


class SDKUserMessage(TypedDict):
    """`{"type": "user", "message": {"role": "user", "content": ...}}`: a prompt."""

    type: Literal["user"]
    message: NotRequired[SDKUserMessageContent]
    parent_tool_use_id: NotRequired[str | None]
    session_id: NotRequired[str]


# ── the program's control requests (stdin), by subtype ───────────────────────────────────────


class SDKHookCallbackMatcher(TypedDict):
    """One entry of `initialize.hooks[event]`: the callbacks the program runs for a matcher."""

    matcher: NotRequired[str | None]
    hookCallbackIds: NotRequired[list[str]]
    timeout: NotRequired[float | None]


class SDKControlInitializeRequest(TypedDict):
    subtype: Literal["initialize"]
    hooks: NotRequired[dict[str, list[SDKHookCallbackMatcher]] | None]
    agents: NotRequired[dict[str, dict[str, Any]]]
    skills: NotRequired[list[str]]
    forwardSubagentText: NotRequired[bool]
    # the TypeScript SDK's: what the session is built with
    systemPrompt: NotRequired[str | list[str]]
    appendSystemPrompt: NotRequired[str]
    jsonSchema: NotRequired[dict[str, Any]]
    sdkMcpServers: NotRequired[list[str]]


class SDKControlInterruptRequest(TypedDict):
    subtype: Literal["interrupt"]


class SDKControlSetPermissionModeRequest(TypedDict):
    subtype: Literal["set_permission_mode"]
    mode: NotRequired[str]


class SDKControlSetModelRequest(TypedDict):
    subtype: Literal["set_model"]
    model: NotRequired[str | None]  # None: the default model


class SDKControlMcpStatusRequest(TypedDict):
    subtype: Literal["mcp_status"]


class SDKControlGetContextUsageRequest(TypedDict):
    subtype: Literal["get_context_usage"]


class SDKControlMcpReconnectRequest(TypedDict):
    subtype: Literal["mcp_reconnect"]
    serverName: NotRequired[str]


class SDKControlMcpToggleRequest(TypedDict):
    subtype: Literal["mcp_toggle"]
    serverName: NotRequired[str]
    enabled: NotRequired[bool]


class SDKControlRewindFilesRequest(TypedDict):
    subtype: Literal["rewind_files"]
    user_message_id: NotRequired[str]
    dry_run: NotRequired[bool]


class SDKControlStopTaskRequest(TypedDict):
    subtype: Literal["stop_task"]
    task_id: NotRequired[str]


InboundControlRequest = (
    SDKControlInitializeRequest
    | SDKControlInterruptRequest
    | SDKControlSetPermissionModeRequest
    | SDKControlSetModelRequest
    | SDKControlMcpStatusRequest
    | SDKControlGetContextUsageRequest
    | SDKControlMcpReconnectRequest
    | SDKControlMcpToggleRequest
    | SDKControlRewindFilesRequest
    | SDKControlStopTaskRequest
)
"""The `request` of a control_request the program sends."""


# ── our control requests to the program (stdout) ─────────────────────────────────────────────


class PermissionRuleValue(TypedDict):
    """The wire form of the SDK's PermissionRuleValue."""

    toolName: str
    ruleContent: NotRequired[str]


class PermissionUpdate(TypedDict):
    """The wire form of the SDK's PermissionUpdate (its `to_dict()`): what we suggest in
    can_use_tool, and what an allow's `updatedPermissions` asks for."""

    type: Literal["addRules", "replaceRules", "removeRules", "setMode", "addDirectories",
                  "removeDirectories"]
    rules: NotRequired[list[PermissionRuleValue]]
    behavior: NotRequired[Literal["allow", "deny", "ask"]]
    destination: NotRequired[Literal["userSettings", "projectSettings", "localSettings",
                                     "session"]]
    mode: NotRequired[str]
    directories: NotRequired[list[str]]


class SDKControlPermissionRequest(TypedDict):
    """can_use_tool: may this tool call run? (`--permission-prompt-tool stdio`)"""

    subtype: Literal["can_use_tool"]
    tool_name: str
    display_name: str
    input: dict[str, Any]
    description: str
    permission_suggestions: list[PermissionUpdate]
    tool_use_id: str
    agent_id: NotRequired[str]


class SDKHookCallbackRequest(TypedDict):
    subtype: Literal["hook_callback"]
    callback_id: str
    input: dict[str, Any]
    tool_use_id: str | None


class SDKControlMcpMessageRequest(TypedDict):
    """A JSON-RPC message for one of the program's in-process (`sdk`) MCP servers."""

    subtype: Literal["mcp_message"]
    server_name: str
    message: dict[str, Any]


OutboundControlRequest = (
    SDKControlPermissionRequest | SDKHookCallbackRequest | SDKControlMcpMessageRequest
)
"""The `request` of a control_request we send."""


class PermissionResult(TypedDict):
    """The program's answer to can_use_tool (the SDK's PermissionResultAllow / Deny on the
    wire): `behavior` says which, the other keys belong to one or the other."""

    behavior: NotRequired[str]
    updatedInput: NotRequired[dict[str, Any]]  # allow
    updatedPermissions: NotRequired[list[PermissionUpdate]]  # allow
    message: NotRequired[str]  # deny
    interrupt: NotRequired[bool]  # deny


# ── control lines, both directions ───────────────────────────────────────────────────────────


class SDKControlRequest(TypedDict):
    type: Literal["control_request"]
    request_id: str
    request: InboundControlRequest | OutboundControlRequest


class ControlResponse(TypedDict):
    subtype: Literal["success"]
    request_id: str
    response: NotRequired[Mapping[str, Any]]  # the request's own answer (McpStatusResponse...)


class ControlErrorResponse(TypedDict):
    subtype: Literal["error"]
    request_id: str
    error: str
    error_code: NotRequired[str]


class SDKControlResponse(TypedDict):
    type: Literal["control_response"]
    response: ControlResponse | ControlErrorResponse


class SDKControlCancelRequest(TypedDict):
    """The asker gave up on a request (either side may send it)."""

    type: Literal["control_cancel_request"]
    request_id: str


# ── our answers' bodies ──────────────────────────────────────────────────────────────────────


class McpServerStatus(TypedDict):
    name: str
    status: Literal["connected", "pending", "failed", "disabled", "needs-auth"]
    config: dict[str, Any]
    scope: str
    error: NotRequired[str]
    tools: NotRequired[list[dict[str, Any]]]


class McpStatusResponse(TypedDict):
    mcpServers: list[McpServerStatus]


class ContextUsageCategory(TypedDict):
    name: str
    tokens: int
    color: str


class ContextUsageResponse(TypedDict):
    categories: list[ContextUsageCategory]
    totalTokens: int
    maxTokens: int
    rawMaxTokens: int
    percentage: float
    model: str
    isAutoCompactEnabled: bool
    memoryFiles: list[dict[str, Any]]
    mcpTools: list[dict[str, Any]]
    agents: list[dict[str, Any]]
    gridRows: list[list[dict[str, Any]]]
    autoCompactThreshold: NotRequired[int]


class RewindFilesResult(TypedDict):
    """rewind_files' answer (Claude Code's RewindFilesResult)."""

    canRewind: bool
    filesChanged: NotRequired[list[str]]
    insertions: NotRequired[int]
    deletions: NotRequired[int]
    error: NotRequired[str]


# ── the session's own lines (stdout; also `-p --output-format stream-json|json`) ─────────────


class SystemInitData(TypedDict):
    """system/init, at the start of every turn."""

    type: Literal["system"]
    subtype: Literal["init"]
    cwd: str
    tools: list[str]
    mcp_servers: list[dict[str, Any]]  # name, status[, error]
    model: str
    permissionMode: str
    slash_commands: list[str]
    apiKeySource: str
    claude_code_version: str
    output_style: str
    agents: list[str]
    skills: list[str]
    plugins: list[dict[str, Any]]
    session_id: str
    uuid: str


class SDKResultMessage(TypedDict):
    """The `result` line that ends every turn (the Python SDK parses it into ResultMessage)."""

    type: Literal["result"]
    subtype: str  # success, error_max_turns, error_max_budget_usd, error_during_execution
    is_error: bool
    duration_ms: int
    duration_api_ms: int
    num_turns: int
    stop_reason: str | None
    session_id: str
    total_cost_usd: float
    usage: dict[str, int]
    modelUsage: dict[str, dict[str, Any]]
    permission_denials: list[dict[str, Any]]
    terminal_reason: str
    uuid: str
    result: NotRequired[str]
    errors: NotRequired[list[str]]
    structured_output: NotRequired[Any]
    transcript_error: NotRequired[str]
    local_command: NotRequired[str]  # the built-in that answered, when no model turn ran
