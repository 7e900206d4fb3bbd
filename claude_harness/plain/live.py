"""The only part of the screen the plain REPL redraws: the unfinished text tail and a one-line
status (what is running, for how long, how to interrupt it).

Everything else is printed once into the scrollback. The area is transient: when the turn ends
or a prompt takes the terminal it is erased, leaving only final text behind. Without a real
terminal (a pipe, TERM=dumb) it is disabled and nothing is ever redrawn.
"""

from __future__ import annotations

import time

from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

TAIL_LINES = 8


class LiveArea:
    def __init__(self, console: Console, enabled: bool | None = None) -> None:
        self.console = console
        self.enabled = (console.is_terminal and not console.is_dumb_terminal) \
            if enabled is None else enabled
        self.tail = ""
        self.status = ""
        self.detail = ""
        self._since = time.monotonic()
        self._live: Live | None = None

    def set_tail(self, text: str) -> None:
        self.tail = text
        self._sync()

    def set_status(self, text: str, detail: str = "") -> None:
        if text != self.status:
            self._since = time.monotonic()
        self.status, self.detail = text, detail
        self._sync()

    def set_detail(self, detail: str) -> None:
        self.detail = detail
        self._sync()

    def clear(self) -> None:
        self.tail = self.status = self.detail = ""
        self.stop()

    def stop(self) -> None:
        """Erase the area (its content is kept; the next update shows it again)."""
        if self._live is not None:
            live, self._live = self._live, None
            live.update(Text(""), refresh=True)
            live.stop()

    def resume(self) -> None:
        self._sync()

    def render(self) -> Group:
        parts: list[Text] = []
        if self.tail.strip():
            parts.append(Text("\n".join(self.tail.splitlines()[-TAIL_LINES:])))
        if self.status:
            elapsed = int(time.monotonic() - self._since)
            line = Text(f"{self.status} {elapsed}s · esc to interrupt", style="ch.accent")
            if self.detail:
                line.append(f"\n  {self.detail[: max(10, self.console.width - 4)]}",
                            style="ch.dim")
            parts.append(line)
        return Group(*parts)

    def _sync(self) -> None:
        if not self.enabled:
            return
        if not (self.tail.strip() or self.status):
            self.stop()
            return
        if self._live is None:
            self._live = Live(console=self.console, get_renderable=self.render, transient=True,
                              auto_refresh=True, refresh_per_second=4, vertical_overflow="crop")
            self._live.start()
        self._live.refresh()
