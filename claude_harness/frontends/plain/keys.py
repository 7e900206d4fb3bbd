"""Key bindings of the prompt: Enter sends, newline keys, Shift+Tab, Ctrl+C, typing's undo steps.

Shift+Enter is only distinguishable where the terminal reports it (xterm modifyOtherKeys or the
kitty/CSI-u protocol); those sequences arrive as a key of their own (SHIFT_ENTER), a newline
wherever typing goes in, vim's INSERT included. As Alt+Enter's pair (Escape, Enter) vim took
the Escape as leaving INSERT, and the Enter then sent the prompt.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.filters import emacs_insert_mode, is_searching, vi_insert_mode
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.key_binding import KeyBindings, KeyPress, KeyPressEvent
from prompt_toolkit.keys import Keys

from claude_harness.frontends.plain.input_modes import vi_insert
from claude_harness.frontends.shared.pasted_text import PastedTexts

SHIFT_ENTER_SEQUENCES = ("\x1b[27;2;13~", "\x1b[13;2u")
SHIFT_ENTER = Keys.ControlF24  # a stand-in no keyboard sends: prompt-toolkit has no Shift+Enter
UNDO_PAUSE = 2.0  # seconds without typing that close an undo step (the app's TextArea's too)


def enable_shift_enter() -> None:
    """Make the reported Shift+Enter sequences arrive as SHIFT_ENTER, one key with no Escape
    in it (vim's Esc leaves INSERT at once, so an Escape-prefixed newline cannot work there)."""
    for seq in SHIFT_ENTER_SEQUENCES:
        ANSI_SEQUENCES[seq] = SHIFT_ENTER


def prompt_bindings(on_cycle_mode: Callable[[], None]) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("enter", filter=~is_searching)  # while Ctrl+R searches, Enter accepts the match
    def _enter(event: KeyPressEvent) -> None:
        buf = event.current_buffer
        state = buf.complete_state
        if state is not None and state.current_completion is not None:
            buf.apply_completion(state.current_completion)
            return
        if buf.document.text_before_cursor.endswith("\\"):
            buf.delete_before_cursor(1)
            buf.insert_text("\n")
            return
        buf.validate_and_handle()

    @kb.add("escape", "enter", filter=~vi_insert)  # vim's Esc leaves INSERT at once
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    typing = (emacs_insert_mode | vi_insert_mode) & ~is_searching

    @kb.add(SHIFT_ENTER, filter=typing)  # in emacs editing and vim's INSERT alike
    def _shift_newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    @kb.add(SHIFT_ENTER, filter=~typing)  # vim's NORMAL, a Ctrl+R search: what Enter does
    def _shift_enter_as_enter(event: KeyPressEvent) -> None:
        event.key_processor.feed(KeyPress(Keys.ControlM, "\r"), first=True)

    @kb.add("s-tab")
    def _cycle(event: KeyPressEvent) -> None:
        on_cycle_mode()
        event.app.invalidate()

    @kb.add("c-c")
    def _ctrl_c(event: KeyPressEvent) -> None:
        buf = event.current_buffer
        if buf.text:
            buf.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt())

    return kb


def typing_bindings() -> KeyBindings:
    """Typed characters as undo steps people expect: Ctrl+_ (prompt-toolkit's undo) takes back
    the last burst of typing, up to a pause or another key, as the app's does. prompt-toolkit's
    own self-insert saves an undo point before every character (it re-registers the named
    command and so drops its `save_before=if_no_repeat`): Ctrl+_ took back one letter."""
    from prompt_toolkit.key_binding.bindings.named_commands import get_by_name

    kb = KeyBindings()
    last_key = [0.0]  # when the previous character was typed

    def new_step(event: KeyPressEvent) -> bool:
        now, before = time.monotonic(), last_key[0]
        last_key[0] = now
        return not event.is_repeat or now - before > UNDO_PAUSE

    insert_mode = emacs_insert_mode | vi_insert_mode  # where prompt-toolkit types, too
    kb.add(Keys.Any, filter=insert_mode, save_before=new_step)(get_by_name("self-insert").handler)
    return kb


def grapheme_bindings() -> KeyBindings:
    """Left/Right, Backspace and Delete by user-perceived character: prompt-toolkit steps by
    code point, into 👩‍👩‍👧 or between e and its U+0301 accent, and deletes half of it."""
    from claude_harness.frontends.shared.terminal_graphemes import next_boundary, previous_boundary

    kb = KeyBindings()

    def line_and_column(event: KeyPressEvent) -> tuple[str, int]:
        document = event.current_buffer.document
        return document.current_line, document.cursor_position_col

    @kb.add("left", filter=~is_searching)
    def _left(event: KeyPressEvent) -> None:
        line, column = line_and_column(event)
        if column > 0:
            event.current_buffer.cursor_position -= column - previous_boundary(line, column)

    @kb.add("right", filter=~is_searching)
    def _right(event: KeyPressEvent) -> None:
        line, column = line_and_column(event)
        if column < len(line):
            event.current_buffer.cursor_position += next_boundary(line, column) - column

    @kb.add("backspace", filter=~is_searching)
    def _backspace(event: KeyPressEvent) -> None:
        line, column = line_and_column(event)
        size = column - previous_boundary(line, column) if column > 0 else 1
        event.current_buffer.delete_before_cursor(size)

    @kb.add("delete", filter=~is_searching)
    def _delete(event: KeyPressEvent) -> None:
        line, column = line_and_column(event)
        size = next_boundary(line, column) - column if column < len(line) else 1
        event.current_buffer.delete(size)

    return kb


def paste_bindings(pasted: PastedTexts, cwd: Path) -> KeyBindings:
    """A bracketed paste as Claude Code takes it: a dropped image path becomes an `@` mention,
    a long paste a `[Pasted text #1 +120 lines]` placeholder the REPL expands on send."""
    from claude_harness.frontends.shared.clipboard_image import mention_for
    from claude_harness.frontends.shared.pasted_text import (
        dropped_image,
        normalize_newlines,
        should_collapse,
    )

    kb = KeyBindings()

    @kb.add(Keys.BracketedPaste)
    def _paste(event: KeyPressEvent) -> None:
        buf = event.current_buffer
        text = normalize_newlines(event.data)
        image = dropped_image(text, cwd)
        if image is not None:
            text = mention_for(image, buf.document.current_line_before_cursor)
        elif should_collapse(text, event.app.output.get_size().rows):
            text = pasted.add(text)
        buf.insert_text(text)

    return kb
