"""Keys pressed while a turn runs, when prompt-toolkit is not reading the terminal.

Between prompts the terminal would be in cooked mode: typed keys would echo into the answer
and Esc or Shift+Tab would do nothing. Instead the REPL reads the keyboard itself (no echo, no
line buffering, signals kept so Ctrl+C still interrupts): Esc interrupts the turn, Shift+Tab
cycles the permission mode, Ctrl+B sends the running command to the background, and text typed
then Enter goes to the session at once (it steers the turn: the model reads it after the current
tool batch); text not yet sent is kept as type-ahead for the next prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import termios
from collections.abc import Callable, Iterator

ESC = "\x1b"
BACKTAB = "\x1b[Z"
CTRL_B = "\x02"
ERASE = ("\x7f", "\x08")


class TurnKeys:
    def __init__(self, on_escape: Callable[[], None], on_backtab: Callable[[], None],
                 on_background: Callable[[], None] | None = None,
                 on_send: Callable[[str], None] | None = None) -> None:
        self.on_escape = on_escape
        self.on_backtab = on_backtab
        self.on_background = on_background
        self.on_send = on_send
        self.typeahead = ""
        self._fd = -1
        self._saved: list | None = None  # type: ignore[type-arg]

    def feed(self, data: str) -> None:
        """Interpret one read: a lone ESC, Shift+Tab, or text (other sequences are dropped)."""
        if data == ESC:
            self.on_escape()
            return
        while data:
            if data.startswith(BACKTAB):
                self.on_backtab()
                data = data[len(BACKTAB):]
            elif data.startswith(ESC):
                return  # arrows, function keys...: nothing to do mid-turn
            else:
                ch, data = data[0], data[1:]
                if ch in ERASE:
                    self.typeahead = self.typeahead[:-1]
                elif ch == CTRL_B and self.on_background is not None:
                    self.on_background()
                elif ch in "\r\n" and self.on_send is not None and self.typeahead.strip():
                    text, self.typeahead = self.typeahead, ""
                    self.on_send(text)
                elif ch in "\r\n":
                    self.typeahead += "\n"
                elif ch.isprintable() or ch == "\t":
                    self.typeahead += ch

    def take_typeahead(self) -> str:
        text, self.typeahead = self.typeahead.rstrip("\n"), ""
        return text

    @contextlib.contextmanager
    def active(self, enabled: bool) -> Iterator[None]:
        """Read keys for the duration of the block (only on a real terminal)."""
        if not enabled or not sys.stdin.isatty():
            yield
            return
        self._start()
        try:
            yield
        finally:
            self._stop()

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        """Give the terminal back (a permission prompt reads it), then take it again."""
        was_active = self._fd >= 0
        if was_active:
            self._stop()
        try:
            yield
        finally:
            if was_active:
                self._start()

    def _start(self) -> None:
        fd = sys.stdin.fileno()
        try:
            saved = termios.tcgetattr(fd)
        except termios.error:
            return
        quiet = list(saved)
        quiet[3] &= ~(termios.ECHO | termios.ICANON)  # lflag; ISIG stays: Ctrl+C is SIGINT
        quiet[6] = list(saved[6])
        quiet[6][termios.VMIN] = 1
        quiet[6][termios.VTIME] = 0
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        self._fd, self._saved = fd, saved
        asyncio.get_running_loop().add_reader(fd, self._readable)

    def _stop(self) -> None:
        if self._fd < 0:
            return
        fd, self._fd = self._fd, -1
        asyncio.get_running_loop().remove_reader(fd)
        if self._saved is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(fd, termios.TCSANOW, self._saved)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, 1024)
        except OSError:
            data = b""
        if not data:  # the terminal hung up: stop watching it (it would stay "readable")
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._fd)
            return
        self.feed(data.decode("utf-8", "replace"))
