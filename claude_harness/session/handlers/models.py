"""/model, /effort and thinking: the model the turns use and what its requests ask for."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.api.models import resolve_alias
from claude_harness.protocol import ops
from claude_harness.protocol.events import ModelChanged, Notice
from claude_harness.session.handlers.services import Emits
from claude_harness.session.services.model_menu import models_listing
from claude_harness.session.services.request_controls import set_effort, toggle_thinking

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.session.services.model_policy import ModelPolicy


class ModelServices(Emits, Protocol):
    model: str
    request_settings: RequestSettings

    @property
    def model_policy(self) -> ModelPolicy | None: ...
    def emit_totals(self) -> None: ...
    def emit_controls(self) -> None: ...


def list_models(services: ModelServices, _op: ops.ListModels) -> None:
    services.emit(models_listing(services.model, services.request_settings.effort))


def set_model(services: ModelServices, op: ops.SetModel) -> None:
    wanted = op.model.strip()
    policy = services.model_policy  # availableModels (session/services/model_policy.py)
    refused = policy.refusal(wanted) if policy is not None else None
    if refused is not None:
        services.emit(Notice(f'Model "{wanted}" is restricted by your '
                             f"organization's settings ({refused}).", "warning"))
        return
    services.model = resolve_alias(wanted)
    services.emit(ModelChanged(services.model))
    services.emit_totals()  # the context share depends on the model's window
    services.emit_controls()  # so does the effort level actually sent


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


HANDLERS: dict[type[ops.Op], Callable[[ModelServices, Any], None]] = {
    ops.ListModels: list_models, ops.SetModel: set_model, ops.SetEffort: effort,
    ops.ToggleThinking: thinking}
