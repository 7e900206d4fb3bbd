"""MCP support: servers from `.mcp.json`, the user config and `--mcp-config`, their tools and
resources offered as ordinary Tools (`mcp__<server>__<tool>`).

Nothing here imports the `mcp` SDK at import time; it is loaded in a worker thread when the
first server starts.
"""

from claude_harness.mcp.approvals import (
    ProjectPolicy,
    pending_approvals,
    record_approval,
    resolve_approvals,
)
from claude_harness.mcp.client import McpManager, ServerStatus
from claude_harness.mcp.config import McpServerConfig, load_mcp_configs

__all__ = [
    "McpManager",
    "McpServerConfig",
    "ProjectPolicy",
    "ServerStatus",
    "load_mcp_configs",
    "pending_approvals",
    "record_approval",
    "resolve_approvals",
]
