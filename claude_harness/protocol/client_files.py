"""Open buffers an editor holds: the one hook through which a front end's client reads files
for the tools and writes them (ACP's `fs/read_text_file`, `fs/write_text_file`).

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

BufferWriter = Callable[[str, str], Awaitable[None]]
"""`await writer(absolute_path, text)`: the editor writes the whole text into its buffer of the
file (and its file); raises, with the client's reason, when it cannot."""

buffer_writer: ContextVar[BufferWriter | None] = ContextVar("buffer_writer", default=None)
"""Set, like `buffer_reader`, by a front end whose client writes files (ACP's
`fs/write_text_file`): Write, Edit and an approved `sed -i` then change the file through the
editor, so the buffer the person looks at shows the change. The tools' checks (read first, not
stale, permission) and the checkpoint before the change are the same as for a disk write."""
