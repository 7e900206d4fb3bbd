"""Key bindings of the prompt: Enter sends, newline keys, Shift+Tab, Ctrl+C.

Shift+Enter is only distinguishable where the terminal reports it (xterm modifyOtherKeys or the
kitty/CSI-u protocol); those sequences are mapped to the same key pair as Alt+Enter.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import is_searching
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

SHIFT_ENTER_SEQUENCES = ("\x1b[27;2;13~", "\x1b[13;2u")


def enable_shift_enter() -> None:
    """Make the reported Shift+Enter sequences arrive as Alt+Enter (Escape, Enter)."""
    for seq in SHIFT_ENTER_SEQUENCES:
        ANSI_SEQUENCES[seq] = (Keys.Escape, Keys.ControlM)


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

    @kb.add("escape", "enter")
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

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


def grapheme_bindings() -> KeyBindings:
    """Left/Right, Backspace and Delete by user-perceived character: prompt-toolkit steps by
    code point, into 👩‍👩‍👧 or between e and its U+0301 accent, and deletes half of it."""
    from claude_harness.terminal_graphemes import next_boundary, previous_boundary

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
