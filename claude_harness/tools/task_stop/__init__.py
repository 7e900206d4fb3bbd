"""TaskStop (alias KillShell): stop a background task and everything it started."""

from __future__ import annotations

import asyncio

from pydantic import Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
    no_prompt_needed,
)
from claude_harness.tools.bash.background import REGISTRY
from claude_harness.tools.task_stop.presentation import PRESENTATION


class TaskStopInput(ToolInput):
    task_id: str | SkipJsonSchema[None] = Field(
        default=None, description="The ID of the background task to stop.")
    shell_id: str | SkipJsonSchema[None] = Field(
        default=None, description="Deprecated: use task_id instead")
    bash_id: SkipJsonSchema[str | None] = Field(default=None, exclude=True)  # KillShell's name

    @model_validator(mode="after")
    def _one_id(self) -> TaskStopInput:
        if not self.target:
            raise ValueError("task_id is required")
        return self

    @property
    def target(self) -> str:
        return self.task_id or self.shell_id or self.bash_id or ""


async def _call(inp: TaskStopInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    shell = REGISTRY.get(inp.target)
    command = shell.command.splitlines()[0] if shell.command else ""
    if not shell.running:
        return ToolResult(data=f"Task {shell.id} was not running ({shell.status()}); nothing to "
                               f"stop. (command: {command})")
    await asyncio.to_thread(REGISTRY.kill, shell.id)
    return ToolResult(data=f"Successfully stopped task: {shell.id} ({command}) and every process "
                           "it started.")


TOOL = build_tool(
    name="TaskStop",
    presentation=PRESENTATION,
    aliases=("KillShell",),
    description=load_prompt(__file__),
    input_model=TaskStopInput,
    call=_call,
    check_permissions=no_prompt_needed("stops a background task this session started"),
    key_argument=lambda inp: inp.target,
    search_hint="stop a background task or shell",
)
