"""Agent: run a sub-agent's own query loop and hand its final report back as the tool result.

The child gets a context from `create_subagent_context()` (its own read-file cache and budget
state, fresh denial tracking, the parent's abort signal), the parent's tools minus Agent, and
its own system prompt (a custom agent's body, or the general one). Its permission prompts bubble
up to the parent's front end: the child's pipeline emits PermissionRequest events, which this
tool relays as they are. Its messages come back as `new_messages`, marked as a sidechain: kept
in the transcript and shown by front ends, never sent to the API as the parent's history.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import replace
from typing import Any

from pydantic import Field

from claude_harness.agent.context import ToolUseContext, create_subagent_context
from claude_harness.agent.events import (
    AssistantMessage,
    PermissionRequest,
    TextDelta,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
    UserMessage,
)
from claude_harness.agent.messages import final_text, user_text
from claude_harness.agent.prompt import environment_section
from claude_harness.api.models import subagent_model
from claude_harness.tools.agent.definitions import GENERAL_PURPOSE, agent_definitions, find_agent
from claude_harness.tools.base import (
    ToolError,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
    no_prompt_needed,
)

_ids = itertools.count(1)


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


def _summary(event: Any) -> dict[str, Any] | None:
    """What the parent's UI shows of the child's work, nested under the Agent call."""
    if isinstance(event, ToolStart):
        return {"agent_step": "tool", "name": event.name, "key": event.key_argument}
    if isinstance(event, ToolResultEvent):
        return {"agent_step": "result", "name": event.name, "is_error": event.is_error}
    if isinstance(event, TurnEnd):
        return {"agent_step": "end", "reason": event.reason}
    return None


async def call(inp: AgentInput, ctx: ToolUseContext, progress: Any) -> ToolResult:
    from claude_harness.agent.loop import QueryParams, query

    definition = find_agent(inp.subagent_type, ctx.cwd) if inp.subagent_type else GENERAL_PURPOSE
    if definition is None:
        known = ", ".join(d.name for d in agent_definitions(ctx.cwd))
        raise ToolError(f"Unknown subagent_type {inp.subagent_type!r}. Available: {known}")
    api = ctx.options.api
    if api is None:
        raise ToolError("Sub-agents need the model API, which is not available here.")
    tools = tuple(t for t in ctx.options.tools if t.name != "Agent"
                  and (definition.tools is None or t.name in definition.tools))
    model = subagent_model(inp.model or definition.model, ctx.options.model)
    child = create_subagent_context(ctx, agent_id=f"agent-{next(_ids)}")
    child = replace(child, options=replace(ctx.options, tools=tools, model=model))
    system = definition.system_prompt + "\n\n" + environment_section(ctx.cwd, model)
    params = QueryParams(model, [{"type": "text", "text": system}],
                         [t.api_schema() for t in tools], max_tokens=ctx.options.max_tokens)
    messages: list[dict[str, Any]] = [user_text(inp.prompt)]
    end: TurnEnd | None = None
    async for event in query(messages, params, child, api):
        if isinstance(event, PermissionRequest):
            progress(event)
        elif isinstance(event, TurnEnd):
            end = event
        if (summary := _summary(event)) is not None:
            progress(summary)
        elif isinstance(event, (TextDelta, AssistantMessage, UserMessage)):
            continue
    ctx.denials.extend(child.denials)  # -p reports every refused call, a sub-agent's too
    report = next((final_text(m) for m in reversed(messages) if m["role"] == "assistant"
                   and final_text(m).strip()), "")
    if end is not None and end.reason == "error":
        raise ToolError(f"The sub-agent failed: {end.error}")
    if end is not None and end.reason == "aborted":
        raise ToolError("The sub-agent was interrupted by the user.")
    sidechain = [{**m, "isSidechain": True, "agentId": child.agent_id} for m in messages]
    return ToolResult(report or "(the sub-agent finished without a report)",
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
