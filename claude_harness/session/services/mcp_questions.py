"""An MCP server's question to the person at the front end, carried as an event and an op.

The MCP client asks its `ElicitationRouter`; when no hook or program answered, the router asks
its front-end handler. In a session with a person at a front end that handler is
`FrontEndQuestions`: it emits `ElicitationRequested(request_id, request)` and waits for the
`AnswerElicitation` op with the same id (the same path as a permission prompt and its answer).
An interrupt cancels every open question, so no server call waits for a form nobody will see.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

from claude_harness.mcp.elicitation import ElicitationAnswer, ElicitationRequest
from claude_harness.protocol.events import ElicitationRequested, ElicitationSettled

Emit = Callable[[Any], None]


class FrontEndQuestions:
    """The session's `ElicitationHandler` (see mcp/elicitation.py)."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[ElicitationAnswer]] = {}

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        request_id = f"elicit_{next(self._ids)}"
        future: asyncio.Future[ElicitationAnswer] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        self._emit(ElicitationRequested(request_id, request))
        try:
            return await future
        finally:
            self._waiting.pop(request_id, None)
            self._emit(ElicitationSettled(request_id))

    def answer(self, request_id: str, answer: ElicitationAnswer) -> None:
        """The front end's answer (an unknown or already settled id is ignored)."""
        future = self._waiting.get(request_id)
        if future is not None and not future.done():
            future.set_result(answer)

    def cancel_all(self) -> None:
        """An interrupt or the end of the session: every open question is cancelled."""
        for future in list(self._waiting.values()):
            if not future.done():
                future.set_result(ElicitationAnswer.cancel())
