"""Permission requests wait here and are shown one at a time in place of the input.

Parallel tool calls (and sub-agents) may ask at once; each request's future is resolved exactly
once, by the user's answer or by the loop (an interrupt answers "no"), and a prompt whose
request was settled elsewhere disappears on its own.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from textual.widget import Widget

if TYPE_CHECKING:
    from claude_harness.protocol.events import PermissionAnswer, PermissionRequest
    from claude_harness.tui.widgets.permission_prompt import PermissionPrompt


class PermissionQueue:
    def __init__(self, host: Widget, input_widget: Widget) -> None:
        self.host = host  # the bottom area the prompt is mounted into
        self.input = input_widget  # hidden while a prompt shows
        self.waiting: deque[PermissionRequest] = deque()
        self.current: PermissionPrompt | None = None

    def add(self, request: PermissionRequest) -> None:
        self.waiting.append(request)
        request.future.add_done_callback(lambda _f: self._settled(request))
        if self.current is None:
            self._show_next()
        else:
            self.current.set_queued(len(self.waiting))

    def answer(self, request: PermissionRequest, answer: PermissionAnswer) -> None:
        if not request.future.done():
            request.future.set_result(answer)
        self._close()

    def clear(self) -> None:
        """The turn ended: nothing can still be waiting for an answer."""
        self.waiting.clear()
        if self.current is not None:
            self._close()

    def _show_next(self) -> None:
        from claude_harness.tui.widgets.permission_prompt import PermissionPrompt

        while self.waiting and self.waiting[0].future.done():
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

    def _settled(self, request: PermissionRequest) -> None:
        """Answered elsewhere (an interrupt answers "no"): drop its prompt if it is showing."""
        if self.current is not None and self.current.request is request \
                and self.current.is_attached:
            self._close()

    def _close(self) -> None:
        if self.current is not None:
            self.current.remove()
            self.current = None
        self._show_next()
