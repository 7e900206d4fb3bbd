"""An SDK program's hook callbacks: registered beside the command hooks, answered by id."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice
from claude_harness.session.handlers.services import Emits

if TYPE_CHECKING:
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.session.services.hook_callbacks import HookCallbacks


class HookServices(Emits, Protocol):
    @property
    def hook_callbacks(self) -> HookCallbacks: ...
    def hook_runner(self) -> HookRunner:
        """The session's hook runner (made, with no command hooks, when there is none)."""
        ...


def register(services: HookServices, op: ops.RegisterHookCallbacks) -> None:
    for problem in services.hook_callbacks.register(services.hook_runner(), op.matchers):
        services.emit(Notice(problem, "warning"))


def answer(services: HookServices, op: ops.AnswerHookCallback) -> None:
    services.hook_callbacks.answer(op.request_id, op.output, op.error)


HANDLERS: dict[type[ops.Op], Callable[[HookServices, Any], None]] = {
    ops.RegisterHookCallbacks: register, ops.AnswerHookCallback: answer}
