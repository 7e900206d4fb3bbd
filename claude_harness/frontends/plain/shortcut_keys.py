"""The REPL prompt's shortcut keys: Esc Esc (on an empty prompt) rewinds, Alt+P picks
a model, Ctrl+G edits the prompt in $EDITOR, Ctrl+V pastes an image from the clipboard, `?` on
an empty prompt shows the shortcuts (ShortcutsPanel). (Ctrl+R, reverse history search, and
Ctrl+_, undo, are prompt-toolkit's own.)

Esc Esc and Alt+P leave the prompt with the slash command they stand for, so the REPL runs
`/rewind` or `/model` exactly as if it had been typed (without adding it to the history).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import (
    Condition,
    emacs_insert_mode,
    is_searching,
    vi_navigation_mode,
)
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from claude_harness.frontends.plain.input_modes import vi_insert
from claude_harness.frontends.shared.clipboard_image import mention_for, paste_image

REWIND = "/rewind"
MODEL = "/model"


def shortcut_bindings() -> KeyBindings:
    kb = KeyBindings()
    empty = Condition(lambda: _current_text() == "")

    @kb.add("escape", "escape", filter=empty & ~vi_insert)  # vim's Esc leaves INSERT at once
    def _rewind(event: KeyPressEvent) -> None:
        event.app.exit(result=REWIND)

    @kb.add("escape", "p", filter=~vi_insert)
    def _model(event: KeyPressEvent) -> None:
        event.app.exit(result=MODEL)

    @kb.add("c-g")
    def _editor(event: KeyPressEvent) -> None:
        event.current_buffer.open_in_editor(validate_and_handle=False)

    @kb.add("c-v")
    def _paste_image(event: KeyPressEvent) -> None:
        event.app.create_background_task(_attach_image(event.current_buffer))

    return kb


class ShortcutsPanel:
    """`?` typed on an empty prompt lists the keys above the toolbar instead of typing a `?`,
    as Claude Code (and the app) do; `?` again, or any change to the text, puts it away. A `?`
    anywhere else, or a pasted `?...`, is text. In vim's NORMAL too (an empty prompt has
    nothing to search), while with text there `?` stays vim's backward search. The list is the app's (shared/shortcuts.py),
    less the keys of the app's own screens."""

    def __init__(self) -> None:
        self.shown = False

    def bindings(self) -> KeyBindings:
        kb = KeyBindings()
        empty = Condition(lambda: _current_text() == "")
        typing_or_normal = emacs_insert_mode | vi_insert | vi_navigation_mode

        @kb.add("?", filter=empty & typing_or_normal & ~is_searching)
        def _toggle(event: KeyPressEvent) -> None:
            self.shown = not self.shown

        return kb

    def hide(self, _buffer: Any = None) -> None:
        """The text changed (or a new prompt starts): the panel goes away."""
        self.shown = False

    def around(self, toolbar: Callable[[], FormattedText]) -> Callable[[], FormattedText]:
        """The toolbar, with the panel's rows above it while the panel is shown."""
        def draw() -> FormattedText:
            if not self.shown:
                return toolbar()
            from claude_harness.frontends.shared.shortcuts import SCREEN_ONLY, shortcuts_text

            rows = "\n".join(f" {row}" for row in shortcuts_text(SCREEN_ONLY).splitlines())
            return FormattedText([("class:toolbar.info", rows + "\n"), *toolbar()])

        return draw


def _current_text() -> str:
    return get_app().current_buffer.text


async def _attach_image(buffer: Buffer) -> None:
    path = await asyncio.to_thread(paste_image)
    if path is not None:
        buffer.insert_text(mention_for(path, buffer.document.text_before_cursor))
