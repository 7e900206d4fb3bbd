"""Open buffers an editor holds: the one hook through which a front end's client reads files
for the tools (ACP's `fs/read_text_file`).

A front end whose client offers it sets `buffer_reader` before its session starts; the session's
tasks inherit it (a context variable), so it applies to that session alone. Read asks it first
for a text file and shows the editor's text, unsaved changes included, numbered as usual; None
(or no reader) means the disk, as always. Permissions are checked before, as for any Read."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar

BufferReader = Callable[[str], Awaitable[str | None]]
"""`await reader(absolute_path)`: the buffer's whole text, or None to read the disk."""

buffer_reader: ContextVar[BufferReader | None] = ContextVar("buffer_reader", default=None)
