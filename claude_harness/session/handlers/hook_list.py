"""/hooks: the configured hooks by event and matcher, with each one's command and source file,
for the front ends' read-only panel (Claude Code 2.1 shows them read-only too: hooks are
changed by editing settings.json)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from claude_harness.hooks.events import HOOK_EVENTS
from claude_harness.protocol.panels import HookRow, HooksListed, ListHooks
from claude_harness.session.handlers.services import Emits


class HookListServices(Emits, Protocol):
    @property
    def session_config(self) -> Any: ...


def list_hooks(services: HookListServices, _op: ListHooks) -> None:
    runner = services.session_config.hooks
    config = getattr(runner, "config", None)
    lines = runner.describe() if runner is not None else []
    rows = tuple(HookRow(line.event, line.matcher, line.command, line.source, line.note)
                 for line in lines)
    services.emit(HooksListed(HOOK_EVENTS, rows, bool(getattr(config, "disabled", False))))


HANDLERS: dict[type[Any], Callable[[HookListServices, Any], None]] = {ListHooks: list_hooks}
