"""MCP servers' questions wait here and are shown one at a time in place of the input.

The session reports a question as ElicitationRequested; the form (`ElicitationForm`) is mounted
where the prompt input is, as a permission prompt is, and the user's answer goes back as an
AnswerElicitation op (through `answer_to`). A question the session closed otherwise (an
interrupt cancels it) arrives as ElicitationSettled, and its form disappears on its own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.widget import Widget

from claude_harness.terminal_safety import strip_unsafe

if TYPE_CHECKING:
    from claude_harness.mcp.elicitation import ElicitationAnswer
    from claude_harness.protocol.events import ElicitationRequested
    from claude_harness.tui.widgets.elicitation_form import ElicitationForm

AnswerTo = Callable[[str, "ElicitationAnswer"], None]


def _safe_request(request: Any) -> Any:
    """The server's words without escape sequences (the form shows them as they are)."""
    return replace(request, message=strip_unsafe(request.message),
                   url=strip_unsafe(request.url) if request.url else request.url)


class ElicitationQueue:
    def __init__(self, host: Widget, input_widget: Widget, answer_to: AnswerTo) -> None:
        self.host = host  # the bottom area the form is mounted into
        self.input = input_widget  # hidden while a form shows
        self.answer_to = answer_to
        self.waiting: deque[ElicitationRequested] = deque()
        self.current: ElicitationForm | None = None
        self._current_id: str | None = None

    def add(self, event: ElicitationRequested) -> None:
        self.waiting.append(event)
        if self.current is None:
            self._show_next()

    def settled(self, request_id: str) -> None:
        """The session closed the question (answered, or cancelled by an interrupt)."""
        self.waiting = deque(e for e in self.waiting if e.request_id != request_id)
        if self._current_id == request_id:
            self._close()

    def _show_next(self) -> None:
        from claude_harness.tui.widgets.elicitation_form import ElicitationForm  # first question

        if not self.waiting:
            self.input.display = True
            self.input.focus()
            return
        event = self.waiting.popleft()
        request_id = event.request_id
        self._current_id = request_id
        self.current = ElicitationForm(_safe_request(event.request),
                                       on_answer=lambda answer: self._answered(request_id,
                                                                               answer))
        self.input.display = False
        self.host.mount(self.current, before=self.input)
        self.host.app.bell()

    def _answered(self, request_id: str, answer: ElicitationAnswer) -> None:
        self.answer_to(request_id, answer)
        if self._current_id == request_id:
            self._close()

    def _close(self) -> None:
        if self.current is not None:
            self.current.remove()
            self.current = None
        self._current_id = None
        self._show_next()
