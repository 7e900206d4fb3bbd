"""Esc Esc and /rewind: list the prompts, plan a rewind, and rewind (files, conversation or
both) as a job, reporting progress."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, RewindProgress, Rewound
from claude_harness.session.checkpointing.rewind import RewindUnavailable
from claude_harness.session.handlers.services import Emits, StartsJobs

if TYPE_CHECKING:
    from claude_harness.protocol.context import FileStateCache
    from claude_harness.session.checkpointing.rewind import SessionCheckpoints
    from claude_harness.session.store.transcript import Transcript

PROGRESS_STEP = 25  # a RewindProgress event every so many files (and at the end of a phase)


class RewindServices(Emits, StartsJobs, Protocol):
    @property
    def checkpoints(self) -> SessionCheckpoints: ...
    @property
    def transcript(self) -> Transcript | None: ...
    @property
    def read_file_state(self) -> FileStateCache: ...
    def continue_in_fork(self, ending_before: str | None, reason: str) -> str: ...


def list_points(services: RewindServices, _op: ops.ListRewindPoints) -> None:
    services.emit(services.checkpoints.points())


def plan(services: RewindServices, op: ops.PlanRewind) -> None:
    services.emit(services.checkpoints.plan(op.prompt_id))


def rewind(services: RewindServices, op: ops.Rewind) -> None:
    services.start_job(lambda: _rewind(services, op), "Rewinding", "/rewind")


async def _rewind(services: RewindServices, op: ops.Rewind) -> None:
    from claude_harness.session.checkpointing.checkpoints import (
        CheckpointError,  # a rewind: the store
    )

    try:
        prompt = services.checkpoints.find(op.prompt_id)
    except RewindUnavailable as exc:
        services.emit(Notice(str(exc), "error"))
        return
    if op.restore_conversation and (prompt.message_uuid is None
                                    or services.transcript is None):
        services.emit(Notice("This prompt's place in the conversation is not known; only its "
                             "code can be restored.", "error"))
        return
    result = None
    if op.restore_code:
        try:
            result = await services.checkpoints.restore_code(
                prompt.prompt_id, force=op.force, progress=_progress_reporter(services))
        except (CheckpointError, OSError) as exc:  # the journal left every file as it was
            services.emit(Notice(f"Could not restore the files: {exc}", "error"))
            return
        for path in result.files_changed:
            services.read_file_state.discard(path)
    new_id = ""
    if op.restore_conversation:
        from claude_harness.session.store.fork import ForkError  # a conversation rewind

        try:  # a new session whose transcript ends just before the prompt
            new_id = services.continue_in_fork(prompt.message_uuid, "rewind")
        except (ForkError, OSError) as exc:
            services.emit(Notice(f"Could not restore the conversation: {exc}", "error"))
        else:
            if not op.restore_code:
                services.checkpoints.forget_from(prompt.prompt_id)
    services.emit(Rewound(
        prompt.prompt_id, result.written if result else (), result.deleted if result else (),
        result.conflicts if result else (), bool(new_id), new_id,
        prompt.text if new_id else "", result.insertions if result else 0,
        result.deletions if result else 0))


def _progress_reporter(services: Emits) -> Callable[[str, int, int], None]:
    loop = asyncio.get_running_loop()

    def report(phase: str, done: int, total: int) -> None:
        if done == total or done % PROGRESS_STEP == 0:
            loop.call_soon_threadsafe(services.emit, RewindProgress(phase, done, total))

    return report


HANDLERS: dict[type[ops.Op], Callable[[RewindServices, Any], None]] = {
    ops.ListRewindPoints: list_points, ops.PlanRewind: plan, ops.Rewind: rewind}
