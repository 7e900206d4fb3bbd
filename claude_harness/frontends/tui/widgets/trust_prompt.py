"""The first-start question in a folder: do you trust the files here?

Until the user says yes, a repository's own `.claude/settings.json` grants nothing and its hooks
do not run (they are commands from whoever wrote the repository). The answer is remembered per
folder. Keys: 1 or Enter = yes, 2 or Esc = no (the app exits).
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static


class TrustPrompt(Vertical, can_focus=True):
    DEFAULT_CSS = """
    TrustPrompt {
        height: auto;
        border: round $warning;
        padding: 0 1;
        background: $surface;
    }
    TrustPrompt .trust-title { text-style: bold; color: $warning; }
    TrustPrompt .trust-body { color: $text-muted; padding: 0 0 0 2; }
    TrustPrompt .trust-option { padding: 0 1; }
    """

    BINDINGS = [
        Binding("1", "answer(True)", "Yes", show=False),
        Binding("enter", "answer(True)", "Yes", show=False),
        Binding("2", "answer(False)", "No", show=False),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    class Answered(Message):
        def __init__(self, trusted: bool) -> None:
            super().__init__()
            self.trusted = trusted

    def __init__(self, folder: Path) -> None:
        super().__init__(id="trust-prompt")
        self.folder = folder

    def compose(self) -> ComposeResult:
        yield Static("Do you trust the files in this folder?", classes="trust-title",
                     markup=False)
        yield Static(str(self.folder), classes="trust-body", markup=False)
        yield Static("The agent may read, run and change files here. Project settings and "
                     "hooks (.claude/settings.json) apply only in folders you trust.",
                     classes="trust-body", markup=False)
        yield Static("1. Yes, proceed", classes="trust-option", markup=False)
        yield Static("2. No, exit", classes="trust-option", markup=False)

    def action_answer(self, trusted: bool) -> None:
        self.post_message(self.Answered(trusted))
