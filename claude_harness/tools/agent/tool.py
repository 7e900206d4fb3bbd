"""Agent: run a sub-agent and hand its final report back as the tool result.

This tool only describes the child: its kind (the general agent, Explore, Plan, or a custom one
from `.claude/agents`, a plugin or `--agents`), its tools (the parent's minus Agent, filtered by
the kind's `tools` and `disallowedTools`), its model (the call's, else the kind's, else the
parent's) and what the kind's definition asks for (allow rules, mode, turn limit, hooks,
colour). The session's spawner (`ctx.spawn_agent`, `agent/subagent.py`) decides what a
definition may set and runs the child's loop, so no tool imports the loop. The child's
permission prompts reach the user the same way the parent's do. Its messages come back as
`new_messages`, marked as a sidechain: kept in the transcript and shown by front ends, never
sent to the API as the parent's history.

`run_in_background`: the child starts and the call returns at once; the session tells the
model the child's report when it is done (`ctx.spawn_background`). `Agent(Explore)` rules match
the call's `subagent_type` (general-purpose when none is given).
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
from claude_harness.tools.agent.definitions import (
    GENERAL_PURPOSE,
    AgentDefinition,
    agent_definitions,
    find_agent,
)
from claude_harness.tools.agent.presentation import PRESENTATION


class AgentInput(ToolInput):
    description: str = Field(description="A short (3-5 word) description of the task")
    prompt: str = Field(description="The complete task for the sub-agent")
    subagent_type: str | None = Field(None, description="The kind of agent to use")
    model: str | None = Field(None, description="sonnet, opus, haiku or a model id")
    run_in_background: bool | None = Field(
        None, description="Run the agent in the background; you are told its result when it "
                          "finishes, and may go on with other work meanwhile")


def parallel_agents_enabled() -> bool:
    """Agents run one at a time unless the user opts in (settings `parallelAgents`)."""
    return os.environ.get("CLAUDE_HARNESS_PARALLEL_AGENTS", "") in ("1", "true")


async def call(inp: AgentInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    project = ctx.permission.cwd  # the catalog is the project's, wherever the shell went
    definition = find_agent(inp.subagent_type, project) if inp.subagent_type else GENERAL_PURPOSE
    if definition is None:
        known = ", ".join(d.name for d in agent_definitions(project))
        raise ToolError(f"Unknown subagent_type {inp.subagent_type!r}. Available: {known}")
    if ctx.spawn_agent is None or ctx.options.api is None:
        raise ToolError("Sub-agents need the model API, which is not available here.")
    spec = _spec(inp, definition, ctx)
    if inp.run_in_background:
        if ctx.spawn_background is None:
            raise ToolError("Background agents are not available here; run it in the "
                            "foreground (run_in_background: false).")
        started = ctx.spawn_background(spec, ctx)
        return ToolResult(launched_text(started.agent_id, started.output_file))
    report = await ctx.spawn_agent(spec, ctx, progress)
    if report.end_reason == "error":
        raise ToolError(f"The sub-agent failed: {report.error}")
    if report.end_reason == "aborted":
        raise ToolError("The sub-agent was interrupted by the user.")
    sidechain = [{**m, "isSidechain": True, "agentId": report.agent_id} for m in report.messages]
    return ToolResult(report.final_text or "(the sub-agent finished without a report)",
                      new_messages=sidechain)


def _spec(inp: AgentInput, definition: AgentDefinition, ctx: ToolUseContext) -> SubAgentSpec:
    """The child as its definition writes it (the session decides what it may set)."""
    tools = tuple(t for t in ctx.options.tools
                  if t.name != "Agent" and definition.allows_tool(t.name))
    model = subagent_model(inp.model or definition.model, ctx.options.model)
    return SubAgentSpec(inp.prompt, definition.system_prompt, tools, model, definition.name,
                        allow_rules=definition.tool_rules,
                        permission_mode=definition.permission_mode,
                        max_turns=definition.max_turns, hooks=definition.hooks,
                        scope=definition.scope, definition_path=definition.path,
                        color=definition.color, description=inp.description)


def launched_text(agent_id: str, output_file: str) -> str:
    """The tool result of a background start: the model must wait for the notification."""
    where = f"\nIts transcript is written to {output_file} (long JSONL: do not read it " \
            "into the conversation)." if output_file else ""
    return (f"The agent is now working in the background (agentId: {agent_id}). You will be "
            "told its result in a task-notification when it finishes; until then you know "
            "nothing of it, so do not guess or report its findings. Go on with other work, or "
            f"answer the user, meanwhile.{where}")


TOOL = build_tool(
    name="Agent",
    needs_conversation=True,
    presentation=PRESENTATION,
    aliases=("Task",),
    description=load_prompt(__file__),
    input_model=AgentInput,
    call=call,
    check_permissions=no_prompt_needed("each of a sub-agent's tool calls is checked on its own"),
    permission_subject=lambda inp: inp.subagent_type or GENERAL_PURPOSE.name,
    is_concurrency_safe=lambda inp: parallel_agents_enabled(),
    key_argument=lambda inp: inp.description,
    max_result_size_chars=100_000,
)
