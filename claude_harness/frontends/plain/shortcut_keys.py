"""The REPL prompt's shortcut keys: Esc Esc (on an empty prompt) rewinds, Alt+P picks
a model, Ctrl+G edits the prompt in $EDITOR, Ctrl+V pastes an image from the clipboard.
(Ctrl+R, reverse history search, is prompt-toolkit's own.)

Esc Esc and Alt+P leave the prompt with the slash command they stand for, so the REPL runs
`/rewind` or `/model` exactly as if it had been typed (without adding it to the history).
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.application.current import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
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


def _current_text() -> str:
    return get_app().current_buffer.text


async def _attach_image(buffer: Buffer) -> None:
    path = await asyncio.to_thread(paste_image)
    if path is not None:
        buffer.insert_text(mention_for(path, buffer.document.text_before_cursor))
