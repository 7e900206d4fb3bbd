"""A one-line message from the app or the session (hook output, retries, warnings, errors)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class NoticeView(Static):
    DEFAULT_CSS = """
    NoticeView { color: $text-muted; padding: 0 1; }
    NoticeView.-warning { color: $warning; }
    NoticeView.-error { color: $error; text-style: bold; }
    NoticeView.-info-box { border-left: thick $primary; color: $text; margin: 1 0 0 0; }
    NoticeView.-detail { display: none; }
    NoticeView.-detail.-expanded { display: block; }
    """

    def __init__(self, text: str, level: str = "info", *, boxed: bool = False,
                 detail: bool = False) -> None:
        """`detail`: shown only in the detailed transcript (Ctrl+O), e.g. a quiet hook's run."""
        classes = f"-{level}" + (" -info-box" if boxed else "") + (" -detail" if detail else "")
        super().__init__(Text(text), classes=classes)
        self.level = level
        self.text = text
