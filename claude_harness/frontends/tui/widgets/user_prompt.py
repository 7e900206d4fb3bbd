"""A prompt the user sent (or queued), shown with a leading marker."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class UserPromptView(Static):
    DEFAULT_CSS = """
    UserPromptView {
        color: $text;
        background: $boost;
        padding: 0 1;
        margin: 1 0 0 0;
    }
    UserPromptView.-queued { color: $text-muted; text-style: italic; }
    UserPromptView.-shell { color: $secondary; }
    """

    def __init__(self, text: str, *, marker: str = "›", classes: str = "") -> None:
        body = Text(f"{marker} ", style="bold")
        body.append(text)
        super().__init__(body, classes=classes)
        self.prompt_text = text
