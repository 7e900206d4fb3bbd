"""What a turn is given: the request's parameters (model, system prompt, tool list, limits,
the compaction threshold) and the tools' context (permissions, caches, the session's
spawners and prompters). Built afresh for each turn from the session's state."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from claude_harness.agent.api_history import ApiHistory
from claude_harness.agent.loop import QueryParams
from claude_harness.agent.side_query import side_query
from claude_harness.api.models import resolve_alias
from claude_harness.api.pricing import context_window_for
from claude_harness.protocol.context import (
    AbortSignal,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.state import SessionState

if TYPE_CHECKING:
    from claude_harness.api.client import ApiClient
    from claude_harness.session.agent_spawner import AgentSpawner
    from claude_harness.session.prompt.path_rules import PathRules
    from claude_harness.session.services.prompter import Prompter
    from claude_harness.session.turn_services import TurnServices

AUTO_COMPACT_FRACTION = 0.85


@dataclass(frozen=True)
class TurnInputs:
    config: SessionConfig
    state: SessionState
    api: ApiClient
    api_history: ApiHistory  # the history in API form, kept from turn to turn
    system: list[dict[str, Any]]
    listing: dict[str, Any] | None  # the catalog's listing for the model, fixed for the session
    shell: ShellState
    prompter: Prompter
    path_rules: PathRules | None
    services: TurnServices
    agents: AgentSpawner

    def compact_threshold(self, model: str) -> int | None:
        """Context tokens past which the history is compacted (None: never automatically)."""
        config = self.config
        if not config.auto_compact:
            return None
        fraction = config.compact_fraction or AUTO_COMPACT_FRACTION
        return config.compact_threshold_tokens or int(context_window_for(model) * fraction)

    def params(self, model: str | None = None) -> QueryParams:
        """The request parameters; `model` for this turn only (a command's `model`)."""
        config, state = self.config, self.state
        model = resolve_alias(model) if model else state.model
        budget = config.max_budget_usd
        return QueryParams(model, self.system, state.tool_schemas,
                           max_tokens=config.max_tokens, max_turns=config.max_turns,
                           compact_threshold=self.compact_threshold(model),
                           context_tokens=state.totals.last_context_tokens,
                           settings=state.request_settings,
                           stream_events=config.stream_events,
                           budget_usd=None if budget is None else budget - state.totals.cost_usd,
                           fallback_model=config.fallback_model,
                           api_history=self.api_history, context_message=self.listing,
                           between_batches=self.services.between_batches)

    def context(self, abort: AbortSignal) -> ToolUseContext:
        """The tools' context for a turn that `abort` stops."""
        config, state = self.config, self.state
        transcript = state.transcript
        session_dir = (transcript.path.parent / state.session_id) if transcript else None
        return ToolUseContext(
            options=ToolUseOptions(tools=config.tools, model=state.model,
                                   debug=config.debug, verbose=config.verbose,
                                   session_dir=session_dir, api=self.api,
                                   max_tokens=config.max_tokens,
                                   request_settings=state.request_settings,
                                   loaded_deferred=state.loaded_deferred,
                                   skill_shell_disabled=config.skill_shell_disabled),
            permission=state.permission,
            abort=abort,
            messages=tuple(state.messages),  # the auto-mode classifier reads the user's words
            read_file_state=state.read_file_state,
            content_replacement=state.content_replacement,
            shell=self.shell,
            hooks=config.hooks,
            rendered_system_prompt=config.system_prompt,
            session_id=state.session_id,
            transcript_path=state.transcript_path,
            prompter=self.prompter,
            spawn_agent=self.agents.spawn,
            side_query=partial(side_query, self.api),
            debug_log=(session_dir / "debug.log") if (config.debug and session_dir) else None,
            file_reminders=self.path_rules.for_files if self.path_rules is not None else None,
            spawn_background=self.agents.spawn_background,
            memory_files=config.memory_files,
            checkpoints=self.services.checkpoints.service,
            questions=self.services.questions,
        )
