"""What waits for the next prompt besides the person's words: the reports of background
agents, the context `async` hooks and Setup hooks add. The session puts these texts at the
front of the next user message (or, in `-p`, of a message of their own before the turn ends).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.events import AgentEvent, HookRan, Notice

if TYPE_CHECKING:
    from claude_harness.hooks.outcome import HookOutcome
    from claude_harness.hooks.runner import HookRunner


class Background(Protocol):
    """The background agents, as far as waiting for their reports goes."""

    @property
    def running(self) -> bool: ...

    async def wait_any(self) -> None: ...


class TurnExtras:
    def __init__(self) -> None:
        self._texts: list[str] = []
        self.wakes = False  # something waits that deserves a turn of its own (an agent's report)

    @property
    def pending(self) -> bool:
        return bool(self._texts)

    def add(self, text: str, *, wake: bool = False) -> None:
        self._texts.append(text)
        self.wakes = self.wakes or wake

    def take(self) -> list[str]:
        texts, self._texts = self._texts, []
        self.wakes = False
        return texts

    def from_hook(self, outcome: HookOutcome) -> list[AgentEvent]:
        """A hook's outcome that cannot block anything: its report and messages to show, its
        context kept for the model."""
        events: list[AgentEvent] = [HookRan(outcome.event, outcome)] if outcome.ran else []
        events += [Notice(m) for m in outcome.system_messages]
        events += [Notice(m, "warning") for m in outcome.errors]
        for context in outcome.additional_context:
            if context.strip():
                self.add(f"<system-reminder>\n{context}\n</system-reminder>")
        return events

    def collect_async(self, hooks: HookRunner | None) -> list[AgentEvent]:
        """Answers of `async` hooks that finished since the last look."""
        if hooks is None:
            return []
        return [event for outcome in hooks.take_async_outcomes()
                for event in self.from_hook(outcome)]

    async def wait(self, background: Background, abort: AbortSignal) -> None:
        """Until something is pending (a background agent ended) or the turn is aborted."""
        if self.pending or not background.running:
            return
        waits = {asyncio.ensure_future(background.wait_any()), asyncio.ensure_future(abort.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()


def attribution_reminder(line: str) -> str:
    """What the settings ask commits to carry (`attribution`, `includeCoAuthoredBy`)."""
    return ("<system-reminder>\nWhen you write a git commit message in this session, end it "
            f"with this line:\n{line}\n</system-reminder>")
