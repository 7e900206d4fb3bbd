"""Agent: run a sub-agent and hand its final report back as the tool result.

This tool only describes the child: its kind (the general agent or a custom one from
`.claude/agents`), its tools (the parent's minus Agent, or the kind's list), its model and system
prompt. The session's spawner (`ctx.spawn_agent`, `agent/subagent.py`) runs the child's loop,
so no tool imports the loop. The child's permission prompts reach the user the same way the
parent's do. Its messages come back as `new_messages`, marked as a sidechain: kept in the
transcript and shown by front ends, never sent to the API as the parent's history.
"""

from __future__ import annotations

import os

from pydantic import Field

from claude_harness.api.models import subagent_model
from claude_harness.protocol.context import SubAgentSpec, ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
    no_prompt_needed,
)
from claude_harness.tools.agent.definitions import GENERAL_PURPOSE, agent_definitions, find_agent


class AgentInput(ToolInput):
    description: str = Field(description="A short (3-5 word) description of the task")
    prompt: str = Field(description="The complete task for the sub-agent")
    subagent_type: str | None = Field(None, description="The kind of agent to use")
    model: str | None = Field(None, description="sonnet, opus, haiku or a model id")
    run_in_background: bool | None = Field(
        None, description="Accepted for compatibility; the sub-agent runs in the foreground")


def parallel_agents_enabled() -> bool:
    """Agents run one at a time unless the user opts in (settings `parallelAgents`)."""
    return os.environ.get("CLAUDE_HARNESS_PARALLEL_AGENTS", "") in ("1", "true")


async def call(inp: AgentInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    definition = find_agent(inp.subagent_type, ctx.cwd) if inp.subagent_type else GENERAL_PURPOSE
    if definition is None:
        known = ", ".join(d.name for d in agent_definitions(ctx.cwd))
        raise ToolError(f"Unknown subagent_type {inp.subagent_type!r}. Available: {known}")
    if ctx.spawn_agent is None or ctx.options.api is None:
        raise ToolError("Sub-agents need the model API, which is not available here.")
    tools = tuple(t for t in ctx.options.tools if t.name != "Agent"
                  and (definition.tools is None or t.name in definition.tools))
    model = subagent_model(inp.model or definition.model, ctx.options.model)
    report = await ctx.spawn_agent(SubAgentSpec(inp.prompt, definition.system_prompt, tools,
                                                model, definition.name), ctx, progress)
    if report.end_reason == "error":
        raise ToolError(f"The sub-agent failed: {report.error}")
    if report.end_reason == "aborted":
        raise ToolError("The sub-agent was interrupted by the user.")
    sidechain = [{**m, "isSidechain": True, "agentId": report.agent_id} for m in report.messages]
    return ToolResult(report.final_text or "(the sub-agent finished without a report)",
                      new_messages=sidechain)


TOOL = build_tool(
    name="Agent",
    aliases=("Task",),
    description=load_prompt(__file__),
    input_model=AgentInput,
    call=call,
    check_permissions=no_prompt_needed("each of a sub-agent's tool calls is checked on its own"),
    is_concurrency_safe=lambda inp: parallel_agents_enabled(),
    key_argument=lambda inp: inp.description,
    max_result_size_chars=100_000,
)
