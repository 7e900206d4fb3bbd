"""/context: what fills the context window, measured from what the next request would send."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.api.pricing import context_window_for
from claude_harness.config.memory import load_memory
from claude_harness.protocol import ops
from claude_harness.protocol.events import ContextMeasured
from claude_harness.session.handlers.services import Emits

if TYPE_CHECKING:
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.services.totals import Totals


class ContextServices(Emits, Protocol):
    @property
    def model(self) -> str: ...
    @property
    def cwd(self) -> Path: ...
    @property
    def system_prompt(self) -> str: ...
    @property
    def permission(self) -> PermissionContext: ...
    @property
    def trusted(self) -> bool: ...
    @property
    def memory_files(self) -> tuple[Path, ...]: ...
    @property
    def tool_schemas(self) -> list[dict[str, Any]]: ...
    @property
    def messages(self) -> list[dict[str, Any]]: ...
    @property
    def totals(self) -> Totals: ...
    def compact_threshold(self) -> int | None: ...


def measure(services: ContextServices, _op: ops.MeasureContext) -> None:
    from claude_harness.session.services.context_usage import measure_context  # /context only

    model = services.model
    services.emit(ContextMeasured(measure_context(
        model=model, window=context_window_for(model), system_prompt=services.system_prompt,
        memory_text=load_memory(services.cwd, permission=services.permission,
                                trusted=services.trusted).text,
        memory_files=services.memory_files, tools=services.tool_schemas,
        messages=services.messages,
        measured_total=services.totals.last_context_tokens or None,
        auto_compact_threshold=services.compact_threshold())))


HANDLERS: dict[type[ops.Op], Callable[[ContextServices, Any], None]] = {
    ops.MeasureContext: measure}
