"""The input side of the REPL: a prompt-toolkit session on a real terminal, or plain line reads
when the terminal is dumb or stdout is not a terminal (so no control sequence is ever written).

Both give the REPL the same three calls: read a prompt, pick a permission choice, read a line
of feedback. Exit (Ctrl+D, Ctrl+C twice on an empty line) is `read()` returning None.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any, Protocol

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import ThreadedCompleter
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.styles import Style

from claude_harness.frontends.plain.choice import (
    Choice,
    ChoiceMenu,
    ChoiceResult,
    parse_typed_choice,
)
from claude_harness.frontends.plain.completion import PlainCompleter
from claude_harness.frontends.plain.elicitation import prompt_toolkit_reader
from claude_harness.frontends.plain.keys import (
    enable_shift_enter,
    grapheme_bindings,
    paste_bindings,
    prompt_bindings,
    typing_bindings,
)
from claude_harness.frontends.plain.shortcut_keys import ShortcutsPanel, shortcut_bindings
from claude_harness.frontends.shared.pasted_text import PastedTexts
from claude_harness.frontends.shared.prompt_history import PromptHistory
from claude_harness.frontends.shared.prompt_stash import RESTORED, PromptStash

EXIT_WINDOW = 3.0  # seconds between two Ctrl+C on an empty line that exit
EXIT_HINT = "Press Ctrl+C again to exit."


class InputSide(Protocol):
    async def read(self, default: str = "") -> str | None: ...
    async def choose(self, options: list[tuple[Choice, str]]) -> ChoiceResult: ...
    async def feedback(self) -> str: ...
    async def ask_line(self, prompt: str) -> str | None: ...
    def wake(self) -> None: ...
    def stop(self) -> None: ...


class PromptInput:
    """prompt-toolkit: multi-line editing, history file, completion, mode toolbar."""

    def __init__(self, cwd: Path, history_cwd: Path | None, style: dict[str, str],
                 toolbar: Callable[[], FormattedText], on_cycle_mode: Callable[[], None],
                 notify: Callable[[str], None],
                 extra_commands: Callable[[], dict[str, str]] | None = None,
                 recent_files: Callable[[], list[str]] | None = None,
                 vi_mode: bool = False,
                 resources: Callable[[], Any] | None = None) -> None:
        from claude_harness.config.editor_mode import insert_remaps
        from claude_harness.config.keybindings import file_stamp, load_keybindings
        from claude_harness.frontends.plain.input_modes import (
            custom_bindings,
            remap_bindings,
            repl_handlers,
            stash_bindings,
        )

        enable_shift_enter()
        self.style = Style.from_dict(style)
        self.notify = notify
        self._last_interrupt = 0.0
        self._stopped = False  # the REPL is exiting: no prompt starts any more
        self.pasted = PastedTexts()  # long pastes shown as placeholders until sent
        self.stash = PromptStash()  # Ctrl+S; an old stash replaced goes into the history
        self._handlers = repl_handlers(on_cycle_mode, self.stash, self.pasted)
        self.shortcuts = ShortcutsPanel()  # `?` on an empty prompt
        self._own_keys = [typing_bindings(), prompt_bindings(on_cycle_mode), grapheme_bindings(),
                          shortcut_bindings(), self.shortcuts.bindings(),
                          paste_bindings(self.pasted, cwd),
                          stash_bindings(self.stash, self.pasted),
                          remap_bindings(insert_remaps(cwd))]
        self._keys_stamp = file_stamp()
        self.keybindings = load_keybindings()
        custom = custom_bindings(self.keybindings, self._handlers)
        self.session: PromptSession[str] = PromptSession(
            message=FormattedText([("class:prompt", "> ")]),
            multiline=True,
            prompt_continuation="  ",
            history=_history(history_cwd, self.pasted.expand),
            completer=ThreadedCompleter(PlainCompleter(cwd, extra=extra_commands,
                                                       recent=recent_files,
                                                       resources=resources)),
            complete_while_typing=True,
            key_bindings=merge_key_bindings([*self._own_keys, custom]),
            vi_mode=vi_mode,
            bottom_toolbar=self.shortcuts.around(toolbar),
            style=self.style,
            enable_history_search=False,
            reserve_space_for_menu=4,
        )
        self.stash.on_replaced = self.session.history.append_string
        self.session.default_buffer.on_text_changed += self.shortcuts.hide

    def reload_keybindings(self) -> None:
        """The keybindings file again (after /keybindings edited it)."""
        from claude_harness.config.keybindings import file_stamp, load_keybindings
        from claude_harness.frontends.plain.input_modes import custom_bindings

        self._keys_stamp = file_stamp()
        self.keybindings = load_keybindings()
        self.session.key_bindings = merge_key_bindings(
            [*self._own_keys, custom_bindings(self.keybindings, self._handlers)])

    def _reload_keys_if_changed(self) -> None:
        """An edited keybindings file applies from the next prompt, without a restart."""
        from claude_harness.config.keybindings import file_stamp

        if file_stamp() != self._keys_stamp:
            self.reload_keybindings()
            for problem in self.keybindings.problems:
                self.notify(f"Keybindings: {problem.message}")

    def set_vi_mode(self, enabled: bool) -> None:
        """/vim: prompt-toolkit's vi editing on or off from the next prompt on."""
        from prompt_toolkit.enums import EditingMode

        self.session.editing_mode = EditingMode.VI if enabled else EditingMode.EMACS

    async def read(self, default: str = "") -> str | None:
        self._reload_keys_if_changed()
        if self.stash.held:  # the prompt before went out: the stashed draft comes back
            draft = self.stash.take(self.pasted)
            default = f"{draft}\n{default}" if default else draft
            self.notify(RESTORED)
        while not self._stopped:
            self.shortcuts.hide()
            try:
                text = await self.session.prompt_async(default=default, handle_sigint=False,
                                                       pre_run=self._exit_if_stopped)
            except (EOFError, OSError):  # end of input, or the terminal is gone
                return None
            except KeyboardInterrupt:
                now = time.monotonic()
                if now - self._last_interrupt < EXIT_WINDOW:
                    return None
                self._last_interrupt = now
                default = ""
                self.notify(EXIT_HINT)
                continue
            self._last_interrupt = 0.0
            expanded = self.pasted.expand(text)  # placeholders go out as the whole pastes
            self.pasted.clear()
            return expanded
        return None

    def _exit_if_stopped(self) -> None:
        """A stop that came while no prompt ran (between two reads) still ends the next one."""
        if self._stopped:
            self.session.app.exit(exception=EOFError)

    async def choose(self, options: list[tuple[Choice, str]]) -> ChoiceResult:
        return await ChoiceMenu(options, self.style).run()

    async def feedback(self) -> str:
        session: PromptSession[str] = PromptSession(style=self.style)
        try:
            text = await session.prompt_async(
                FormattedText([("class:prompt", "  What should the model do instead? "
                                                "(Enter to skip) ")]), handle_sigint=False)
        except (EOFError, KeyboardInterrupt):
            return ""
        return text.strip()

    async def ask_line(self, prompt: str) -> str | None:
        """One line for a question (an MCP server's form field, a picker's number); Esc, Ctrl+C
        or Ctrl+D: None."""
        return await prompt_toolkit_reader(self.style)(prompt)

    def wake(self) -> None:
        """Ctrl+C arrives as a key while prompt-toolkit reads; nothing to do here."""

    def stop(self) -> None:
        """End a pending read as the end of input would (the REPL is exiting); prompt-toolkit
        puts the terminal back as it found it."""
        self._stopped = True
        app = self.session.app
        if app.is_running:
            app.exit(exception=EOFError)


