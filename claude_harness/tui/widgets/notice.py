"""A one-line message from the app or the engine (hook output, retries, warnings, errors)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class NoticeView(Static):
    DEFAULT_CSS = """
    NoticeView { color: $text-muted; padding: 0 1; }
    NoticeView.-warning { color: $warning; }
    NoticeView.-error { color: $error; text-style: bold; }
    NoticeView.-info-box { border-left: thick $primary; color: $text; margin: 1 0 0 0; }
    """

    def __init__(self, text: str, level: str = "info", *, boxed: bool = False) -> None:
        super().__init__(Text(text), classes=f"-{level}" + (" -info-box" if boxed else ""))
        self.level = level
        self.text = text
