"""BashOutput: read what a background shell printed since the last read, and its status."""

from __future__ import annotations

from pydantic import Field

from claude_harness.agent.context import ToolUseContext
from claude_harness.tools.base import Progress, ToolInput, ToolResult, build_tool, load_prompt
from claude_harness.tools.bash.background import REGISTRY, BackgroundShell
from claude_harness.tools.bash.capture import fit_streams
from claude_harness.tools.bash.result import MAX_OUTPUT_CHARS


class BashOutputInput(ToolInput):
    bash_id: str = Field(description="The id returned when the command was started, e.g. 'bash_1'.")


def render_shell_output(shell: BackgroundShell) -> str:
    """Status line, then the new stdout and stderr, each under its own label."""
    status = shell.status()  # read before the output, so "exited" means all output is below
    stdout, stderr = shell.take_output()
    out, err = fit_streams(stdout, stderr, MAX_OUTPUT_CHARS)
    lines = [f"{shell.id}: {status}"]
    if out.strip():
        lines += ["stdout:", out.rstrip("\n")]
    if err.strip():
        lines += ["stderr:", err.rstrip("\n")]
    if not (out.strip() or err.strip()):
        lines.append("(no new output)")
    return "\n".join(lines)


async def _call(inp: BashOutputInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    return ToolResult(data=render_shell_output(REGISTRY.get(inp.bash_id)))


TOOL = build_tool(
    name="BashOutput",
    description=load_prompt(__file__),
    input_model=BashOutputInput,
    call=_call,
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    key_argument=lambda inp: inp.bash_id,
    search_hint="read output of a background shell",
)