class SharedHistory(History):
    """prompt-toolkit's view of the per-project prompt history the Textual app also uses."""

    def __init__(self, prompts: PromptHistory,
                 expand: Callable[[str], str] | None = None) -> None:
        """`expand`: the prompt as sent (long pastes whole), what the shared file keeps: a
        placeholder would mean nothing to a later session."""
        super().__init__()
        self.prompts = prompts
        self.expand = expand or (lambda text: text)

    def load_history_strings(self) -> Iterable[str]:
        return reversed(self.prompts.entries)  # newest first, as prompt-toolkit expects

    def store_string(self, string: str) -> None:
        self.prompts.add(string)

    def append_string(self, string: str) -> None:
        """What is recalled with Up is what was sent, as in the app."""
        super().append_string(self.expand(string))


def _history(path: Path | None,
             expand: Callable[[str], str] | None = None) -> SharedHistory | InMemoryHistory:
    """The shared history of the project at `path`, or a throwaway one."""
    if path is None:
        return InMemoryHistory()
    return SharedHistory(PromptHistory.for_project(path), expand)


class LineInput:
    """Plain reads from stdin: for TERM=dumb, a pipe on stdout, or a non-terminal stdin.

    A daemon thread reads lines so a blocked read never keeps the process alive at exit;
    Ctrl+C (SIGINT, forwarded by the REPL as `wake()`) counts like on the prompt.
    """

    _EOF = object()
    _WAKE = object()

    def __init__(self, out: IO[str] | None = None, stream: IO[str] | None = None,
                 history_cwd: Path | None = None) -> None:
        self.out = out or sys.stdout
        self.stream = stream or sys.stdin
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._last_interrupt = 0.0
        self._tty_in = self.stream.isatty()
        # Only a person typing adds to the shared history; a piped script does not.
        self._history = _history(history_cwd) if self._tty_in and history_cwd else None
        threading.Thread(target=self._pump, name="plain-stdin", daemon=True).start()

    def _pump(self) -> None:
        while True:
            try:
                line = self.stream.readline()
            except (OSError, ValueError):
                line = ""
            if not line:
                self._loop.call_soon_threadsafe(self._queue.put_nowait, self._EOF)
                return
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line.rstrip("\r\n"))

    def wake(self) -> None:
        self._queue.put_nowait(self._WAKE)

    def stop(self) -> None:
        """End a pending read as the end of input would (the REPL is exiting)."""
        self._queue.put_nowait(self._EOF)

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def _echo(self, line: str) -> None:
        """A terminal echoes what is typed; a pipe does not, so the transcript shows it."""
        if not self._tty_in:
            self._write(line + "\n")

    async def _line(self) -> object:
        return await self._queue.get()

    async def read(self, default: str = "") -> str | None:
        self._write("> ")
        parts: list[str] = []
        while True:
            item = await self._line()
            if item is self._EOF:
                self._echo("")
                return "\n".join(parts) if parts else None
            if item is self._WAKE:
                now = time.monotonic()
                if not parts and now - self._last_interrupt < EXIT_WINDOW:
                    return None
                self._last_interrupt = now
                parts = []
                self._write(f"\n{EXIT_HINT}\n> ")
                continue
            line = str(item)
            self._echo(line)
            if line.endswith("\\"):
                parts.append(line[:-1])
                continue
            parts.append(line)
            self._last_interrupt = 0.0
            text = "\n".join(parts)
            if self._history is not None and text.strip():
                self._history.append_string(text)
            return text

    async def choose(self, options: list[tuple[Choice, str]]) -> ChoiceResult:
        self._write("Do you want to proceed?\n")
        for number, (_choice, label) in enumerate(options, 1):  # 1, 2(, 3): no gaps
            self._write(f"  {number}. {label}\n")
        while True:
            self._write(f"Choose 1-{len(options)}: ")
            item = await self._line()
            if item is self._EOF:
                return ChoiceResult("no", via_escape=True)
            if item is self._WAKE:
                return ChoiceResult("no", interrupted=True)
            self._echo(str(item))
            picked = parse_typed_choice(str(item), options)
            if picked is not None:
                return ChoiceResult(picked)

    async def ask_line(self, prompt: str) -> str | None:
        """One answer to a question of ours (a picker's number); None at the end of input."""
        self._write(prompt)
        item = await self._line()
        if item is self._EOF or item is self._WAKE:
            self._echo("")
            return None
        self._echo(str(item))
        return str(item)

    async def feedback(self) -> str:
        self._write("  What should the model do instead? (Enter to skip) ")
        item = await self._line()
        if item is self._EOF or item is self._WAKE:
            self._echo("")
            return ""
        self._echo(str(item))
        return str(item).strip()


def terminal_capable() -> bool:
    """prompt-toolkit only on a real, non-dumb terminal on both ends."""
    return (sys.stdin.isatty() and sys.stdout.isatty()
            and os.environ.get("TERM", "") not in ("dumb", "unknown"))
