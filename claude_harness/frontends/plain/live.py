"""The only part of the screen the plain REPL redraws: the unfinished text tail and a one-line
status (what is running, for how long, how to interrupt it).

Everything else is printed once into the scrollback. The area is transient: when the turn ends
or a prompt takes the terminal it is erased, leaving only final text behind. Without a real
terminal (a pipe, TERM=dumb) it is disabled and nothing is ever redrawn.

The tail shows the last TAIL_LINES screen rows of the text being written, however long it is:
only the characters that fit are read (`suffix`) and laid out, so a 1 MB line costs no more to
draw than a short one. Streaming text redraws at most REDRAW_PER_SECOND times a second (Rich's
own refresh thread keeps it current in between); a status change redraws at once.
"""

from __future__ import annotations

import time
from typing import Protocol

from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

from claude_harness.text.terminal_safety import strip_unsafe

TAIL_LINES = 8
REDRAW_PER_SECOND = 30


class TailSource(Protocol):
    def suffix(self, limit: int) -> str: ...


class _Fixed:
    def __init__(self, text: str) -> None:
        self.text = text

    def suffix(self, limit: int) -> str:
        return self.text[-limit:] if limit > 0 else ""


def tail_view(text: str, width: int, rows: int) -> str:
    """The last `rows` rows `text` fills at `width` columns (a longer line keeps its end,
    after an ellipsis)."""
    width = max(10, width)
    lines = text.split("\n")
    shown: list[str] = []
    used = 0
    for line in reversed(lines):
        need = max(1, -(-len(line) // width))
        if used + need > rows:
            room = (rows - used) * width
            if room > 1:
                shown.append("…" + line[-(room - 1):])
            break
        shown.append(line)
        used += need
    return "\n".join(reversed(shown))


class LiveArea:
    def __init__(self, console: Console, enabled: bool | None = None) -> None:
        self.console = console
        self.enabled = (console.is_terminal and not console.is_dumb_terminal) \
            if enabled is None else enabled
        self.source: TailSource = _Fixed("")
        self.status = ""
        self.detail = ""
        self._since = time.monotonic()
        self._drawn = 0.0
        self._live: Live | None = None

    @property
    def tail(self) -> str:
        """The text the tail shows (its last TAIL_LINES rows at most)."""
        width = max(10, self.console.width)
        return tail_view(self.source.suffix(width * TAIL_LINES + 1), width, TAIL_LINES)

    def set_tail(self, source: TailSource | str) -> None:
        self.source = _Fixed(source) if isinstance(source, str) else source
        self._sync(throttle=True)

    def set_status(self, text: str, detail: str = "") -> None:
        if text != self.status:
            self._since = time.monotonic()
        self.status, self.detail = strip_unsafe(text), strip_unsafe(detail)
        self._sync()

    def set_detail(self, detail: str) -> None:
        self.detail = strip_unsafe(detail)
        self._sync()

    def clear(self) -> None:
        self.source = _Fixed("")
        self.status = self.detail = ""
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
        tail = strip_unsafe(self.tail)
        if tail.strip():
            parts.append(Text(tail))
        if self.status:
            elapsed = int(time.monotonic() - self._since)
            line = Text(f"{self.status} {elapsed}s · esc to interrupt", style="ch.accent")
            if self.detail:
                line.append(f"\n  {self.detail[: max(10, self.console.width - 4)]}",
                            style="ch.dim")
            parts.append(line)
        return Group(*parts)

    def _has_content(self) -> bool:
        if self.status:
            return True
        tail = self.source.suffix(200)
        return bool(tail) and not tail.isspace()

    def _sync(self, throttle: bool = False) -> None:
        if not self.enabled:
            return
        if not self._has_content():
            self.stop()
            return
        now = time.monotonic()
        if self._live is None:
            self._live = Live(console=self.console, get_renderable=self.render, transient=True,
                              auto_refresh=True, refresh_per_second=4, vertical_overflow="crop")
            self._live.start()
        elif throttle and now - self._drawn < 1 / REDRAW_PER_SECOND:
            return  # the refresh thread draws it shortly
        self._drawn = now
        self._live.refresh()
