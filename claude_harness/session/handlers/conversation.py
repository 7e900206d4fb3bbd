"""/compact, /clear, /resume and `!cmd`: the jobs that change the conversation itself. Each runs
as the session's one job; the work is the session's (it owns the history)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from claude_harness.protocol import ops
from claude_harness.session.handlers.services import StartsJobs


class ConversationServices(StartsJobs, Protocol):
    def compact(self, instructions: str) -> Awaitable[None]: ...
    def clear(self) -> Awaitable[None]: ...
    def resume(self, session_id: str) -> Awaitable[None]: ...
    def shell(self, command: str) -> Awaitable[None]: ...


def compact(services: ConversationServices, op: ops.Compact) -> None:
    services.start_job(lambda: services.compact(op.instructions), "Compacting", "/compact")


def clear(services: ConversationServices, _op: ops.Clear) -> None:
    services.start_job(services.clear, "Clearing", "/clear")


def resume(services: ConversationServices, op: ops.Resume) -> None:
    services.start_job(lambda: services.resume(op.session_id), "Resuming", "/resume")


def shell(services: ConversationServices, op: ops.ShellCommand) -> None:
    services.start_job(lambda: services.shell(op.command), f"Running !{op.command[:40]}",
                       "!cmd")


HANDLERS: dict[type[ops.Op], Callable[[ConversationServices, Any], None]] = {
    ops.Compact: compact, ops.Clear: clear, ops.Resume: resume, ops.ShellCommand: shell}
