"""AskUserQuestion in the app: the model's questions, one at a time, in place of the prompt.

Each question shows its header chip, the question, its numbered options (with descriptions and,
for the focused option, its preview) and a last "Other" row whose field takes the person's own
words. Keys: Up/Down move, 1-5 pick (toggle, for a multi-select question), Space toggles, Enter
confirms, Left goes back a question, Esc declines them all. Typing letters jumps to "Other".

The widget posts `Answered` and, when given one, resolves a future; `WidgetQuestionAsker` turns
that into the `ctx.questions` service the tool calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.message import Message
from textual.widgets import Input, Static

from claude_harness.protocol.questions import (
    MAX_HEADER_CHARS,
    OTHER,
    Answers,
    Question,
    join_labels,
)


class AskUserQuestionPrompt(Vertical, can_focus=True):
    DEFAULT_CSS = """
    AskUserQuestionPrompt {
        height: auto;
        max-height: 80vh;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    AskUserQuestionPrompt .ask-chips { color: $text-muted; }
    AskUserQuestionPrompt .ask-question { text-style: bold; padding: 1 0 0 0; }
    AskUserQuestionPrompt .ask-options { padding: 0 0 0 1; }
    AskUserQuestionPrompt .ask-preview { color: $text-muted; padding: 0 0 0 4; max-height: 12; }
    AskUserQuestionPrompt .ask-hint { color: $text-muted; text-style: italic; }
    AskUserQuestionPrompt Input { border: none; height: 1; padding: 0 2; background: $surface; }
    AskUserQuestionPrompt Input:focus { border: none; background: $boost; }
    """

    BINDINGS = [
        *(Binding(str(n), f"number({n})", show=False) for n in range(1, 6)),
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("space", "toggle", show=False),
        Binding("enter", "confirm", show=False),
        Binding("left", "back", show=False),
        Binding("escape", "decline", show=False),
    ]

    class Answered(Message):
        """The person answered every question, or declined (`answers.declined`)."""

        def __init__(self, prompt: AskUserQuestionPrompt, answers: Answers) -> None:
            super().__init__()
            self.prompt = prompt
            self.answers = answers

    def __init__(self, questions: list[Question],
                 future: asyncio.Future[Answers] | None = None) -> None:
        super().__init__(classes="ask-user-question")
        self.questions = questions
        self.future = future
        self.index = 0
        self.selected = 0
        self.answers: dict[str, str] = {}
        self.toggled: list[set[int]] = [set() for _ in questions]
        self._chips = Static(classes="ask-chips")
        self._question = Static(classes="ask-question", markup=False)
        self._options = Static(classes="ask-options")
        self._preview = Static(classes="ask-preview", markup=False)
        self._other = Input(placeholder="Type your own answer, then Enter", id="ask-other",
                            select_on_focus=False)
        self._hint = Static(classes="ask-hint", markup=False)
        self._done = False

    def compose(self) -> ComposeResult:
        yield self._chips
        yield self._question
        yield self._options
        yield self._preview
        yield self._other
        yield self._hint

    def on_mount(self) -> None:
        self._render_question()
        self.focus()

    # ── state ──────────────────────────────────────────────────────────────────────────────

    @property
    def question(self) -> Question:
        return self.questions[self.index]

    @property
    def other_row(self) -> int:
        return len(self.question.options)

    # ── rendering ──────────────────────────────────────────────────────────────────────────

    def _render_question(self) -> None:
        chips = []
        for number, question in enumerate(self.questions):
            label = escape(question.header[:MAX_HEADER_CHARS])
            done = "✓ " if question.question in self.answers else ""
            chips.append(f"[reverse] {done}{label} [/]" if number == self.index
                         else f" {done}{label} ")
        self._chips.update(Content.from_markup(" ".join(chips)) if len(self.questions) > 1
                           else Content.from_markup(
                               f"[reverse] {escape(self.question.header[:MAX_HEADER_CHARS])} [/]"))
        self._question.update(self.question.question)
        self._render_options()

    def _render_options(self) -> None:
        question = self.question
        rows = []
        for row, option in enumerate(question.options):
            rows.append(self._row(row, option.label, option.description))
        rows.append(self._row(self.other_row, OTHER, "type your own answer below"))
        self._options.update(Content.from_markup("\n".join(rows)))
        focused = question.options[self.selected] if self.selected < self.other_row else None
        preview = focused.preview if focused is not None and focused.preview else ""
        self._preview.update(preview)
        self._preview.display = bool(preview)
        if question.multi_select:
            hint = "Space or a number toggles · Enter confirms · Esc declines"
        else:
            hint = "Enter or a number picks · Esc declines"
        if len(self.questions) > 1:
            hint += f" · question {self.index + 1} of {len(self.questions)}, ← goes back"
        self._hint.update(hint)

    def _row(self, row: int, label: str, description: str) -> str:
        pointer = "❯" if row == self.selected else " "
        box = ""
        if self.question.multi_select and row < self.other_row:
            box = "[x] " if row in self.toggled[self.index] else "[ ] "
        text = f"{pointer} {row + 1}. {box}{escape(label)}  [dim]{escape(description)}[/]"
        return f"[b]{text}[/]" if row == self.selected else text

    # ── actions ────────────────────────────────────────────────────────────────────────────

    def action_move(self, step: int) -> None:
        self.selected = (self.selected + step) % (self.other_row + 1)
        if self.selected == self.other_row:
            self._other.focus()
        else:
            self.focus()
        self._render_options()

    def action_number(self, number: int) -> None:
        row = number - 1
        if row > self.other_row:
            return
        self.selected = row
        if row == self.other_row:
            self._other.focus()
            self._render_options()
            return
        if self.question.multi_select:
            self.action_toggle()
        else:
            self._answer(self.question.options[row].label)

    def action_toggle(self) -> None:
        if not self.question.multi_select or self.selected >= self.other_row:
            return
        self.toggled[self.index] ^= {self.selected}
        self._render_options()

    def action_confirm(self) -> None:
        if self.selected == self.other_row:
            self._answer_other(self._other.value)
            return
        if not self.question.multi_select:
            self._answer(self.question.options[self.selected].label)
            return
        picked = sorted(self.toggled[self.index])
        if not picked:
            self._hint.update("Pick at least one option (Space toggles), or type your own answer.")
            return
        self._answer(join_labels([self.question.options[row].label for row in picked]))

    def action_back(self) -> None:
        if self.index > 0:
            self.index -= 1
            self.selected = 0
            self._render_question()

    def action_decline(self) -> None:
        self._finish(Answers.decline())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._answer_other(event.value)

    def on_key(self, event: events.Key) -> None:
        """Letters typed on the options go to the "Other" field."""
        if (event.is_printable and event.character and not event.character.isdigit()
                and event.character != " " and not self._other.has_focus):
            event.stop()
            self.selected = self.other_row
            self._other.focus()
            self._other.insert_text_at_cursor(event.character)
            self._render_options()

    def _answer_other(self, text: str) -> None:
        if not text.strip():
            self._hint.update("Type your answer first, or pick an option.")
            return
        self._answer(text.strip())

    def _answer(self, answer: str) -> None:
        self.answers[self.question.question] = answer
        next_open = [i for i, q in enumerate(self.questions) if q.question not in self.answers]
        if not next_open:
            self._finish(Answers(dict(self.answers)))
            return
        self.index = next(i for i in next_open if i > self.index) if any(
            i > self.index for i in next_open) else next_open[0]
        self.selected = 0
        self._other.value = ""
        self.focus()
        self._render_question()

    def _finish(self, answers: Answers) -> None:
        if self._done:
            return
        self._done = True
        if self.future is not None and not self.future.done():
            self.future.set_result(answers)
        self.post_message(self.Answered(self, answers))


class WidgetQuestionAsker:
    """The app's `ctx.questions`: shows an AskUserQuestionPrompt (through `show`, which mounts it
    where the prompt input is), waits for the answers, then removes it."""

    available = True

    def __init__(self, show: Callable[[AskUserQuestionPrompt], Awaitable[None]]) -> None:
        self.show = show

    async def ask(self, questions: list[Question]) -> Answers:
        future: asyncio.Future[Answers] = asyncio.get_running_loop().create_future()
        prompt = AskUserQuestionPrompt(questions, future)
        await self.show(prompt)
        try:
            return await future
        finally:
            if prompt.is_mounted:
                await prompt.remove()
