"""Read's own permission check: the session's persisted tool outputs are always readable.

A result too large for the context is saved under the session's tool-results folder and the
model is told to Read it; that folder lies outside the working directories, so without this
the general chain would ask (or, headless, refuse) for a file the harness itself wrote. Deny and
ask rules and safety checks run before a tool's own check, so they still apply.
"""

from __future__ import annotations

import os
from typing import Any

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionDecision
from claude_harness.tools.budget import tool_results_dir


async def check_permissions(inp: Any, ctx: ToolUseContext) -> PermissionDecision:
    folder = os.path.realpath(tool_results_dir(ctx.options.session_dir))
    target = os.path.realpath(inp.file_path)
    if os.path.commonpath([folder, target]) == folder:
        return PermissionDecision.allow("a persisted tool output of this session",
                                        decided_by="tool")
    return PermissionDecision.passthrough()
