"""The status line command's output at the very bottom of the app (settings' `statusLine`).

One line, the command's first, with its ANSI colours; hidden while there is none. It changes
only when the session reports a new line (StatusLineChanged), never on a timer.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class StatusLineView(Static):
    DEFAULT_CSS = """
    StatusLineView { height: 1; padding: 0 1; display: none; }
    StatusLineView.-shown { display: block; }
    """

    def __init__(self) -> None:
        super().__init__(id="status-line", markup=False)
        self.line = ""

    def show_line(self, line: str) -> None:
        self.line = line
        text = Text.from_ansi(line, no_wrap=True, overflow="ellipsis")
        self.update(text)
        self.set_class(bool(line.strip()), "-shown")
