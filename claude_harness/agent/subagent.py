"""run_subagent(): the session's AgentSpawner, the one place a sub-agent's loop is started.

The Agent tool (tools layer) describes the child (prompt, system prompt, tools, model, and what
its definition asks: allow rules, mode, turn limit, hooks) and calls `ctx.spawn_agent`; the
session decides which of those a definition may set (see session/services/agents.py) and this runs the
child's own `query()` under a context from `create_subagent_context()`. What the parent's UI
shows of the child goes out as AgentStep progress under the Agent call; what the session must
know (a permission prompt, a denied call) goes to the session's event sink as it is, the same
events the main loop reports.

Around the child's loop: SubagentStart hooks (their context joins the child's prompt), the
child's transcript written as it works (`<session>/subagents/<agent id>.jsonl`, the
`agent_transcript_path` of SubagentStop hooks and a background agent's output file), and the
child's own `hooks` added to the runner while it runs.

The child never has more than its parent (agent/subagent_limits.py): the definition's mode and
pre-approvals are cut to the parent's limits here, whoever built the setup.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from claude_harness.agent.loop import QueryParams, query
from claude_harness.agent.messages import final_text, user_text
from claude_harness.agent.prompt import environment_section
from claude_harness.agent.subagent_limits import limit_setup, parent_tools
from claude_harness.protocol.context import (
    HookCaller,
    SubAgentReport,
    SubAgentSpec,
    ToolUseContext,
    create_subagent_context,
)
from claude_harness.protocol.events import (
    AgentEvent,
    AssistantMessage,
    DenialRecorded,
    HookRan,
    Notice,
    PermissionRequest,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
    UserMessage,
)
from claude_harness.protocol.permission_data import PermissionRule
from claude_harness.protocol.progress import AgentStep, ProgressData

_ids = itertools.count(1)
PASSED_TO_SESSION = (PermissionRequest, DenialRecorded, HookRan, Notice)


@dataclass(frozen=True)
class ChildSetup:
    """What the session lets this child have beyond the spec's prompt, tools and model."""

    allow_rules: tuple[PermissionRule, ...] = ()
    permission_mode: str | None = None
    hooks: HookCaller | None = None  # the child's: the session's, plus the agent's own
    background: bool = False


def new_agent_id() -> str:
    return f"agent-{next(_ids)}"


def _step(agent_id: str, event: AgentEvent, spec: SubAgentSpec) -> AgentStep | None:
    """What the parent's UI shows of the child's work, nested under the Agent call."""
    if isinstance(event, ToolStart):
        step = AgentStep("tool", agent_id, event.name, event.key_argument)
    elif isinstance(event, ToolResultEvent):
        step = AgentStep("result", agent_id, event.name, is_error=event.is_error)
    elif isinstance(event, TurnEnd):
        step = AgentStep("end", agent_id, reason=event.reason)
    else:
        return None
    return replace(step, agent_type=spec.agent_type, color=spec.color)


def transcript_path(parent: ToolUseContext, agent_id: str) -> Path | None:
    """Where the child's messages are written, beside the session's own files."""
    folder = parent.options.session_dir
    return folder / "subagents" / f"{agent_id}.jsonl" if folder is not None else None


class _Transcript:
    """The child's messages, one JSON line each, appended as they happen."""

    def __init__(self, path: Path | None, agent_id: str, agent_type: str) -> None:
        self.path = path
        self.fields = {"agentId": agent_id, "agentType": agent_type, "isSidechain": True}
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("", encoding="utf-8")
            except OSError:
                self.path = None

    def add(self, message: dict[str, Any]) -> None:
        if self.path is None:
            return
        line = json.dumps({**self.fields, "type": message.get("role"), "message": message},
                          ensure_ascii=False, default=str)
        try:
            with self.path.open("a", encoding="utf-8") as out:
                out.write(line + "\n")
        except OSError:
            self.path = None  # a full disk must not stop the agent


async def run_subagent(spec: SubAgentSpec, parent: ToolUseContext,
                       progress: Callable[[ProgressData], None], *,
                       to_session: Callable[[AgentEvent], None],
                       setup: ChildSetup | None = None,
                       agent_id: str | None = None) -> SubAgentReport:
    """Run the child to the end of its turn; `to_session` receives its prompts, denials and
    hook reports."""
    setup, notes = limit_setup(setup or ChildSetup(hooks=parent.hooks), parent.permission,
                               spec.agent_type)
    for note in notes:
        to_session(Notice(note, "warning"))
    spec = replace(spec, tools=parent_tools(spec.tools, parent.permission))
    agent_id = agent_id or new_agent_id()
    log = _Transcript(transcript_path(parent, agent_id), agent_id, spec.agent_type)
    child = _child_context(spec, parent, setup, agent_id, log.path)
    system = spec.system_prompt + "\n\n" + environment_section(parent.cwd, spec.model)
    params = QueryParams(spec.model, [{"type": "text", "text": system}],
                         [t.api_schema() for t in spec.tools],
                         max_tokens=parent.options.max_tokens, max_turns=spec.max_turns,
                         settings=parent.options.request_settings)
    first = user_text(spec.prompt)
    first["content"] += await _start_hooks(child, agent_id, spec.agent_type, to_session)
    messages: list[dict[str, Any]] = [first]
    log.add(first)
    end: TurnEnd | None = None
    async for event in query(messages, params, child, parent.options.api):
        if isinstance(event, PASSED_TO_SESSION):
            to_session(event)
        elif isinstance(event, TurnEnd):
            end = event
        elif isinstance(event, AssistantMessage | UserMessage):
            log.add(event.message)
        if (step := _step(agent_id, event, spec)) is not None:
            progress(step)
    report = next((final_text(m) for m in reversed(messages) if m["role"] == "assistant"
                   and final_text(m).strip()), "")
    return SubAgentReport(agent_id, tuple(messages), end.reason if end else "error",
                          end.error if end else "the sub-agent stopped without an end", report,
                          transcript_path=str(log.path) if log.path else "")


def _child_context(spec: SubAgentSpec, parent: ToolUseContext, setup: ChildSetup,
                   agent_id: str, log_path: Path | None) -> ToolUseContext:
    child = create_subagent_context(parent, agent_id=agent_id, is_async=setup.background)
    permission = child.permission
    if setup.allow_rules:
        permission = replace(permission, rules=(*permission.rules, *setup.allow_rules))
    if setup.permission_mode is not None:
        permission = replace(permission, mode=setup.permission_mode)  # type: ignore[arg-type]
    return replace(child, permission=permission, hooks=setup.hooks, agent_type=spec.agent_type,
                   transcript_path=str(log_path) if log_path else "",
                   options=replace(parent.options, tools=spec.tools, model=spec.model))


async def _start_hooks(child: ToolUseContext, agent_id: str, agent_type: str,
                       to_session: Callable[[AgentEvent], None]) -> list[dict[str, Any]]:
    """SubagentStart hooks; the context they add goes into the child's first message."""
    hooks = child.hooks
    if hooks is None or not hooks.has_hooks("SubagentStart"):
        return []
    outcome = await hooks.run("SubagentStart", {"agent_id": agent_id, "agent_type": agent_type,
                                                "cwd": str(child.cwd)})
    if outcome.ran:
        to_session(HookRan(outcome.event, outcome))
    for message in outcome.errors:
        to_session(Notice(message, "warning"))
    return [{"type": "text", "text": f"<system-reminder>\n{c}\n</system-reminder>"}
            for c in outcome.additional_context if c.strip()]
