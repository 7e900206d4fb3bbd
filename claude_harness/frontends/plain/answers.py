"""Ops the REPL asks the session and waits on: the answer is an event of a known type.

The pickers and the panels both ask (a ListX op, answered by its listing event); this is the one
table of those waits, so an event that answers a wait is taken here before it is drawn.
"""

from __future__ import annotations

import asyncio
from typing import Any

ANSWER_TIMEOUT = 30.0


class Answers:
    def __init__(self, repl: Any) -> None:
        self._repl = repl  # the PlainRepl: its session is read at each request (submit only)
        self._waiting: dict[type, asyncio.Future[Any]] = {}

    def take(self, event: Any) -> bool:
        """True when `event` answers a waiting request (which then has it)."""
        future = self._waiting.pop(type(event), None)
        if future is None or future.done():
            return False
        future.set_result(event)
        return True

    async def request(self, op: Any, answer: type) -> Any:
        """Submit `op` and wait for its answer event (None if the session never answers)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[answer] = future
        self._repl.session.submit(op)
        try:
            return await asyncio.wait_for(future, ANSWER_TIMEOUT)
        except TimeoutError:
            return None
        finally:
            self._waiting.pop(answer, None)
