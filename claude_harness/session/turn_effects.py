"""What the events of a turn change in the session: the transcript (through the result
journal, and a compaction's boundary), the totals, the permission mode an approved plan or
EnterPlanMode set, the deferred tools ToolSearch loaded, the todo list. The event itself is
passed on to the front ends as it is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from claude_harness.protocol.events import (
    AgentEvent,
    AssistantMessage,
    Compaction,
    DeferredToolsLoaded,
    DenialRecorded,
    HookRan,
    ModeChanged,
    SessionEvent,
    SideUsage,
    TodosChanged,
    ToolResultEvent,
    Usage,
    UserMessage,
)
from claude_harness.session.state import SessionState

if TYPE_CHECKING:
    from claude_harness.session.prompt.path_rules import PathRules
    from claude_harness.session.turn_services import TurnServices


@dataclass(frozen=True)
class TurnEffects:
    state: SessionState
    path_rules: PathRules | None
    services: TurnServices
    emit: Callable[[SessionEvent], None]

    def apply(self, event: AgentEvent) -> None:
        """What a turn's event changes in the session (it is passed on as it is)."""
        state = self.state
        if state.journal is not None:
            state.journal.record(event)
        self.services.applied(event)
        match event:
            case AssistantMessage() | UserMessage():
                pass  # written by the journal
            case Compaction():  # its SessionStart (source compact) ran in the loop
                if self.path_rules is not None:
                    self.path_rules.forget()
                if state.transcript is not None:
                    state.transcript.append_system("compact_boundary", compactMetadata={
                        "trigger": event.trigger, "preTokens": event.pre_tokens})
                    for message in event.messages:
                        state.transcript.append_message(message)
                state.totals.last_context_tokens = 0
                self.emit(state.totals.event(state.model))
            case Usage() | SideUsage():  # side requests cost, but hold no context
                state.totals.add(event)
                self.emit(state.totals.event(state.model))
            case ModeChanged(mode=mode):  # EnterPlanMode, an approved plan
                state.permission = replace(state.permission, mode=mode)  # type: ignore[arg-type]
                state.reminders.announced_mode = mode  # the tool result told the model
            case DeferredToolsLoaded(names=names):
                state.loaded_deferred = names
            case ToolResultEvent(name="TodoWrite", data=dict() as data):
                self.emit(TodosChanged(tuple(data.get("todos") or ())))
            case DenialRecorded() | HookRan():
                pass  # reported as they are
