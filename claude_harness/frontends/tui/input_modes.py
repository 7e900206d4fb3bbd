"""The app's input modes: vim editing (`editorMode`, /vim: frontends/tui/widgets/vim_keys.py), the
keybindings file (frontends/tui/keymap.py) and the Ctrl+S stash (prompt_stash.py).

A mixin of HarnessApp, kept out of app.py: it needs only the app's prompt, footer, notices and
the key actions the keybindings name.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual import events

from claude_harness.frontends.shared.prompt_stash import PromptStash
from claude_harness.frontends.tui.widgets.prompt_input import PromptInput

if TYPE_CHECKING:
    from textual.app import App


class InputModes:
    """Vim mode, custom keys and the stash, for HarnessApp."""

    stash: PromptStash
    keymap: Any
    _keymap_stamp: int | None = None
    cwd: Path
    prompt: PromptInput
    status: Any
    focused: Any
    if TYPE_CHECKING:  # the App's and HarnessApp's own (stubs here would shadow them)
        def notify(self, message: str, **kwargs: Any) -> None: ...
        async def post_notice(self, text: str, level: str = "info", *,
                              boxed: bool = False) -> None: ...

    def apply_editor_mode(self, mode: str | None = None) -> None:
        """`editorMode` from the settings (at start), or as /vim just set it."""
        if mode is None:
            from claude_harness.config.editor_mode import editor_mode

            mode = editor_mode(self.cwd)
        if (mode == "vim") != (self.prompt.vim is not None):
            self.prompt.set_vim(mode == "vim")
        if self.prompt.vim is not None:
            from claude_harness.config.editor_mode import insert_remaps

            self.prompt.vim.remaps = insert_remaps(self.cwd)

    def on_prompt_input_vim_mode_changed(self, message: PromptInput.VimModeChanged) -> None:
        self.status.set_state(vim=message.label)

    def load_keymap(self) -> list[str]:
        """The keybindings file (at start, after /keybindings, and when it changed since:
        checked as each prompt goes out); the problems it has."""
        from claude_harness.config.keybindings import file_stamp, load_keybindings
        from claude_harness.frontends.tui.keymap import AppKeymap

        self._keymap_stamp = file_stamp()
        keymap = AppKeymap(self, load_keybindings())
        self.keymap = None if keymap.empty else keymap
        return [p.message for p in keymap.bindings.problems]

    async def reload_keymap_if_changed(self) -> None:
        from claude_harness.config.keybindings import file_stamp

        if getattr(self, "_keymap_stamp", None) != file_stamp():
            problems = self.load_keymap()
            if problems:
                await self.post_notice("\n".join(f"Keybindings: {p}" for p in problems),
                                       "warning")

    async def on_event(self, event: events.Event) -> None:
        if self.keymap is not None and isinstance(event, events.Key) \
                and not event.is_forwarded and await self.keymap.intercept(event):
            return
        app = cast("App[None]", super())  # App.on_event: next in HarnessApp's MRO
        await app.on_event(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Ctrl+S (a priority binding) is the stash only in the prompt: elsewhere the key
        goes on to the screen's own Ctrl+S (the /agents panel's "create the agent")."""
        if action == "stash" and self.focused is not self.prompt:
            return False
        app = cast("App[None]", super())  # App.check_action: next in HarnessApp's MRO
        return app.check_action(action, parameters)

    def action_stash(self) -> None:
        """Ctrl+S: the draft aside (input cleared), or back when the input is empty."""
        if self.focused is not self.prompt:
            return
        done = self.stash.toggle(self.prompt.text, self.prompt.pasted)
        if done is not None:
            self.prompt.set_text(done[0])
            self.notify(done[1], timeout=3)

    def restore_stash(self) -> None:
        """A prompt went out: the stashed draft comes back into the emptied input."""
        if self.stash.held and not self.prompt.text.strip():
            self.prompt.set_text(self.stash.take(self.prompt.pasted))
            self.notify("draft restored", timeout=5)

    async def open_keybindings(self, path: Path) -> None:
        """/keybindings: the file in $VISUAL/$EDITOR (when one is set), then read again."""
        from claude_harness.frontends.tui.edit_file import edit_file  # on /keybindings only

        await edit_file(self, path)
        problems = self.load_keymap()
        if problems:
            await self.post_notice("\n".join(f"Keybindings: {p}" for p in problems), "warning")
