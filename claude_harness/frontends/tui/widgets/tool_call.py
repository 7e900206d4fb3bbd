"""One widget per tool call: header, live progress, compact result preview, Ctrl+O details.

The spinner timer runs only while the call runs, so an idle app has no timers. Progress keeps
only the last few lines, so a chatty command cannot grow the widget.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.timer import Timer
from textual.widgets import Static

from claude_harness.frontends.shared import previews
from claude_harness.frontends.tui import clock

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
PROGRESS_LINES = 5


class ToolCallView(Vertical):
    DEFAULT_CSS = """
    ToolCallView { height: auto; margin: 1 0 0 0; padding: 0 1; }
    ToolCallView .tool-header { color: $text; }
    ToolCallView .tool-progress { color: $text-muted; padding: 0 0 0 2; }
    ToolCallView .tool-result { color: $text-muted; padding: 0 0 0 2; }
    ToolCallView .tool-details { color: $text-muted; padding: 0 0 0 2; display: none; }
    ToolCallView.-expanded .tool-details { display: block; }
    ToolCallView.-error .tool-result { color: $error; }
    ToolCallView.-done .tool-progress { display: none; }
    """

    def __init__(self, tool_use_id: str, name: str, inp: dict[str, Any],
                 key_argument: str = "", diff: list[str] | None = None) -> None:
        super().__init__(classes="-running")
        self.diff = diff  # Edit/Write: the change, computed before the tool touched the file
        self.tool_use_id = tool_use_id
        self.tool_name = name
        self.tool_input = inp
        self.argument = previews.header_argument(name, inp, key_argument)
        self.started = clock.now()
        self.finished: float | None = None
        self.is_error = False
        self.result_lines: list[str] = []
        self._progress: deque[str] = deque(maxlen=PROGRESS_LINES)
        self._timer: Timer | None = None
        self._header = Static(classes="tool-header")
        self._progress_view = Static(classes="tool-progress", markup=False)
        self._result_view = Static(classes="tool-result", markup=False)
        self._details = Static(classes="tool-details", markup=False)

    def compose(self) -> ComposeResult:
        yield self._header
        yield self._progress_view
        yield self._result_view
        yield self._details

    def on_mount(self) -> None:
        self._render_header()
        if self.finished is None:
            self._timer = self.set_interval(0.1, self._tick)

    # ── state changes ──────────────────────────────────────────────────────────────────────

    @property
    def running(self) -> bool:
        return self.finished is None

    def add_progress(self, data: Any) -> None:
        color = getattr(data, "color", None)  # a sub-agent's colour, from its definition
        if color:
            try:
                self._progress_view.styles.color = color
            except Exception:  # noqa: BLE001 - a colour Textual does not know: keep the theme's
                pass
        for line in previews.progress_text(data):
            self._progress.append(line[:500])
        self._progress_view.update("\n".join(self._progress))

    def set_diff(self, diff: list[str] | None) -> None:
        """The Edit/Write change, built off the event loop after the view appeared (a big
        file's diff takes a moment); a result already shown is redrawn with it."""
        self.diff = diff
        if self.finished is not None and diff and not self.is_error:
            self.result_lines = diff
            self._render_result()

    def finish(self, content: Any, is_error: bool) -> None:
        self.finished = clock.now()
        self.is_error = is_error
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.result_lines = previews.result_lines(self.tool_name, self.tool_input, content,
                                                  is_error, self.diff)
        self.remove_class("-running")
        self.add_class("-done")
        self.set_class(is_error, "-error")
        self._render_header()
        self._render_result()

    def set_expanded(self, expanded: bool) -> None:
        self.set_class(expanded, "-expanded")
        self._render_result()

    # ── rendering ──────────────────────────────────────────────────────────────────────────

    def _tick(self) -> None:
        self._render_header()

    def _render_header(self) -> None:
        if self.finished is None:
            bullet = f"[b $primary]{SPINNER[clock.frame(self.started, len(SPINNER))]}[/]"
            elapsed = clock.now() - self.started
        elif self.is_error:
            bullet, elapsed = "[b $error]✗[/]", self.finished - self.started
        else:
            bullet, elapsed = "[b $success]●[/]", self.finished - self.started
        arg = f"({escape(self.argument)})" if self.argument else ""
        self._header.update(Content.from_markup(
            f"{bullet} [b]{escape(self.tool_name)}[/]{arg}  [dim]{previews.format_elapsed(elapsed)}[/]"))

    def _render_result(self) -> None:
        if self.finished is None:
            return
        expanded = self.has_class("-expanded")
        limit = previews.EXPANDED_LINES if expanded else previews.PREVIEW_LINES
        lines = self.result_lines[:limit]
        more = len(self.result_lines) - len(lines)
        text = "\n".join(f"⎿ {ln}" if i == 0 else f"  {ln}" for i, ln in enumerate(lines))
        if more > 0:
            hint = "" if expanded else " (ctrl+o to expand)"
            text += f"\n  … +{more} lines{hint}"
        self._result_view.update(text)
        if expanded:
            self._details.update("input: " + previews.format_input(self.tool_input))
