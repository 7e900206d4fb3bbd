"""AskUserQuestion in the plain REPL: each question printed with numbered options, answered by
typing a number (several, comma-separated, for a multi-select question) or your own words.

Line-based on purpose: it works the same in a terminal and with piped stdin, and needs nothing
but "print a line" and "read a line" from the REPL (`read_line` returns None on Esc or end of
input, which declines the questions).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from claude_harness.protocol.questions import (
    MAX_HEADER_CHARS,
    OTHER,
    Answers,
    Question,
    join_labels,
)

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]
ANSWER_PROMPT = "› "
OTHER_PROMPT = "Your answer: "
_NUMBERS = re.compile(r"^\s*\d+(\s*[,\s]\s*\d+)*\s*$")


def question_lines(question: Question, index: int, total: int) -> list[str]:
    """The question as printed: header chip, text, numbered options, the "Other" entry, a hint."""
    header = question.header[:MAX_HEADER_CHARS]
    counter = f"  ({index + 1}/{total})" if total > 1 else ""
    lines = [f"[{header}] {question.question}{counter}"]
    for number, option in enumerate(question.options, start=1):
        lines.append(f"  {number}. {option.label} — {option.description}")
    lines.append(f"  {len(question.options) + 1}. {OTHER} (type your own answer)")
    how = ("numbers separated by commas (e.g. 1,3)" if question.multi_select else "a number")
    lines.append(f"  Type {how}, or your own answer. Esc or an empty input at the end declines.")
    return lines


class NeedsOwnWords(Exception):
    """The person picked "Other": their answer is the next line they type."""


def parse_answer(text: str, question: Question) -> str | None:
    """The answer `text` gives to `question`, None when it is not a valid answer.

    Raises NeedsOwnWords when the "Other" number was picked on its own.
    """
    text = text.strip()
    if not text:
        return None
    if not _NUMBERS.match(text):
        return text  # their own words
    numbers = [int(n) for n in re.split(r"[,\s]+", text) if n]
    other = len(question.options) + 1
    if any(not 1 <= n <= other for n in numbers):
        return None
    if len(numbers) > 1 and not question.multi_select:
        return None
    if other in numbers:
        if len(numbers) > 1:
            return None
        raise NeedsOwnWords
    labels = [question.options[n - 1].label for n in dict.fromkeys(numbers)]
    return join_labels(labels)


class PlainQuestionAsker:
    """The REPL's QuestionAsker (installed as `ctx.questions`)."""

    available = True

    def __init__(self, read_line: ReadLine, write: Write, max_attempts: int = 3) -> None:
        self.read_line = read_line
        self.write = write
        self.max_attempts = max_attempts

    async def ask(self, questions: list[Question]) -> Answers:
        answers: dict[str, str] = {}
        for index, question in enumerate(questions):
            for line in question_lines(question, index, len(questions)):
                self.write(line)
            answer = await self._answer(question)
            if answer is None:
                self.write("  › declined")
                return Answers.decline()
            self.write(f"  › {answer}")
            answers[question.question] = answer
        return Answers(answers)

    async def _answer(self, question: Question) -> str | None:
        for _ in range(self.max_attempts):
            line = await self.read_line(ANSWER_PROMPT)
            if line is None:
                return None
            try:
                answer = parse_answer(line, question)
            except NeedsOwnWords:
                own = await self.read_line(OTHER_PROMPT)
                answer = own.strip() if own and own.strip() else None
                if own is None:
                    return None
            if answer is not None:
                return answer
            limit = len(question.options) + 1
            self.write(f"  Please type a number from 1 to {limit}"
                       + (" (several separated by commas)" if question.multi_select else "")
                       + ", or your own answer.")
        return None
