"""run_subagent(): the session's AgentSpawner, the one place a sub-agent's loop is started.

The Agent tool (tools layer) describes the child (prompt, system prompt, tools, model) and calls
`ctx.spawn_agent`; this runs the child's own `query()` under a context from
`create_subagent_context()`. What the parent's UI shows of the child goes out as AgentStep
progress under the Agent call; what the session must know (a permission prompt, a denied call)
goes to the session's event sink as it is, the same events the main loop reports.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from claude_harness.agent.loop import QueryParams, query
from claude_harness.agent.messages import final_text, user_text
from claude_harness.agent.prompt import environment_section
from claude_harness.protocol.context import (
    SubAgentReport,
    SubAgentSpec,
    ToolUseContext,
    create_subagent_context,
)
from claude_harness.protocol.events import (
    AgentEvent,
    DenialRecorded,
    PermissionRequest,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
)
from claude_harness.protocol.progress import AgentStep, ProgressData

_ids = itertools.count(1)
PASSED_TO_SESSION = (PermissionRequest, DenialRecorded)


def _step(agent_id: str, event: AgentEvent) -> AgentStep | None:
    """What the parent's UI shows of the child's work, nested under the Agent call."""
    if isinstance(event, ToolStart):
        return AgentStep("tool", agent_id, event.name, event.key_argument)
    if isinstance(event, ToolResultEvent):
        return AgentStep("result", agent_id, event.name, is_error=event.is_error)
    if isinstance(event, TurnEnd):
        return AgentStep("end", agent_id, reason=event.reason)
    return None


async def run_subagent(spec: SubAgentSpec, parent: ToolUseContext,
                       progress: Callable[[ProgressData], None], *,
                       to_session: Callable[[AgentEvent], None]) -> SubAgentReport:
    """Run the child to the end of its turn; `to_session` receives its prompts and denials."""
    agent_id = f"agent-{next(_ids)}"
    child = create_subagent_context(parent, agent_id=agent_id)
    child = replace(child, options=replace(parent.options, tools=spec.tools, model=spec.model))
    system = spec.system_prompt + "\n\n" + environment_section(parent.cwd, spec.model)
    params = QueryParams(spec.model, [{"type": "text", "text": system}],
                         [t.api_schema() for t in spec.tools],
                         max_tokens=parent.options.max_tokens,
                         settings=parent.options.request_settings)
    messages: list[dict[str, Any]] = [user_text(spec.prompt)]
    end: TurnEnd | None = None
    async for event in query(messages, params, child, parent.options.api):
        if isinstance(event, PASSED_TO_SESSION):
            to_session(event)
        elif isinstance(event, TurnEnd):
            end = event
        if (step := _step(agent_id, event)) is not None:
            progress(step)
    report = next((final_text(m) for m in reversed(messages) if m["role"] == "assistant"
                   and final_text(m).strip()), "")
    return SubAgentReport(agent_id, tuple(messages), end.reason if end else "error",
                          end.error if end else "the sub-agent stopped without an end", report)
