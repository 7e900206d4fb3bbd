"""The session's jobs, one at a time: a prompt's turn, /compact, `!cmd`, a rewind. A prompt
sent while a job runs waits in the queue and goes out, joined with the others, when the job
ends; the turn may take it earlier, between tool batches (`take_queued`, the one place to ask).
An interrupt stops the job and hands the queued prompts back to the front end."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from claude_harness.protocol import ops
from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.events import (
    Busy,
    Notice,
    PromptsReturned,
    QueueChanged,
    SessionEvent,
    TurnEnd,
)

Job = Callable[[], Awaitable[None]]
WORKING = "Working"  # the label of a prompt's turn


class JobQueue:
    def __init__(self, emit: Callable[[SessionEvent], None],
                 turn: Callable[[ops.UserPrompt], Awaitable[None]],
                 wakes: Callable[[], bool]) -> None:
        """`turn` runs a prompt's turn; `wakes` says whether a report waits for a turn of its
        own (a background agent ended and no prompt will carry it)."""
        self._emit = emit
        self._turn = turn
        self._wakes = wakes
        self.job: asyncio.Task[None] | None = None
        self.abort: AbortSignal | None = None  # the running turn's, set by the turn itself
        self.queued: list[ops.UserPrompt] = []
        self.stopped = ""  # why no turn may start any more (a signal), once interrupted so

    @property
    def running(self) -> bool:
        return self.job is not None and not self.job.done()

    def start(self, job: Job, label: str, what: str = "") -> bool:
        """Run `job` as the one job; False (said as a notice) while another runs."""
        if self.running:
            self._emit(Notice(f"Wait for the current job to finish (or Esc) before {what}.",
                              "warning"))
            return False
        self._emit(Busy(True, label))
        self.job = asyncio.create_task(self._run(job), name=f"session-{label}")
        return True

    async def _run(self, job: Job) -> None:
        try:
            await job()
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a bug or an API failure the loop did not turn into TurnEnd
            self._emit(Notice(f"Error: {type(exc).__name__}: {exc}", "error"))
            self._emit(TurnEnd("error", 0, f"{type(exc).__name__}: {exc}"))
        queued = self.take_queued()
        if queued is None and self._wakes():
            queued = ops.UserPrompt(())  # a background agent ended during the job
        if queued is not None:
            self.job = asyncio.create_task(self._run(partial_turn(self._turn, queued)))
            return
        self.job = None
        self._emit(Busy(False))

    def prompt(self, op: ops.UserPrompt) -> None:
        """A prompt's turn now, or queued behind the running job."""
        if self.running:
            self.queued.append(op)
            self._emit(QueueChanged(tuple(prompt_text(p) for p in self.queued)))
            return
        self.start(partial_turn(self._turn, op), WORKING)

    def take_queued(self) -> ops.UserPrompt | None:
        """Prompts sent during the last job, as one prompt (the texts joined)."""
        if not self.queued:
            return None
        queued, self.queued = self.queued, []
        self._emit(QueueChanged(()))
        if len(queued) == 1:
            return queued[0]
        return ops.UserPrompt("\n\n".join(prompt_text(p) for p in queued))

    def interrupt(self, reason: str = "") -> None:
        """Stop the job. With a `reason` (a signal), no turn starts afterwards either."""
        if reason:
            self.stopped = reason
        if self.abort is not None:
            self.abort.abort(reason or "interrupted by user")
        elif self.running and self.job is not None:
            self.job.cancel()  # a compaction or `!cmd`

    def return_queued(self) -> None:
        """After an interrupt: queued prompts go back to the front end to edit or resend."""
        if self.queued:
            texts = tuple(prompt_text(p) for p in self.queued)
            self.queued = []
            self._emit(QueueChanged(()))
            self._emit(PromptsReturned(texts))

    async def stop(self, grace_seconds: float) -> None:
        """At shutdown: abort the turn, give it `grace_seconds` to record what it stopped, then
        cancel whatever still runs."""
        if self.abort is not None:
            self.abort.abort()
        if self.job is not None and self.abort is not None:
            await asyncio.wait({self.job}, timeout=grace_seconds)
        if self.job is not None and not self.job.done():
            self.job.cancel()
            await asyncio.gather(self.job, return_exceptions=True)


def partial_turn(turn: Callable[[ops.UserPrompt], Awaitable[None]], op: ops.UserPrompt) -> Job:
    return lambda: turn(op)


def prompt_text(op: ops.UserPrompt) -> str:
    """A prompt's words (its text blocks joined; images and documents left out)."""
    if isinstance(op.content, str):
        return op.content
    return "\n".join(b.get("text", "") for b in op.content if b.get("type") == "text")
