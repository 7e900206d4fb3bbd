"""EnterPlanMode / ExitPlanMode: results, permission stance and the mode change they carry."""

from __future__ import annotations

from dataclasses import replace

import pytest

from claude_harness.protocol.tool import ToolError
from claude_harness.tools.plan_mode import ENTER_TOOL, EXIT_TOOL

PLAN = "## Plan\n1. Add `retry()` to client.py\n2. Test it in test_client.py"


async def test_enter_switches_later_context_to_plan(ctx):
    inp = ENTER_TOOL.input_model.model_validate({})
    result = await ENTER_TOOL.call(inp, ctx, lambda _: None)
    assert "plan mode" in ENTER_TOOL.render_result(result.data).lower()
    assert "ExitPlanMode" in result.data
    assert result.context_modifier is not None
    after = result.context_modifier(ctx)
    assert after.permission.mode == "plan"
    assert ctx.permission.mode == "default"  # the modifier returns a new context
    assert after.read_file_state is ctx.read_file_state  # shared state kept by reference


async def test_enter_needs_no_prompt_and_takes_no_parameters(ctx):
    inp = ENTER_TOOL.input_model.model_validate({})
    assert (await ENTER_TOOL.check_permissions(inp, ctx)).behavior == "allow"
    assert ENTER_TOOL.input_schema()["properties"] == {}
    assert ENTER_TOOL.input_schema()["additionalProperties"] is False
    with pytest.raises(ValueError):
        ENTER_TOOL.input_model.model_validate({"plan": "x"})
    assert not ENTER_TOOL.is_concurrency_safe(inp)


async def test_enter_is_refused_in_subagents(ctx):
    inp = ENTER_TOOL.input_model.model_validate({})
    with pytest.raises(ToolError, match="sub-agents"):
        await ENTER_TOOL.call(inp, replace(ctx, agent_id="agent-7"), lambda _: None)


async def test_exit_asks_user_with_plan_preview(ctx):
    planning = ctx.with_mode("plan")
    inp = EXIT_TOOL.input_model.model_validate({"plan": PLAN})
    decision = await EXIT_TOOL.check_permissions(inp, planning)
    assert decision.behavior == "ask"
    assert decision.reason == "Exit plan mode?"
    assert decision.preview == PLAN
    assert not EXIT_TOOL.is_concurrency_safe(inp)


async def test_exit_restores_default_mode_and_tells_model_to_start(ctx):
    planning = ctx.with_mode("plan")
    inp = EXIT_TOOL.input_model.model_validate({"plan": PLAN})
    assert (await EXIT_TOOL.validate_input(inp, planning)).ok
    result = await EXIT_TOOL.call(inp, planning, lambda _: None)
    assert result.data == {"plan": PLAN}
    text = EXIT_TOOL.render_result(result.data)
    assert "approved" in text and "Start implementing" in text
    assert result.context_modifier is not None
    assert result.context_modifier(planning).permission.mode == "default"


async def test_exit_outside_plan_mode_is_invalid(ctx):
    inp = EXIT_TOOL.input_model.model_validate({"plan": PLAN})
    verdict = await EXIT_TOOL.validate_input(inp, ctx)
    assert not verdict.ok and "not in plan mode" in verdict.message


async def test_exit_requires_a_plan():
    schema = EXIT_TOOL.input_schema()
    assert schema["required"] == ["plan"]
    with pytest.raises(ValueError):
        EXIT_TOOL.input_model.model_validate({})
    with pytest.raises(ValueError):
        EXIT_TOOL.input_model.model_validate({"plan": ""})
