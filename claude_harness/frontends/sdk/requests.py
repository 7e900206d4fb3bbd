"""The answers to `mcp_status` and `get_context_usage`, in the shapes the SDKs type them
(`McpStatusResponse`, `ContextUsageResponse`), from the session's Reports."""

from __future__ import annotations

from typing import Any, Literal

from claude_harness.frontends.sdk.messages import (
    ContextUsageCategory,
    ContextUsageResponse,
    McpServerStatus,
    McpStatusResponse,
)

ConnectionStatus = Literal["connected", "pending", "failed", "disabled"]
# our connection states -> the SDK's McpServerConnectionStatus
STATUS: dict[str, ConnectionStatus] = {
    "connected": "connected", "pending": "pending", "failed": "failed",
    "needs-approval": "pending", "disabled": "disabled", "closed": "failed"}


def mcp_status(servers: list[dict[str, Any]]) -> McpStatusResponse:
    found: list[McpServerStatus] = []
    for server in servers:
        entry: McpServerStatus = {"name": server["name"],
                                 "status": STATUS.get(server["status"], "failed"),
                                 "config": {"type": server["transport"]},
                                 "scope": server["scope"]}
        if server.get("error"):
            entry["error"] = server["error"]
        if server["status"] == "connected":
            entry["tools"] = server["tools"]
        found.append(entry)
    return {"mcpServers": found}


def context_usage(facts: dict[str, Any]) -> ContextUsageResponse:
    """What the context holds, by category: the system prompt and tools as the loop estimates
    them, the conversation from the last request's prompt size."""
    window = int(facts.get("window") or 200_000)
    system = int(facts.get("system_tokens", 0))
    tools = int(facts.get("tool_tokens", 0))
    total = max(int(facts.get("tokens", 0)), system + tools)
    messages = max(0, total - system - tools)
    threshold = facts.get("compact_threshold")
    categories: list[ContextUsageCategory] = [
        {"name": "System prompt", "tokens": system, "color": "promptBorder"},
        {"name": "System tools", "tokens": tools, "color": "inactive"},
        {"name": "Messages", "tokens": messages, "color": "purple"},
        {"name": "Free space", "tokens": max(0, window - total), "color": "promptBorder"},
    ]
    usage: ContextUsageResponse = {
        "categories": categories, "totalTokens": total, "maxTokens": window,
        "rawMaxTokens": window, "percentage": round(100.0 * total / window, 2),
        "model": facts.get("model", ""), "isAutoCompactEnabled": threshold is not None,
        "memoryFiles": [{"path": p, "type": "Project"} for p in facts.get("memory_files", [])],
        "mcpTools": [], "agents": [], "gridRows": []}
    if threshold is not None:
        usage["autoCompactThreshold"] = threshold
    return usage
