"""/model, /effort and thinking: the model the turns use and what its requests ask for.

A switch fires PreModelSwitch first (Claude Code's payload: from_model, to_model,
requested_model, source, context_tokens and the estimated re-cache cost); exit 2 or a
`permissionDecision` of deny keeps the current model and says why; "ask" keeps it too, as
Claude Code does in a session that cannot ask ("confirmation required, and this session cannot
ask": no confirmation is shown here). After the change PostModelSwitch fires; what it says for
the model is told with the next prompt. Neither fires when the model stays the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.api.models import family_of, resolve_alias, spec_for
from claude_harness.hooks.events import POST_MODEL_SWITCH, PRE_MODEL_SWITCH
from claude_harness.protocol import ops
from claude_harness.protocol.events import HookRan, ModelChanged, Notice
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.model_menu import models_listing
from claude_harness.session.services.request_controls import set_effort, toggle_thinking

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.hooks.outcome import HookOutcome
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.session.prompt.prompt_extras import Reminders
    from claude_harness.session.services.model_policy import ModelPolicy
    from claude_harness.session.services.totals import Totals


class ModelServices(Emits, Protocol):
    model: str
    request_settings: RequestSettings

    @property
    def model_policy(self) -> ModelPolicy | None: ...
    @property
    def hooks(self) -> HookRunner | None: ...
    @property
    def totals(self) -> Totals: ...
    @property
    def reminders(self) -> Reminders: ...
    def emit_totals(self) -> None: ...
    def emit_controls(self) -> None: ...


def list_models(services: ModelServices, _op: ops.ListModels) -> None:
    services.emit(models_listing(services.model, services.request_settings.effort))


def set_model(services: ModelServices, op: ops.SetModel) -> Awaitable[None] | None:
    """Switch now, or (with model-switch hooks) return the switch to await."""
    wanted = op.model.strip()
    policy = services.model_policy  # availableModels (session/services/model_policy.py)
    refused = policy.refusal(wanted) if policy is not None else None
    if refused is not None:
        services.emit(Notice(f'Model "{wanted}" is restricted by your '
                             f"organization's settings ({refused}).", "warning"))
        return None
    hooks = services.hooks
    if hooks is not None and (hooks.has_hooks(PRE_MODEL_SWITCH)
                              or hooks.has_hooks(POST_MODEL_SWITCH)):
        return _switch_with_hooks(services, hooks, wanted, op.source)
    _switch(services, resolve_alias(wanted))
    return None


def _switch(services: ModelServices, model: str) -> None:
    services.model = model
    services.emit(ModelChanged(services.model))
    services.emit_totals()  # the context share depends on the model's window
    services.emit_controls()  # so does the effort level actually sent


def switch_payload(services: ModelServices, to_model: str, requested: str | None,
                   source: str) -> dict[str, object]:
    """Claude Code's model-switch fields: context_tokens is the last response's whole window
    (0 before the first), and the re-cache estimate prices it at to_model's cache-write rate."""
    tokens = services.totals.last_context_tokens
    return {"from_model": services.model, "to_model": to_model, "requested_model": requested,
            "source": source, "context_tokens": tokens, "prompt_cache_warm": tokens > 0,
            "cache_ttl": "5m",
            "estimated_cache_write_usd": tokens * spec_for(to_model).price.cache_write / 1e6,
            "pricing": "catalog" if family_of(to_model) is not None else "default"}


def _shown(services: ModelServices, outcome: HookOutcome) -> None:
    if outcome.ran:
        services.emit(HookRan(outcome.event, outcome))
    for message in outcome.system_messages:
        services.emit(Notice(message))
    for error in outcome.errors:
        services.emit(Notice(error, "warning"))


async def _switch_with_hooks(services: ModelServices, hooks: HookRunner, wanted: str,
                             source: str) -> None:
    """As Claude Code: no hook runs when the model stays the same; a refusal is told in its
    words ("Model switch blocked by a PreModelSwitch hook: ...")."""
    to_model = resolve_alias(wanted)
    if to_model == services.model:
        _switch(services, to_model)
        return
    requested = None if wanted in ("", "default") else wanted
    payload = switch_payload(services, to_model, requested, source)
    before = await hooks.run(PRE_MODEL_SWITCH, payload)
    _shown(services, before)
    decision = before.permission_decision
    if before.blocked or (decision is not None and decision.behavior != "allow"):
        why = before.block_reason or (decision.reason if decision is not None else "")
        if not why and decision is not None and decision.behavior == "ask":
            why = "confirmation required, and this session cannot ask"
        services.emit(Notice("Model switch blocked by a PreModelSwitch hook"
                             + (f": {why}" if why else ""), "warning"))
        return
    _switch(services, to_model)
    after = await hooks.run(POST_MODEL_SWITCH, payload)
    _shown(services, after)
    for context in after.additional_context:
        if context.strip():
            services.reminders.note(context)


def effort(services: ModelServices, op: ops.SetEffort) -> None:
    services.request_settings, notice = set_effort(services.request_settings, services.model,
                                                   op.level)
    services.emit(notice)
    services.emit_controls()


def thinking(services: ModelServices, _op: ops.ToggleThinking) -> None:
    services.request_settings, notice = toggle_thinking(services.request_settings,
                                                        services.model)
    services.emit(notice)
    services.emit_controls()


HANDLERS: dict[type[ops.Op], Callable[[ModelServices, Any], Awaitable[None] | None]] = {
    ops.ListModels: list_models, ops.SetModel: set_model, ops.SetEffort: effort,
    ops.ToggleThinking: thinking}
