"""A one-line message from the app or the session (hook output, retries, warnings, errors)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from claude_harness.text.terminal_safety import strip_unsafe


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
                 detail: bool = False, link: str | None = None) -> None:
        """`detail`: shown only in the detailed transcript (Ctrl+O), e.g. a quiet hook's run.
        `link`: a URL shown on its own line as a terminal hyperlink (a login page).

        The text may come from anywhere (hook output, a server's error): its escape sequences
        are removed here."""
        classes = f"-{level}" + (" -info-box" if boxed else "") + (" -detail" if detail else "")
        text = strip_unsafe(text)
        shown = Text(text)
        if link:
            link = strip_unsafe(link)
            shown.append("\n")
            shown.append(link, Style(link=link, underline=True))
            text = f"{text}\n{link}"
        super().__init__(shown, classes=classes)
        self.level = level
        self.text = text
        self.link = link
