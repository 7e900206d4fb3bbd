"""Where AskUserQuestion's questions go: the session's QuestionAsker (`ctx.questions`).

Like a permission prompt: `ask` emits QuestionsAsked with a request id and waits; a front end
(the app's widget, the REPL's numbered prompt, an SDK client) answers with the AnswerQuestions
op, which the session hands to `answer`. An interrupt declines every open question. `available`
is False when nobody can answer (`-p`): the tool then asks for permission, which headless mode
denies unless a client answers it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from claude_harness.protocol.events import QuestionsAsked, QuestionsSettled, SessionEvent
from claude_harness.protocol.ops import AnswerQuestions

if TYPE_CHECKING:
    from claude_harness.protocol.questions import Answers, Question


class SessionQuestions:
    def __init__(self, emit: Callable[[SessionEvent], None], available: bool) -> None:
        self._emit = emit
        self.available = available
        self._waiting: dict[str, asyncio.Future[Answers]] = {}

    async def ask(self, questions: list[Question]) -> Answers:
        request_id = f"ask-{uuid.uuid4().hex[:12]}"
        future: asyncio.Future[Answers] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        shapes = tuple(q.model_dump(by_alias=True, exclude_none=True) for q in questions)
        self._emit(QuestionsAsked(request_id, shapes))
        try:
            return await future
        finally:
            self._waiting.pop(request_id, None)
            self._emit(QuestionsSettled(request_id))

    def answer(self, op: AnswerQuestions) -> None:
        """An AnswerQuestions op arrived; an unknown or settled id is ignored."""
        future = self._waiting.get(op.request_id)
        if future is None or future.done():
            return
        from claude_harness.protocol.questions import Answers  # loaded with the tool

        if op.declined:
            future.set_result(Answers.decline())
        else:
            future.set_result(Answers(dict(op.answers), dict(op.annotations)))

    def decline_all(self) -> None:
        if not self._waiting:
            return
        from claude_harness.protocol.questions import Answers  # loaded with the tool

        for future in list(self._waiting.values()):
            if not future.done():
                future.set_result(Answers.decline())
