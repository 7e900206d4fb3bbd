"""The in-place permission prompt that replaces the input while the loop waits for an answer.

Shows exactly what would run (the command, the diff, the file) and why the checker asks, then
offers Yes / Yes and don't ask again for <rule> / No and tell the model what to do instead.
Keys: 1/2/3, Up/Down + Enter, Esc = No; typing any other text goes to the feedback field.
The widget only posts `Answered`; the app sends the answer to the session and shows the next one.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.message import Message
from textual.widgets import Input, Static

from claude_harness.frontends.shared import previews
from claude_harness.protocol.edit_choice import always_label
from claude_harness.protocol.events import PermissionAnswer, PermissionRequest

MAX_PREVIEW_LINES = previews.MAX_APPROVAL_LINES


def needs_file_diff(request: PermissionRequest) -> bool:
    """The tool diffs the call against the file on disk: built off the event loop."""
    return previews.needs_file_diff(request.tool_name, request.input, request.preview)


def describe(request: PermissionRequest, diff: list[str] | None = None,
             pending: bool = False) -> list[str]:
    """The exact thing the user approves, as the tool presents it (the REPL shows the same).
    `diff` is the file change once built; `pending` says it is still being built."""
    return previews.approval_lines(request.tool_name, request.input, request.preview, diff,
                                   pending)


class PermissionPrompt(Vertical, can_focus=True):
    DEFAULT_CSS = """
    PermissionPrompt {
        height: auto;
        max-height: 70vh;
        border: round $warning;
        padding: 0 1;
        background: $surface;
    }
    PermissionPrompt:focus-within { border: round $warning; }
    PermissionPrompt .perm-title { text-style: bold; color: $warning; }
    PermissionPrompt .perm-body { padding: 0 0 0 2; color: $text; }
    PermissionPrompt .perm-plan { height: auto; max-height: 35vh; }  /* the options stay in view */
    PermissionPrompt .perm-reason { color: $text-muted; padding: 0 0 0 2; }
    PermissionPrompt .perm-option { padding: 0 1; }
    PermissionPrompt .perm-option.-selected { background: $primary 30%; text-style: bold; }
    PermissionPrompt Input { border: none; height: 1; padding: 0 2; background: $surface; }
    PermissionPrompt Input:focus { border: none; background: $boost; }
    PermissionPrompt .perm-queue { color: $text-muted; text-style: italic; }
    """

    BINDINGS = [
        Binding("1", "choose(0)", "Yes", show=False),
        Binding("2", "choose(1)", "Always", show=False),
        Binding("3", "choose(2)", "No", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "confirm", show=False),
        Binding("escape", "decline", "No", show=False),
    ]

    class Answered(Message):
        def __init__(self, request: PermissionRequest, answer: PermissionAnswer) -> None:
            super().__init__()
            self.request = request
            self.answer = answer

    def __init__(self, request: PermissionRequest, queued: int = 0) -> None:
        super().__init__(classes="permission-prompt")
        self.request = request
        self.queued = queued
        self.selected = 0
        self._answered = False
        self._options: list[tuple[str, str]] = [("yes", "Yes")]
        if (always := always_label(request)) is not None:
            self._options.append(("always", always))
        self._options.append(("no", "No, and tell the model what to do instead (esc)"))

    def compose(self) -> ComposeResult:
        presentation = previews.presentation_of(self.request.tool_name)
        yield Static(presentation.permission_title(self.request.tool_name), classes="perm-title",
                     markup=False)
        if presentation.plan_markdown and self.request.preview:
            from claude_harness.frontends.shared.plan_markdown import (
                PlanMarkdown,  # plans only: after first paint
            )

            with VerticalScroll(classes="perm-plan"):
                yield Static(PlanMarkdown(self.request.preview), classes="perm-body")
        else:
            pending = needs_file_diff(self.request)
            yield Static("\n".join(describe(self.request, pending=pending)), classes="perm-body",
                         markup=False)
        if self.request.reason:
            yield Static(self.request.reason, classes="perm-reason", markup=False)
        yield Static("Do you want to proceed?")
        for index, (_choice, label) in enumerate(self._options):  # 1, 2(, 3): no gaps
            yield Static(Content.from_markup(f"{index + 1}. {escape(label)}"),
                         classes="perm-option" + (" -selected" if index == 0 else ""))
        yield Input(placeholder="…or type what the model should do instead, then Enter",
                    id="perm-feedback", select_on_focus=False)
        yield Static(self._queue_text(), classes="perm-queue")

    def on_mount(self) -> None:
        self.focus()
        if needs_file_diff(self.request):
            self.run_worker(self._show_file_diff(), group="diff", exclusive=True)

    async def _show_file_diff(self) -> None:
        """Build the diff in a thread (a big file's takes a moment; the prompt and the keys
        work meanwhile), then show it in place of the placeholder line."""
        diff = await previews.file_change_diff_async(self.request.tool_name, self.request.input)
        self.query_one(".perm-body", Static).update("\n".join(describe(self.request, diff)))

    def _queue_text(self) -> str:
        return f"{self.queued} more request(s) waiting" if self.queued else ""

    def set_queued(self, count: int) -> None:
        """Parallel requests arrive while this one shows: say how many wait behind it."""
        self.queued = count
        if self.is_mounted:
            self.query_one(".perm-queue", Static).update(self._queue_text())

    # ── actions ─────────────────────────────────────────────────────────────────────────────

    def action_choose(self, number: int) -> None:
        """Key `number + 1` picks the option shown with that number; 3 stays "No" where only
        two are shown, as it is where there are three."""
        if number < len(self._options):
            self._answer(self._options[number][0])
        elif number == 2:
            self._answer("no")

    def action_decline(self) -> None:
        self._answer("no")

    def action_move(self, delta: int) -> None:
        self.selected = (self.selected + delta) % len(self._options)
        for index, option in enumerate(self.query(".perm-option")):
            option.set_class(index == self.selected, "-selected")

    def action_confirm(self) -> None:
        self._answer(self._options[self.selected][0])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._answer("no", event.value.strip())

    def on_key(self, event: events.Key) -> None:
        """Text typed at the prompt (other than the choice keys) goes to the feedback field."""
        feedback = self.query_one("#perm-feedback", Input)
        if feedback.has_focus or not event.is_printable or event.character in (None, "1", "2", "3"):
            return
        event.stop()
        event.prevent_default()
        feedback.focus()
        feedback.insert_text_at_cursor(event.character)

    def _answer(self, choice: Any, feedback: str = "") -> None:
        if self._answered:
            return
        self._answered = True
        if choice == "no" and not feedback:
            feedback = self.query_one("#perm-feedback", Input).value.strip()
        self.post_message(self.Answered(self.request, PermissionAnswer(choice, feedback)))
