"""AskUserQuestion's answers, from whichever front end asked."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol import ops

if TYPE_CHECKING:
    from claude_harness.session.services.questions import SessionQuestions


class QuestionServices(Protocol):
    @property
    def questions(self) -> SessionQuestions: ...


def answer(services: QuestionServices, op: ops.AnswerQuestions) -> None:
    services.questions.answer(op)


HANDLERS: dict[type[ops.Op], Callable[[QuestionServices, Any], None]] = {
    ops.AnswerQuestions: answer}
