"""TaskOutput (alias BashOutput): what a background task printed since the last read, and its
status; optionally waiting for it to finish."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
)
from claude_harness.tools.bash.background import REGISTRY, BackgroundShell
from claude_harness.tools.bash.capture import fit_streams
from claude_harness.tools.bash.limits import BashLimits
from claude_harness.tools.task_output.presentation import PRESENTATION

DEFAULT_WAIT_MS = 30_000
MAX_WAIT_MS = 600_000
POLL_SECONDS = 0.05


def _schema_extra(schema: dict[str, Any]) -> None:
    schema["required"] = ["task_id"]  # `bash_id` (the BashOutput spelling) is accepted unseen
    schema["properties"]["block"]["default"] = True
    schema["properties"]["timeout"]["default"] = DEFAULT_WAIT_MS


class TaskOutputInput(ToolInput):
    model_config = {"json_schema_extra": _schema_extra}

    task_id: str | SkipJsonSchema[None] = Field(
        default=None, description="The id of the background task, e.g. 'bash_1'.")
    block: bool | SkipJsonSchema[None] = Field(
        default=None, description="Wait for the task to finish (up to `timeout`) before answering.")
    timeout: int | SkipJsonSchema[None] = Field(
        default=None, ge=0, le=MAX_WAIT_MS,
        description=f"How long to wait when blocking, in milliseconds (max {MAX_WAIT_MS}).")
    bash_id: SkipJsonSchema[str | None] = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _one_id(self) -> TaskOutputInput:
        if not (self.task_id or self.bash_id):
            raise ValueError("task_id is required")
        return self

    @property
    def shell_id(self) -> str:
        return self.task_id or self.bash_id or ""

    @property
    def waits(self) -> bool:
        """BashOutput calls (old transcripts) never waited; TaskOutput waits by default."""
        return self.block if self.block is not None else self.bash_id is None


def render_task_output(shell: BackgroundShell, retrieval: str) -> str:
    """Claude Code's TaskOutput layout: tagged fields, then the new output."""
    state = shell.state  # read before the output, so "completed" means all output is below
    stdout, stderr = shell.take_output()
    out, err = fit_streams(stdout, stderr, BashLimits.from_env().max_output_chars)
    lines = [f"<retrieval_status>{retrieval}</retrieval_status>", f"<task_id>{shell.id}</task_id>",
             "<task_type>local_bash</task_type>", f"<status>{state}</status>"]
    if shell.exit_code is not None and state in ("completed", "failed"):
        lines.append(f"<exit_code>{shell.exit_code}</exit_code>")
    if state == "expired":
        lines.append(f"<note>{shell.status()}</note>")
    lines.append(f"<output_file>{shell.output.path}</output_file>")
    body = [out.rstrip("\n")] if out.strip() else []
    if err.strip():
        body.append("[stderr]\n" + err.rstrip("\n"))
    lines.append("<output>\n" + ("\n".join(body) if body else "(no new output)") + "\n</output>")
    return "\n".join(lines)


async def _call(inp: TaskOutputInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    shell = REGISTRY.get(inp.shell_id)
    retrieval = "success"
    if inp.waits and shell.running:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (inp.timeout if inp.timeout is not None else DEFAULT_WAIT_MS) / 1000
        while shell.running and loop.time() < deadline:
            if ctx.abort.aborted:
                raise ToolError("Interrupted while waiting for the task.", code="aborted")
            await asyncio.sleep(POLL_SECONDS)
        retrieval = "success" if not shell.running else "timeout"
    elif shell.running:
        retrieval = "not_ready"
    if not shell.running:
        await asyncio.to_thread(shell.process.wait_finished, 2.0)  # the last output is read
    return ToolResult(data=render_task_output(shell, retrieval))


TOOL = build_tool(
    name="TaskOutput",
    presentation=PRESENTATION,
    aliases=("BashOutput",),
    description=load_prompt(__file__),
    input_model=TaskOutputInput,
    call=_call,
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    key_argument=lambda inp: inp.shell_id,
    search_hint="read output of a background task or shell",
)
