"""The user's keybindings file applied in the app: a key press is looked up in the bindings of
the contexts that are active (Chat while the prompt has focus, Confirmation in a permission
prompt, Select in a choice list, Task while a turn runs, Global always) before Textual's own bindings, so a custom key can take over a default one, a null
entry silences a default, and a chord (`ctrl+x ctrl+e`) waits for its second key.

Only the user's entries are looked up here; the defaults stay Textual bindings, so an app with
no keybindings file pays nothing for this on each keystroke.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events

from claude_harness.config.keybindings import Chord, KeyBindings

# The app's own default keys, by Claude Code context (what a null entry turns off).
DEFAULTS: dict[str, dict[str, str]] = {
    "Global": {"ctrl+t": "app:toggleTodos", "ctrl+o": "app:toggleTranscript",
               "ctrl+r": "history:search"},
    "Chat": {"escape": "chat:cancel", "shift+tab": "chat:cycleMode", "alt+p": "chat:modelPicker",
             "alt+t": "chat:thinkingToggle", "ctrl+g": "chat:externalEditor",
             "ctrl+s": "chat:stash", "ctrl+v": "chat:imagePaste", "ctrl+_": "chat:undo",
             "enter": "chat:submit", "ctrl+j": "chat:newline", "up": "history:previous",
             "down": "history:next"},
    "Task": {"ctrl+b": "task:background"},
    "Confirmation": {"enter": "confirm:yes", "escape": "confirm:no", "up": "confirm:previous",
                     "down": "confirm:next"},
    "Select": {"enter": "select:accept", "escape": "select:cancel", "up": "select:previous",
               "down": "select:next"},
}
# The widgets a dialog context belongs to (by class name: nothing is imported for this).
DIALOGS = {"PermissionPrompt": "Confirmation", "ChoiceList": "Select"}
_TEXTUAL_NAMES = {"slash": "solidus", "backslash": "reverse_solidus", "at": "commercial_at",
                  "minus": "hyphen_minus", "plus": "plus_sign", "underscore": "low_line"}


def stroke_of(event: events.Key) -> str:
    """A Textual key press in the keybindings file's spelling (ctrl+alt+shift+key)."""
    *mods, key = event.key.split("+") if event.key != "+" else ["+"]
    if len(key) == 1 and key.isupper():
        mods, key = [*mods, "shift"], key.lower()
    elif len(key) > 1 and key not in _SPECIAL:
        try:
            key = unicodedata.lookup(_TEXTUAL_NAMES.get(key, key).replace("_", " "))
        except KeyError:
            pass
    order = [m for m in ("ctrl", "alt", "shift") if m in mods]
    return "+".join([*order, key])


_SPECIAL = frozenset({"escape", "enter", "tab", "space", "up", "down", "left", "right",
                      "backspace", "delete", "home", "end", "pageup", "pagedown", "insert",
                      *(f"f{n}" for n in range(1, 25))})


class AppKeymap:
    """The user's bindings, looked up for each key the app receives."""

    def __init__(self, app: Any, bindings: KeyBindings) -> None:
        self.app = app
        self.bindings = bindings
        self.pending: Chord = ()
        self._prefixes = {chord[:i] for table in bindings.actions.values()
                          for chord in table for i in range(1, len(chord))}

    @property
    def empty(self) -> bool:
        return not any(self.bindings.actions.values())

    def contexts(self) -> list[str]:
        """The active contexts, the most specific first."""
        app = self.app
        active = []
        if app.busy:
            active.append("Task")
        focused = app.focused
        if focused is app.prompt:
            active.append("Chat")
        dialog = DIALOGS.get(type(focused).__name__)  # the dialog itself, not a field in it
        if dialog:
            active.append(dialog)
        return [*active, "Global"]

    async def intercept(self, event: events.Key) -> bool:
        """True when the key was a user binding (run, silenced, or a chord's first key)."""
        chord = (*self.pending, stroke_of(event))
        contexts = self.contexts()
        for context in contexts:
            table = self.bindings.actions.get(context, {})
            if chord in table:
                self.pending = ()
                action = table[chord]
                if action is None:  # unbound: the default this key had does nothing now
                    return any(chord[-1] in DEFAULTS.get(c, {}) for c in contexts)
                await run_action(self.app, action)
                return True
        if chord in self._prefixes:
            self.pending = chord
            return True
        self.pending = ()
        return False


async def run_action(app: Any, action: str) -> None:
    """Carry out a Claude Code action name in the app."""
    if action.startswith("command:"):
        from claude_harness.frontends.tui.widgets.prompt_input import PromptInput

        app.prompt.post_message(PromptInput.Submitted("/" + action.removeprefix("command:")))
        return
    dialog = _dialog(app.focused)
    if dialog is not None and action in _DIALOG_ACTIONS:
        _DIALOG_ACTIONS[action](dialog)
        return
    handler = _ACTIONS.get(action)
    if handler is None:
        app.notify(f"{action} has no effect in claude-harness.")
        return
    result = handler(app)
    if result is not None:
        await result


def _dialog(focused: Any) -> Any:
    """The permission prompt or choice list that has focus (a text field in it is typed in)."""
    return focused if type(focused).__name__ in DIALOGS else None


_DIALOG_ACTIONS: dict[str, Callable[[Any], None]] = {
    "confirm:yes": lambda dialog: dialog.action_choose(0),
    "confirm:no": lambda dialog: dialog.action_decline(),
    "confirm:previous": lambda dialog: dialog.action_move(-1),
    "confirm:next": lambda dialog: dialog.action_move(1),
    "select:previous": lambda dialog: dialog.action_move(-1),
    "select:next": lambda dialog: dialog.action_move(1),
    "select:accept": lambda dialog: dialog.action_choose(),
    "select:cancel": lambda dialog: dialog.action_cancel(),
}


def _prompt_history(app: Any, older: bool) -> None:
    prompt = app.prompt
    text = prompt.prompt_history.older(prompt.text) if older else prompt.prompt_history.newer()
    if text is not None:
        prompt.set_text(text)


_ACTIONS: dict[str, Callable[[Any], Awaitable[None] | None]] = {
    "app:toggleTodos": lambda app: app.action_toggle_todos(),
    "app:toggleTranscript": lambda app: app.action_toggle_details(),
    "app:redraw": lambda app: app.refresh(repaint=True, layout=True),
    "app:exit": lambda app: app.action_exit(),
    "app:interrupt": lambda app: app.action_ctrl_c(),
    "history:search": lambda app: app.action_search_history(),
    "history:previous": lambda app: _prompt_history(app, True),
    "history:next": lambda app: _prompt_history(app, False),
    "chat:cancel": lambda app: app.action_interrupt(),
    "chat:cycleMode": lambda app: app.action_cycle_mode(),
    "chat:modelPicker": lambda app: app.action_pick_model(),
    "chat:thinkingToggle": lambda app: app.action_toggle_thinking(),
    "chat:submit": lambda app: app.prompt._submit(),
    "chat:newline": lambda app: app.prompt.insert("\n"),
    "chat:undo": lambda app: app.prompt.action_undo(),
    "chat:externalEditor": lambda app: app.action_edit_prompt(),
    "chat:stash": lambda app: app.action_stash(),
    "chat:imagePaste": lambda app: app.action_paste_image(),
    "chat:clearInput": lambda app: app.prompt.clear(),
    "task:background": lambda app: app.action_background_commands(),
}
