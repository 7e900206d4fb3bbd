"""KillShell: stop a background shell and everything it started."""

from __future__ import annotations

import asyncio

from pydantic import Field

from claude_harness.agent.context import ToolUseContext
from claude_harness.tools.base import Progress, ToolInput, ToolResult, build_tool, load_prompt
from claude_harness.tools.bash.background import REGISTRY


class KillShellInput(ToolInput):
    bash_id: str = Field(description="The id of the background shell to stop, e.g. 'bash_1'.")


async def _call(inp: KillShellInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    shell = REGISTRY.get(inp.bash_id)
    if not shell.running:
        return ToolResult(data=f"{shell.id} was not running ({shell.status()}); nothing to stop.")
    await asyncio.to_thread(REGISTRY.kill, shell.id)
    return ToolResult(
        data=f"Killed {shell.id} and its process group (command: {shell.command.splitlines()[0]})."
    )


TOOL = build_tool(
    name="KillShell",
    description=load_prompt(__file__),
    input_model=KillShellInput,
    call=_call,
    key_argument=lambda inp: inp.bash_id,
    search_hint="stop a background shell",
)
