"""MCP support: servers from `.mcp.json`, the user config and `--mcp-config`, their tools and
resources offered as ordinary Tools (`mcp__<server>__<tool>`), their prompts as slash commands
(`/mcp__<server>__<prompt>`), and the client capabilities servers may use: roots (the working
directories), elicitation (a server's question, answered by a hook, an SDK program or the
user's form) and OAuth 2.1 logins for remote servers.

Nothing here imports the `mcp` SDK at import time; it is loaded in a worker thread when the
first server starts.
"""

from claude_harness.mcp.approvals import (
    ProjectPolicy,
    pending_approvals,
    record_approval,
    resolve_approvals,
)
from claude_harness.mcp.client import McpManager, ServerStatus, ToolChanges
from claude_harness.mcp.config import McpServerConfig, load_mcp_configs
from claude_harness.mcp.content import McpCallResult
from claude_harness.mcp.elicitation import (
    ElicitationAnswer,
    ElicitationHandler,
    ElicitationRequest,
    hook_answerer,
    hook_reviewer,
    sdk_answerer,
)
from claude_harness.mcp.prompts import McpPromptCommand, PromptError
from claude_harness.mcp.tools import allows_direct_call

__all__ = [
    "ElicitationAnswer",
    "ElicitationHandler",
    "ElicitationRequest",
    "McpCallResult",
    "McpManager",
    "McpPromptCommand",
    "McpServerConfig",
    "ProjectPolicy",
    "PromptError",
    "ServerStatus",
    "ToolChanges",
    "allows_direct_call",
    "hook_answerer",
    "hook_reviewer",
    "load_mcp_configs",
    "pending_approvals",
    "record_approval",
    "resolve_approvals",
    "sdk_answerer",
]
