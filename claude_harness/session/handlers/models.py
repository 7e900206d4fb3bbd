"""/model without a name: the table of models to choose from, with the current effort."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.session.handlers.services import Emits
from claude_harness.session.model_menu import models_listing

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings


class ModelServices(Emits, Protocol):
    @property
    def model(self) -> str: ...
    @property
    def request_settings(self) -> RequestSettings: ...


def list_models(services: ModelServices, _op: ops.ListModels) -> None:
    services.emit(models_listing(services.model, services.request_settings.effort))


HANDLERS: dict[type[ops.Op], Callable[[ModelServices, Any], None]] = {
    ops.ListModels: list_models}
