"""Permission requests wait here and are shown one at a time in place of the input.

Parallel tool calls (and sub-agents) may ask at once. The user's answer goes to the session as
an AnswerPermission op (through `answer_to`); a request the session settled otherwise (an
interrupt answers "no") arrives as PermissionSettled, and its prompt disappears on its own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.widget import Widget

if TYPE_CHECKING:
    from claude_harness.frontends.tui.widgets.permission_prompt import PermissionPrompt
    from claude_harness.protocol.events import PermissionAnswer, PermissionRequest

AnswerTo = Callable[["PermissionRequest", str, str], None]


class PermissionQueue:
    def __init__(self, host: Widget, input_widget: Widget, answer_to: AnswerTo) -> None:
        self.host = host  # the bottom area the prompt is mounted into
        self.input = input_widget  # hidden while a prompt shows
        self.answer_to = answer_to
        self.waiting: deque[PermissionRequest] = deque()
        self.current: PermissionPrompt | None = None
        self._settled: set[str] = set()

    def add(self, request: PermissionRequest) -> None:
        self.waiting.append(request)
        if self.current is None:
            self._show_next()
        else:
            self.current.set_queued(len(self.waiting))

    def answer(self, request: PermissionRequest, answer: PermissionAnswer) -> None:
        if request.request_id not in self._settled:
            self._settled.add(request.request_id)
            self.answer_to(request, answer.choice, answer.feedback)
        self._close()

    def settled(self, request_id: str) -> None:
        """The session closed the request (answered, or "no" by an interrupt)."""
        self._settled.add(request_id)
        if self.current is not None and self.current.request.request_id == request_id \
                and self.current.is_attached:
            self._close()

    def clear(self) -> None:
        """The job ended: nothing can still be waiting for an answer."""
        self.waiting.clear()
        if self.current is not None:
            self._close()

    def _show_next(self) -> None:
        from claude_harness.frontends.tui.widgets.permission_prompt import (
            PermissionPrompt,  # first ask
        )

        while self.waiting and self.waiting[0].request_id in self._settled:
            self.waiting.popleft()
        if not self.waiting:
            self.input.display = True
            self.input.focus()
            return
        request = self.waiting.popleft()
        self.current = PermissionPrompt(request, queued=len(self.waiting))
        self.input.display = False
        self.host.mount(self.current, before=self.input)
        self.host.app.bell()

    def _close(self) -> None:
        if self.current is not None:
            self.current.remove()
            self.current = None
        self._show_next()
