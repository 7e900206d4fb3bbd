"""The REPL prompt's vim mode, stash and custom keys.

Vim mode is prompt-toolkit's own vi editing (`/vim`, `editorMode: "vim"`), with the mode shown
in the toolbar as Claude Code shows it (`-- INSERT --`). Ctrl+S stashes the draft
(prompt_stash.py). The keybindings file's entries become prompt-toolkit bindings for the actions
the REPL has (its other actions belong to the app's screens); a null entry silences the REPL's
own key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.vi_state import InputMode

from claude_harness.config.keybindings import KeyBindings as FileBindings
from claude_harness.frontends.shared.pasted_text import PastedTexts
from claude_harness.frontends.shared.prompt_stash import STASHED, PromptStash

vi_insert = Condition(lambda: get_app().editing_mode == EditingMode.VI
                      and get_app().vi_state.input_mode == InputMode.INSERT)
"""While vim mode types: Esc must leave INSERT at once, not wait for an Alt+key."""
REPL_CONTEXTS = ("Chat", "Global")


def vi_label(app: Any) -> str:
    """`-- INSERT --` (or `-- REPLACE --`) in vim mode; nothing in NORMAL or normal editing."""
    if app.editing_mode != EditingMode.VI:
        return ""
    mode = app.vi_state.input_mode
    if mode == InputMode.INSERT:
        return "-- INSERT --"
    return "-- REPLACE --" if mode == InputMode.REPLACE else ""


def remap_bindings(remaps: frozenset[str]) -> KeyBindings:
    """`vimInsertModeRemaps` ({"jj": "<Esc>"}): the two characters leave INSERT, as Esc does
    (prompt-toolkit holds the first back until the second shows whether it is the pair)."""
    kb = KeyBindings()

    def leave_insert(event: KeyPressEvent) -> None:
        event.app.vi_state.input_mode = InputMode.NAVIGATION
        buffer = event.current_buffer
        if buffer.document.cursor_position_col > 0:
            buffer.cursor_left()

    for pair in sorted(remaps):
        kb.add(pair[0], pair[1], filter=vi_insert)(leave_insert)
    return kb


def stash_bindings(stash: PromptStash, pasted: PastedTexts) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("c-s")
    def _stash(event: KeyPressEvent) -> None:
        toggle_stash(event, stash, pasted)

    return kb


def toggle_stash(event: KeyPressEvent, stash: PromptStash, pasted: PastedTexts) -> None:
    buffer = event.current_buffer
    done = stash.toggle(buffer.text, pasted)
    if done is not None:
        buffer.text = done[0]
        buffer.cursor_position = len(done[0])
        event.app.invalidate()


def stash_hint(stash: PromptStash) -> str:
    return STASHED if stash.held else ""


def ptk_keys(chord: tuple[str, ...]) -> list[str] | None:
    """A chord in the file's spelling as prompt-toolkit keys (None: the REPL cannot bind it)."""
    keys: list[str] = []
    for stroke in chord:
        *mods, key = stroke.split("+")
        name = {"escape": "escape", "enter": "c-m", "space": "space", "backspace": "c-h",
                "delete": "delete", "tab": "c-i"}.get(key, key)
        if mods == ["shift"] and key == "tab":
            keys.append("s-tab")
            continue
        if mods == ["shift"] and len(key) == 1:
            keys.append(key.upper())
            continue
        if "shift" in mods:
            return None
        if "alt" in mods:
            keys.append("escape")
        keys.append(f"c-{name}" if "ctrl" in mods else name)
    return keys


def custom_bindings(bindings: FileBindings,
                    handlers: dict[str, Callable[[KeyPressEvent], None]]) -> KeyBindings:
    """The file's Chat and Global entries the REPL can carry out."""
    kb = KeyBindings()
    for context in REPL_CONTEXTS:
        for chord, action in bindings.actions.get(context, {}).items():
            keys = ptk_keys(chord)
            if keys is None:
                continue
            handler = _handler(action, handlers)
            if handler is not None:
                kb.add(*keys)(handler)
    return kb


def _handler(action: str | None,
             handlers: dict[str, Callable[[KeyPressEvent], None]]
             ) -> Callable[[KeyPressEvent], None] | None:
    if action is None:
        return lambda event: None  # unbound: the REPL's own key does nothing now
    if action.startswith("command:"):
        line = "/" + action.removeprefix("command:")
        return lambda event: event.app.exit(result=line)
    return handlers.get(action)


def repl_handlers(on_cycle_mode: Callable[[], None], stash: PromptStash,
                  pasted: PastedTexts) -> dict[str, Callable[[KeyPressEvent], None]]:
    """What each action the REPL has does at its prompt."""
    def submit(event: KeyPressEvent) -> None:
        event.current_buffer.validate_and_handle()

    def cycle(event: KeyPressEvent) -> None:
        on_cycle_mode()
        event.app.invalidate()

    def editor(event: KeyPressEvent) -> None:
        event.current_buffer.open_in_editor(validate_and_handle=False)

    def search(event: KeyPressEvent) -> None:
        from prompt_toolkit.key_binding.bindings.search import start_reverse_incremental_search

        start_reverse_incremental_search.call(event)

    return {
        "chat:submit": submit, "chat:cycleMode": cycle, "chat:externalEditor": editor,
        "chat:newline": lambda event: event.current_buffer.insert_text("\n"),
        "chat:undo": lambda event: event.current_buffer.undo(),
        "chat:clearInput": lambda event: event.current_buffer.reset(),
        "chat:stash": lambda event: toggle_stash(event, stash, pasted),
        "chat:modelPicker": lambda event: event.app.exit(result="/model"),
        "history:previous": lambda event: event.current_buffer.history_backward(),
        "history:next": lambda event: event.current_buffer.history_forward(),
        "history:search": search,
    }
