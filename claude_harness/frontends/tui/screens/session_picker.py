"""/resume picker: earlier sessions of this project, newest first, named by their /rename title
or first prompt. Typing searches them (every word must match the title, the first prompt or the
id); Up/Down choose, Enter resumes, Esc cancels."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from claude_harness.session.store.titles import SessionSummary, search


class SessionPicker(ModalScreen[Path | None]):
    DEFAULT_CSS = """
    SessionPicker { align: center middle; }
    SessionPicker > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 80%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    SessionPicker .picker-title { text-style: bold; color: $primary; }
    /* :focus too, or Textual's `Input:focus` border hides the typed search (history_search) */
    SessionPicker Input, SessionPicker Input:focus {
        border: none; height: 1; padding: 0; background: $surface;
    }
    SessionPicker OptionList { height: auto; max-height: 20; border: none; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, sessions: list[SessionSummary], *, query: str = "") -> None:
        super().__init__()
        self.sessions = sessions
        self.shown: list[SessionSummary] = search(sessions, query)
        self.query_text = query

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Resume a conversation (type to search · ↑↓ choose · Enter resume · "
                         "Esc cancel)", classes="picker-title")
            yield Input(self.query_text, placeholder="search titles and first prompts",
                        id="session-search")
            yield OptionList(*self._options())

    def _options(self) -> list[Option]:
        return [Option(s.label(), id=str(i)) for i, s in enumerate(self.shown)]

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.query_one(OptionList).highlighted = 0 if self.shown else None

    def on_input_changed(self, event: Input.Changed) -> None:
        self.shown = search(self.sessions, event.value)
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = 0 if self.shown else None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        options = self.query_one(OptionList)
        if self.shown and options.highlighted is not None:
            self.dismiss(self.shown[options.highlighted].path)

    def on_key(self, event: events.Key) -> None:
        """Up/Down move through the list while the search keeps the keyboard."""
        options = self.query_one(OptionList)
        if event.key in ("up", "down") and self.shown and self.query_one(Input).has_focus:
            event.stop()
            step = -1 if event.key == "up" else 1
            current = options.highlighted if options.highlighted is not None else 0
            options.highlighted = (current + step) % len(self.shown)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.shown[int(event.option.id or 0)].path)

    def action_cancel(self) -> None:
        self.dismiss(None)
