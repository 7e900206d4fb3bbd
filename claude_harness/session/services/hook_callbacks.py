"""A program's own hooks: callbacks it registered on the Agent SDK pipe.

`RegisterHookCallbacks` adds them to the session's HookRunner as callback entries, beside the
command hooks (a runner is made when no command hook is configured). When one fires, the runner
calls `call()`: a HookCallbackRequest event goes out and the call waits for the
AnswerHookCallback op with the same request_id, which `answer()` delivers. The answer is read as
that hook's JSON output, so deny > ask > allow and the rest of the command hooks' contract hold.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

from claude_harness.hooks.config import callback_entry
from claude_harness.hooks.runner import HookRunner
from claude_harness.protocol.events import HookCallbackRequest, SessionEvent
from claude_harness.protocol.ops import HookCallbackMatcher


class HookCallbackFailed(Exception):
    """The program answered with an error (its callback raised), or went away."""


class HookCallbacks:
    def __init__(self, emit: Callable[[SessionEvent], None]) -> None:
        self._emit = emit
        self._waiting: dict[str, asyncio.Future[dict[str, Any] | None]] = {}

    def register(self, runner: HookRunner, matchers: tuple[HookCallbackMatcher, ...]) -> list[str]:
        """Add the callbacks to `runner`; returns a problem per matcher that was skipped."""
        entries, problems = [], []
        for matcher in matchers:
            try:
                entries += [callback_entry(matcher.event, matcher.matcher, cid, matcher.timeout)
                            for cid in matcher.callback_ids]
            except ValueError as exc:
                problems.append(f"Hook callbacks for {matcher.event} skipped: {exc}")
        runner.add_callbacks(entries, self.call)
        return problems

    async def call(self, callback_id: str, hook_input: dict[str, Any],
                   tool_use_id: str | None) -> dict[str, Any] | None:
        request_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any] | None] = (
            asyncio.get_running_loop().create_future())
        self._waiting[request_id] = future
        self._emit(HookCallbackRequest(request_id, callback_id, hook_input, tool_use_id))
        try:
            return await future
        finally:
            self._waiting.pop(request_id, None)

    def answer(self, request_id: str, output: dict[str, Any] | None, error: str) -> None:
        """An AnswerHookCallback op arrived; an unknown or settled id is ignored."""
        future = self._waiting.get(request_id)
        if future is None or future.done():
            return
        if output is None:
            future.set_exception(HookCallbackFailed(error or "the hook callback failed"))
        else:
            future.set_result(output)

    def cancel_all(self) -> None:
        for request_id in list(self._waiting):
            self.answer(request_id, None, "the session ended")
