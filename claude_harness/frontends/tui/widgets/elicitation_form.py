"""An MCP server's question, shown in place of the input: a form built from its JSON Schema.

Form mode: one control per field, in the server's order, each starting at the schema's default
(text fields show theirs as a placeholder): a text box for strings and numbers, a checkbox for
booleans, a drop-down for a single choice, a checklist for several. URL mode: the message and
the link, to open in a browser. Keys: Ctrl+S (or Enter in the last text box) submits,
Ctrl+D declines, Esc cancels. A value that does not fit its field is reported under the form
and nothing is sent until it does.

The widget only posts `Answered(request, answer)`. `WidgetElicitationHandler` turns that into
the `ElicitationHandler` the MCP client asks: it shows a form through a callback the app gives
(mount it where the input was) and waits for the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Select, SelectionList, Static

from claude_harness.mcp.elicitation import (
    ElicitationAnswer,
    ElicitationRequest,
    FormField,
    parse_value,
)


def _placeholder(item: FormField) -> str:
    hint = {"integer": "a whole number", "number": "a number"}.get(item.kind, item.format or "")
    if item.has_default:
        return f"{item.default}" + (f"  ({hint})" if hint else "")
    return hint or ("required" if item.required else "optional")


class ElicitationForm(Vertical, can_focus=True):
    DEFAULT_CSS = """
    ElicitationForm {
        height: auto;
        max-height: 80vh;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    ElicitationForm .eli-title { text-style: bold; color: $accent; }
    ElicitationForm .eli-message { padding: 0 0 1 2; }
    ElicitationForm .eli-fields { height: auto; max-height: 60vh; }
    ElicitationForm .eli-label { padding: 0 0 0 2; text-style: bold; }
    ElicitationForm .eli-help { padding: 0 0 0 2; color: $text-muted; }
    ElicitationForm .eli-url { padding: 0 0 1 2; color: $accent; text-style: underline; }
    ElicitationForm Input, ElicitationForm Select, ElicitationForm Checkbox {
        margin: 0 0 0 2;
    }
    ElicitationForm SelectionList { margin: 0 0 0 2; height: auto; max-height: 8; }
    ElicitationForm .eli-error { color: $error; padding: 0 0 0 2; }
    ElicitationForm .eli-buttons { height: auto; padding: 1 0 0 2; }
    ElicitationForm Button { margin: 0 1 0 0; min-width: 10; }
    ElicitationForm .eli-keys { color: $text-muted; padding: 0 0 0 2; }
    """

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", show=False, priority=True),
        Binding("ctrl+d", "reply('decline')", "Decline", show=False, priority=True),
        Binding("escape", "reply('cancel')", "Cancel", show=False, priority=True),
    ]

    class Answered(Message):
        def __init__(self, request: ElicitationRequest, answer: ElicitationAnswer) -> None:
            super().__init__()
            self.request = request
            self.answer = answer

    def __init__(self, request: ElicitationRequest,
                 on_answer: Callable[[ElicitationAnswer], None] | None = None) -> None:
        super().__init__(classes="elicitation-form")
        self.request = request
        self._on_answer = on_answer
        self.fields = request.fields() if request.mode == "form" else []
        self._answered = False

    # ── layout ──────────────────────────────────────────────────────────────────────────────

    def compose(self) -> ComposeResult:
        yield Static(f"MCP server {self.request.server} asks", classes="eli-title", markup=False)
        yield Static(self.request.message, classes="eli-message", markup=False)
        if self.request.mode == "url":
            yield Static(self.request.url or "", classes="eli-url", markup=False)
            submit = "Opened it"
        else:
            with VerticalScroll(classes="eli-fields"):
                for item in self.fields:
                    yield from self._field(item)
            submit = "Submit"
        yield Static("", classes="eli-error", id="eli-error", markup=False)
        with Horizontal(classes="eli-buttons"):
            yield Button(submit, variant="primary", id="eli-accept")
            yield Button("Decline", id="eli-decline")
            yield Button("Cancel", id="eli-cancel")
        yield Static("ctrl+s submit · ctrl+d decline · esc cancel", classes="eli-keys")

    def _field(self, item: FormField) -> ComposeResult:
        mark = " *" if item.required else ""
        yield Static(f"{item.title}{mark}", classes="eli-label", markup=False)
        if item.description:
            yield Static(item.description, classes="eli-help", markup=False)
        control_id = f"eli-field-{self.fields.index(item)}"
        if item.kind == "boolean":
            yield Checkbox(item.title, value=bool(item.default), id=control_id)
        elif item.kind == "choice":
            yield Select([(label, value) for value, label in zip(item.options, item.labels,
                                                                 strict=False)],
                         value=item.default if item.default in item.options else Select.NULL,
                         allow_blank=not item.required or not item.has_default, id=control_id)
        elif item.kind == "multi_choice":
            chosen = set(item.default or [])
            yield SelectionList[str](*[(label, value, value in chosen) for value, label
                                       in zip(item.options, item.labels, strict=False)],
                                     id=control_id)
        else:
            yield Input(placeholder=_placeholder(item), id=control_id,
                        type="integer" if item.kind == "integer" else
                        "number" if item.kind == "number" else "text")

    def on_mount(self) -> None:
        first = self.query("Input, Select, Checkbox, SelectionList, Button").first()
        first.focus()

    # ── answers ─────────────────────────────────────────────────────────────────────────────

    def values(self) -> dict[str, Any]:
        """The typed values; ValueError naming the first field that does not fit."""
        values: dict[str, Any] = {}
        for index, item in enumerate(self.fields):
            control = self.query_one(f"#eli-field-{index}")
            if isinstance(control, Checkbox):
                value: Any = control.value
            elif isinstance(control, Select):
                value = None if control.value is Select.NULL else control.value
                if value is None and item.required and not item.has_default:
                    raise ValueError(f"{item.title} is required")
            elif isinstance(control, SelectionList):
                value = list(control.selected) or None
            else:
                value = parse_value(item, control.value)  # type: ignore[attr-defined]
            if value is not None:
                values[item.name] = value
        return values

    def action_submit(self) -> None:
        if self.request.mode == "url":
            self._reply(ElicitationAnswer.accept())
            return
        try:
            values = self.values()
        except ValueError as problem:
            self.query_one("#eli-error", Static).update(str(problem))
            return
        self._reply(ElicitationAnswer.accept(values))

    def action_reply(self, action: str) -> None:
        self._reply(ElicitationAnswer(action))  # type: ignore[arg-type]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "eli-accept":
            self.action_submit()
        elif event.button.id == "eli-decline":
            self.action_reply("decline")
        else:
            self.action_reply("cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves to the next field; in the last text box it submits."""
        event.stop()
        inputs = list(self.query(Input))
        if event.input is inputs[-1]:
            self.action_submit()
        else:
            self.screen.focus_next()

    def _reply(self, answer: ElicitationAnswer) -> None:
        if self._answered:
            return
        self._answered = True
        if self._on_answer is not None:
            self._on_answer(answer)
        self.post_message(self.Answered(self.request, answer))


class WidgetElicitationHandler:
    """The app's `ElicitationHandler`: `show(form)` mounts the widget (in place of the input),
    `hide(form)` removes it once answered. Requests from several servers queue: one form at a
    time, as permission prompts do."""

    def __init__(self, show: Callable[[ElicitationForm], Awaitable[None]],
                 hide: Callable[[ElicitationForm], Awaitable[None]]) -> None:
        self._show = show
        self._hide = hide
        self._one_at_a_time = asyncio.Lock()

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        async with self._one_at_a_time:
            future: asyncio.Future[ElicitationAnswer] = asyncio.get_running_loop().create_future()

            def settle(answer: ElicitationAnswer) -> None:
                if not future.done():
                    future.set_result(answer)

            form = ElicitationForm(request, on_answer=settle)
            await self._show(form)
            try:
                return await future
            finally:
                await self._hide(form)
