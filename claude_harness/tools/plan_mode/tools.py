"""EnterPlanMode and ExitPlanMode: the model switches itself into read-only planning and asks the
user to approve its plan to leave it.

Neither tool touches files. Their whole effect is a `context_modifier` that changes the
permission mode seen by the tools that run after them, which is why both run serially (the
executor only applies modifiers of non-concurrency-safe tools at once).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionDecision
from claude_harness.protocol.tool import (
    VALID,
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)
from claude_harness.tools.plan_mode.plan_files import save_plan
from claude_harness.tools.plan_mode.presentation import ENTER_PRESENTATION, EXIT_PRESENTATION


class EnterPlanModeInput(ToolInput):
    """No parameters."""


class ExitPlanModeInput(ToolInput):
    plan: str = Field(
        min_length=1, description="The plan to show the user for approval, in Markdown"
    )


ENTERED = (
    "Plan mode is now on. Explore with read-only tools (Read, Grep, Glob, read-only shell "
    "commands) and work out an approach; do not edit files or run anything that changes state "
    "yet. When the plan is ready, call ExitPlanMode with it so the user can approve it."
)
APPROVED = (
    "The user approved the plan and plan mode is off. Start implementing it now, following the "
    "plan; if it has several steps, track them with TodoWrite."
)


def _to_mode(mode: str) -> Any:
    return lambda ctx: ctx.with_mode(mode)


async def _enter(inp: EnterPlanModeInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.agent_id is not None:
        raise ToolError("EnterPlanMode is only for the main conversation, not for sub-agents.")
    return ToolResult(data=ENTERED, context_modifier=_to_mode("plan"))


async def _enter_allowed(inp: EnterPlanModeInput, ctx: ToolUseContext) -> PermissionDecision:
    return PermissionDecision.allow("entering plan mode only restricts what runs next")


async def _exit(inp: ExitPlanModeInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    saved = save_plan(inp.plan)  # approved: the call runs only after the user said yes
    data = {"plan": inp.plan, **({"filePath": str(saved)} if saved else {})}
    return ToolResult(data=data, context_modifier=_to_mode("default"))


async def _exit_valid(inp: ExitPlanModeInput, ctx: ToolUseContext) -> ValidationResult:
    """Refuse before the user is shown an approval dialog that would mean nothing."""
    if ctx.permission.mode != "plan":
        return ValidationResult.fail(
            "You are not in plan mode, so there is nothing to exit. Go ahead with the task; "
            "call EnterPlanMode first if you want the user to approve a plan.",
            "not_in_plan_mode",
        )
    return VALID


async def _exit_asks(inp: ExitPlanModeInput, ctx: ToolUseContext) -> PermissionDecision:
    """Leaving plan mode is the user's call: the front end shows the plan as the preview."""
    return PermissionDecision.ask("Exit plan mode?", preview=inp.plan)


ENTER_TOOL = build_tool(
    name="EnterPlanMode",
    needs_conversation=True,
    presentation=ENTER_PRESENTATION,
    description=load_prompt(__file__, "enter_prompt.md"),
    input_model=EnterPlanModeInput,
    call=_enter,
    is_read_only=lambda inp: True,
    check_permissions=_enter_allowed,
    search_hint="plan mode design before coding",
)

EXIT_TOOL = build_tool(
    name="ExitPlanMode",
    needs_conversation=True,
    presentation=EXIT_PRESENTATION,
    description=load_prompt(__file__, "exit_prompt.md"),
    input_model=ExitPlanModeInput,
    call=_exit,
    validate_input=_exit_valid,
    check_permissions=_exit_asks,
    render_result=lambda data: APPROVED + (
        f" The plan is saved in {data['filePath']}." if data.get("filePath") else ""),
    key_argument=lambda inp: inp.plan.strip().splitlines()[0][:80] if inp.plan.strip() else "",
    search_hint="plan mode approve plan start coding",
)
