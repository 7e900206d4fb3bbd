"""/resume picker: earlier sessions of this project, newest first; Enter resumes, Esc cancels."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class SessionPicker(ModalScreen[Path | None]):
    DEFAULT_CSS = """
    SessionPicker { align: center middle; }
    SessionPicker > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 80%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    SessionPicker .picker-title { text-style: bold; color: $primary; }
    SessionPicker OptionList { height: auto; max-height: 20; border: none; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, sessions: list[tuple[Path, str]]) -> None:
        super().__init__()
        self.sessions = sessions

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Resume a conversation (Enter to resume, Esc to cancel)",
                         classes="picker-title")
            yield OptionList(*(Option(label, id=str(i))
                               for i, (_path, label) in enumerate(self.sessions)))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.sessions[int(event.option.id or 0)][0])

    def action_cancel(self) -> None:
        self.dismiss(None)
