"""The pipe itself: JSON lines in from stdin as they arrive, JSON lines out on stdout.

stdin is read by a thread, one line at a time, and each line handed to the event loop at once:
the program writes a permission answer or an interrupt while a turn runs, and it must be seen
then, never after EOF. A thread reads a pipe, a file and a terminal alike (the event loop's pipe
transport refuses regular files). Lines out are compact JSON, non-ASCII kept, as Claude Code
writes them (`JSON.stringify`).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Mapping
from typing import IO, Any


class StdinLines:
    """`await lines.next()` gives the next line (text, without its newline), or None at EOF."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def read() -> None:
            try:
                for raw in iter(self._stream.readline, b""):
                    loop.call_soon_threadsafe(self._queue.put_nowait,
                                              raw.decode("utf-8", "replace").rstrip("\r\n"))
            except (OSError, ValueError):
                pass  # stdin closed under us: the same as EOF
            finally:
                try:
                    loop.call_soon_threadsafe(self._queue.put_nowait, None)
                except RuntimeError:
                    pass  # the loop is already gone: nobody waits for EOF any more

        threading.Thread(target=read, name="sdk-stdin", daemon=True).start()

    async def next(self) -> str | None:
        return await self._queue.get()


class LineWriter:
    """One JSON object per line on `out`, flushed at once; a closed pipe ends the writing."""

    def __init__(self, out: IO[str]) -> None:
        self._out = out
        self.closed = False

    def write(self, line: Mapping[str, Any]) -> None:
        if self.closed:
            return
        try:
            self._out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":"),
                                       default=str) + "\n")
            self._out.flush()
        except (BrokenPipeError, ValueError):
            self.closed = True  # the program went away; the session ends at stdin's EOF
