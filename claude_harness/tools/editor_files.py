"""Write, Edit and an approved `sed -i` when the front end's client holds the files' buffers
(protocol/client_files.py): the current text comes from the editor (unsaved changes included)
and the new text goes back through it, so the person sees the change in the buffer they have
open. Nothing here decides anything: the tools' checks and checkpoints run as for the disk."""

from __future__ import annotations

import asyncio
import os

from claude_harness.protocol.client_files import BufferWriter, buffer_reader, buffer_writer
from claude_harness.protocol.tool import ToolError

WRITE_TIMEOUT = 30.0  # seconds an editor may take to write a buffer


def editor_writer() -> BufferWriter | None:
    """The client's writer, when this session's front end has one."""
    return buffer_writer.get()


async def editor_text(path: str) -> str | None:
    """The editor's text of `path` (a text file), or None: read the disk as always."""
    reader = buffer_reader.get()
    if reader is None or not os.path.isabs(path) or not os.path.isfile(path):
        return None
    return await reader(path)


async def write_through_editor(writer: BufferWriter, path: str, text: str) -> int:
    """Have the editor write `text` as the whole of `path`; the file's mtime_ns afterwards (0
    when the editor keeps it in a buffer only). A refusal is the tool's error: nothing of ours
    touched the disk, so the file is as it was."""
    try:
        await asyncio.wait_for(writer(path, text), WRITE_TIMEOUT)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the client's failure, in the client's words
        reason = str(exc) or type(exc).__name__
        data = getattr(exc, "data", None)
        if data:
            reason = f"{reason} ({data})"
        raise ToolError(f"The editor could not write {path}: {reason}. Nothing was written.",
                        code="client_write_failed") from exc
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0
