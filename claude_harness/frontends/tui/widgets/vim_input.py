"""The prompt widget's side of vim mode: which keys the state machine (vim_keys.py) takes, and
how its answer becomes an edit of the TextArea (the changed span only, so the widget's own
undo, Ctrl+_, keeps working).

INSERT is the widget's usual typing (only Esc is taken), so keystroke echo is unchanged; in
NORMAL every printable key is a command and never reaches the text. Enter, the arrows, Tab
and the Ctrl keys pass through either way (Enter sends the prompt in NORMAL too, as in Claude
Code), and Esc in NORMAL goes on to the app (interrupt, Esc Esc rewind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widgets.text_area import Document

from claude_harness.frontends.tui.widgets.vim_keys import INSERT, NORMAL, Edit, VimKeys

if TYPE_CHECKING:
    from textual.widgets import TextArea

NORMAL_AS_COMMAND = {"backspace": "h", "delete": "x"}


def handle_vim_key(area: TextArea, vim: VimKeys, event: events.Key) -> bool:
    """Apply `event` in vim mode; True when it was taken (the caller stops it)."""
    if vim.mode == INSERT:
        if event.key != "escape":
            return bool(vim.remaps) and _insert_remap(area, vim, event)
        text, cursor = _state(area)
        apply_edit(area, vim.escape(text, cursor))
        return True
    char = NORMAL_AS_COMMAND.get(event.key) or (event.character if event.is_printable else None)
    if char is None:
        if event.key == "escape" and vim.pending:
            vim.pending = ""  # Esc cancels a half-typed command, as in vim
            return True
        return False
    text, cursor = _state(area)
    edit = vim.key(char, text, cursor)
    if edit is not None:
        apply_edit(area, edit)
    return True


def _insert_remap(area: TextArea, vim: VimKeys, event: events.Key) -> bool:
    """`vimInsertModeRemaps`: the second character of "jj" takes back the first and leaves
    INSERT, when the first was typed just before it."""
    text, cursor = _state(area)
    char = event.character if event.is_printable else None
    if char is None:
        vim.typed_at = -1
        return False
    if vim.typed_at == cursor and text[cursor - 1:cursor] + char in vim.remaps:
        vim.typed_at = -1
        without = text[:cursor - 1] + text[cursor:]
        apply_edit(area, Edit(without, cursor - 1))
        apply_edit(area, vim.escape(without, cursor - 1))
        return True
    vim.typed_at = cursor + len(char)
    return False


def _document(area: TextArea) -> Document:
    """The area's document as a `Document` (plain or syntax-aware, the only kinds a TextArea
    makes): `DocumentBase` lacks the index <-> location conversions the edits need."""
    document = area.document
    if not isinstance(document, Document):
        raise TypeError(f"vim keys need a text Document, not {type(document).__name__}")
    return document


def _state(area: TextArea) -> tuple[str, int]:
    return area.text, _document(area).get_index_from_location(area.cursor_location)


def apply_edit(area: TextArea, edit: Edit) -> None:
    """Replace only what changed, then place the cursor."""
    old = area.text
    if edit.text != old:
        prefix = 0
        limit = min(len(old), len(edit.text))
        while prefix < limit and old[prefix] == edit.text[prefix]:
            prefix += 1
        suffix = 0
        while (suffix < limit - prefix
               and old[len(old) - 1 - suffix] == edit.text[len(edit.text) - 1 - suffix]):
            suffix += 1
        document = _document(area)
        start = document.get_location_from_index(prefix)
        end = document.get_location_from_index(len(old) - suffix)
        area.replace(edit.text[prefix:len(edit.text) - suffix], start, end)
    area.move_cursor(_document(area).get_location_from_index(min(edit.cursor, len(edit.text))))


def mode_label(vim: VimKeys | None) -> str:
    """What the footer shows: `-- INSERT --` in INSERT, nothing in NORMAL (as Claude Code)."""
    return "" if vim is None or vim.mode == NORMAL else f"-- {vim.mode} --"
