"""The multi-line prompt: Enter sends, Shift+Enter / Ctrl+J / `\\`+Enter insert a newline,
Up/Down browse the per-project history when the cursor is on the first/last line.

It accepts typing from the first frame; what happens to a sent prompt (run now, queue, slash
command, shell escape) is the app's business, so this widget only posts `Submitted`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import TextArea
from textual.widgets.text_area import Location

from claude_harness.frontends.shared.clipboard_image import mention_for
from claude_harness.frontends.shared.pasted_text import (
    PastedTexts,
    dropped_image,
    normalize_newlines,
    should_collapse,
)
from claude_harness.frontends.shared.prompt_history import PromptHistory
from claude_harness.frontends.shared.terminal_graphemes import (
    is_format_character,
    next_boundary,
    previous_boundary,
)


class PromptInput(TextArea):
    DEFAULT_CSS = """
    PromptInput {
        height: auto;
        min-height: 3;
        max-height: 14;
        /* rules above and below, no side borders (as Claude Code draws it): a terminal that
           measures 👩‍👩‍👧 wider than Unicode says can push no right border out of line */
        border: none;
        border-top: round $primary 60%;
        border-bottom: round $primary 60%;
        padding: 0 1;
        background: $background;
    }
    PromptInput:focus { border: none; border-top: round $primary;
                        border-bottom: round $primary; }
    PromptInput.-busy { border: none; border-top: round $secondary;
                        border-bottom: round $secondary; }
    PromptInput .text-area--cursor-line { background: transparent; }
    """

    BINDINGS = [
        Binding("pageup", "page_conversation(-1)", show=False),
        Binding("pagedown", "page_conversation(1)", show=False),
        Binding("ctrl+underscore", "undo", show=False),  # Claude Code's undo (Ctrl+_)
    ]

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class VimModeChanged(Message):
        """Vim mode went on or off, or between NORMAL and INSERT: the footer shows it."""

        def __init__(self, label: str) -> None:
            super().__init__()
            self.label = label  # "-- INSERT --", or "" (NORMAL, or vim mode off)

    class StashToggled(Message):
        """Ctrl+S (chat:stash): the app stashes the draft, or brings the stash back."""

    class ShortcutsToggled(Message):
        """`?` on an empty prompt: the app shows (or puts away) the shortcuts panel."""

    class Completion(Message):
        """Tab: the app completes the word at the cursor (`@path`, `/command`). It carries no
        text: by the time the app handles it, keys typed after Tab may have changed the line,
        so the app reads the prompt as it is then."""

    def __init__(self, history: PromptHistory | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id, soft_wrap=True, show_line_numbers=False, tab_behavior="focus",
                         highlight_cursor_line=False,
                         placeholder="Type a message · / for commands · ! for shell · @ for files")
        self.prompt_history = history or PromptHistory(None)
        self.pasted = PastedTexts()  # long pastes shown as `[Pasted text #1 +120 lines]`
        self.accept_popup: Callable[[], bool] | None = None  # the app's `@` popup, if open
        self.move_popup: Callable[[int], bool] | None = None  # its Up/Down
        self.cursor_blink = False  # a blinking cursor is a timer: an idle app runs none
        self.vim: Any = None  # a vim_keys.VimKeys while editorMode is "vim"

    def set_vim(self, enabled: bool) -> None:
        """`/vim`, `editorMode`: vim's NORMAL/INSERT editing on or off (loaded when on)."""
        if enabled and self.vim is None:
            from claude_harness.frontends.tui.widgets.vim_keys import VimKeys

            self.vim = VimKeys()
        elif not enabled:
            self.vim = None
        self._vim_changed()

    def _vim_changed(self) -> None:
        from claude_harness.frontends.tui.widgets.vim_input import mode_label

        self.post_message(self.VimModeChanged(mode_label(self.vim)))

    def set_text(self, text: str) -> None:
        self.text = text
        last = self.document.line_count - 1
        self.move_cursor((last, len(self.document.get_line(last))))

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if self.vim is not None and self._vim_key(event):
            event.stop()
            event.prevent_default()
            return
        if key == "enter":
            event.stop()
            event.prevent_default()
            row, col = self.cursor_location
            line = self.document.get_line(row)
            if col > 0 and line[col - 1] == "\\":
                self.replace("\n", (row, col - 1), (row, col))
                return
            if self.accept_popup is not None and self.accept_popup():
                return  # Enter on an open `@` popup takes its first row, as Claude Code's does
            self._submit()
            return
        if key in ("shift+enter", "ctrl+j", "alt+enter"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if event.character == "?" and not self.text:
            event.stop()
            event.prevent_default()
            self.post_message(self.ShortcutsToggled())
            return
        if key == "tab":  # completion only: focus never leaves the prompt by accident
            event.stop()
            event.prevent_default()
            if self.text:
                self.post_message(self.Completion())
            return
        if key in ("up", "down") and self.move_popup is not None \
                and self.move_popup(-1 if key == "up" else 1):
            event.stop()
            event.prevent_default()
            return
        if key == "up" and self.cursor_location[0] == 0:
            older = self.prompt_history.older(self.text)
            if older is not None:
                event.stop()
                event.prevent_default()
                self.set_text(older)
            return
        if key == "down" and self.cursor_location[0] == self.document.line_count - 1:
            newer = self.prompt_history.newer()
            if newer is not None:
                event.stop()
                event.prevent_default()
                self.set_text(newer)
            return
        if is_format_character(event.character):
            # ZWJ and tag characters are not "printable", so TextArea drops them: typed
            # 👩‍👩‍👧 would arrive as three people and 🏴 flags as a black flag
            event.stop()
            event.prevent_default()
            self.insert(event.character or "")
            return
        await super()._on_key(event)

    def _vim_key(self, event: events.Key) -> bool:
        from claude_harness.frontends.tui.widgets.vim_input import handle_vim_key

        mode = self.vim.mode
        if mode == "NORMAL" and event.character == "?" and not self.vim.pending:
            self.post_message(self.ShortcutsToggled())  # `?` in NORMAL: help, as in Claude Code
            return True
        taken = handle_vim_key(self, self.vim, event)
        if self.vim.mode != mode:
            self._vim_changed()
        return taken

    async def _on_paste(self, event: events.Paste) -> None:
        """A dropped image path becomes an `@` mention; a long paste a placeholder (both as
        Claude Code does); anything else is inserted as typed."""
        if self.read_only:
            return
        text = normalize_newlines(event.text)
        image = dropped_image(text, getattr(self.app, "cwd", None) or Path.cwd())
        if image is not None:
            row, col = self.cursor_location
            text = mention_for(image, self.document.get_line(row)[:col])
        elif should_collapse(text, self.app.size.height):
            text = self.pasted.add(text)
        event.stop()
        event.prevent_default()
        if result := self._replace_via_keyboard(text, *self.selection):
            self.move_cursor(result.end_location)
            self.focus()

    def get_cursor_left_location(self) -> Location:
        """Left and Backspace step over a whole grapheme (👩‍👩‍👧, e + U+0301, 🇫🇷), not into it."""
        row, column = self.cursor_location
        if column == 0:
            return super().get_cursor_left_location()
        return row, previous_boundary(self.document.get_line(row), column)

    def get_cursor_right_location(self) -> Location:
        """Right and Delete step over a whole grapheme."""
        row, column = self.cursor_location
        line = self.document.get_line(row)
        if column >= len(line):
            return super().get_cursor_right_location()
        return row, next_boundary(line, column)

    def action_page_conversation(self, direction: int) -> None:
        """PageUp/PageDown scroll the conversation while typing (the prompt is short)."""
        conversation = self.screen.query_one("#conversation")
        if direction < 0:
            conversation.scroll_page_up()
        else:
            conversation.scroll_page_down()

    def _submit(self) -> None:
        text = self.pasted.expand(self.text)  # the placeholders go out as the whole pastes
        if not text.strip():
            return
        self.prompt_history.add(text)
        self.clear()
        self.pasted.clear()
        if self.vim is not None and self.vim.mode != "INSERT":
            self.vim.mode = "INSERT"  # the next prompt is typed at once
            self._vim_changed()
        self.post_message(self.Submitted(text))
