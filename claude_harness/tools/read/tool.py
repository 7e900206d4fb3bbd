"""Read: decide what kind of thing a path is, then hand it to the reader for that kind.

Order matters: the path is checked (absolute, exists, maybe under an invisible-space variant),
then stat'ed *before* anything is opened, so devices and pipes are refused without ever
blocking; only then does the file's kind (directory, image, PDF, notebook, binary, text) pick
the reader. Every successful text read is recorded in read_file_state, which is what lets Edit
and Write change the file afterwards.
"""

from __future__ import annotations

import asyncio
import os
import stat
from dataclasses import dataclass

from pydantic import Field

from claude_harness.protocol.client_files import buffer_reader
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    ContentBlocks,
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
)
from claude_harness.tools.file_common import (
    has_binary_extension,
    looks_binary,
    missing_file_error,
    open_path,
    open_regular,
    record_state,
    refuse_special,
    sniff_encoding,
    stat_or_none,
    state_key,
)
from claude_harness.tools.read.directory import list_directory
from claude_harness.tools.read.images import is_image_path, read_image
from claude_harness.tools.read.notebook import MAX_NOTEBOOK_BYTES, read_notebook
from claude_harness.tools.read.pdf import read_pdf
from claude_harness.tools.read.text import MAX_OUTPUT_CHARS, continuation_note, read_text

_SNIFF_BYTES = 64 * 1024
INLINE_READ_BYTES = 256 * 1024  # read on the event loop up to this size (see _small_text_file)
_BINARY_SNIFF_BYTES = 8 * 1024


class ReadInput(ToolInput):
    file_path: str = Field(description="Absolute path of the file to read.")
    offset: int | None = Field(
        default=None,
        ge=0,
        description="Line number to start at (1-based). Use it with limit for large files.",
    )
    limit: int | None = Field(
        default=None, ge=1, description="How many lines to read (default: up to 2000)."
    )
    pages: str | None = Field(
        default=None,
        description='PDF only: the pages to read, e.g. "3", "1-5" or "1-3,7" (at most 20).',
    )


def _locate(file_path: str) -> tuple[str, os.stat_result]:
    """The path to read and its stat, trying invisible-character variants of a missing name."""
    path = open_path(file_path)  # the path the permission decision was made on
    refuse_special(path, None)
    st = stat_or_none(path)
    if st is None:
        if os.path.islink(path):
            raise ToolError(
                f"{path} is a symbolic link to {os.readlink(path)}, which does not exist.",
                code="file_not_found",
            )
        raise missing_file_error(path)
    refuse_special(os.path.realpath(path), None)
    return path, st


@dataclass(frozen=True)
class SeenFile:
    """A read to record in read_file_state once the worker thread is done (the cache is only
    touched on the event loop's thread, so parallel Reads never race on it)."""

    key: str
    content: str
    mtime_ns: int
    partial: bool


def _buffer_fd(text: str) -> int:
    """An editor's buffer as a file descriptor, so it is read exactly as the file would be."""
    fd = os.memfd_create("read-buffer")
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(fd, data):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _read_text_file(inp: ReadInput, path: str, seen: list[SeenFile],
                    buffer: str | None = None) -> str:
    fd = open_regular(path) if buffer is None else _buffer_fd(buffer)
    try:
        st = os.fstat(fd) if buffer is None else os.stat(path)  # the disk's mtime, for Edit
        size = os.fstat(fd).st_size
        head = os.pread(fd, _SNIFF_BYTES, 0)
    except OSError as exc:
        os.close(fd)
        raise ToolError(f"Cannot read {path}: {exc.strerror or exc}.", code="os_error") from exc
    if looks_binary(head[:_BINARY_SNIFF_BYTES]):
        os.close(fd)
        raise ToolError(
            f"{path} looks like a binary file (it contains NUL bytes), so Read will not show it "
            "as text. Use Bash with a suitable tool (file, xxd, unzip -l, sqlite3, ...) instead.",
            code="binary_file",
        )
    encoding = sniff_encoding(head, complete=len(head) < _SNIFF_BYTES)
    offset = max(inp.offset or 1, 1)
    try:
        view = read_text(fd, encoding, offset, inp.limit, size)
    except OSError as exc:
        raise ToolError(f"Cannot read {path}: {exc.strerror or exc}.", code="os_error") from exc

    if view.shown == 0:
        if offset == 1 or view.total_lines == 0:
            seen.append(SeenFile(state_key(path), "", st.st_mtime_ns, partial=False))
            return f"(The file {path} exists but is empty.)"
        return (
            f"(The file {path} has {view.total_lines} line(s), so offset {offset} is past its "
            f"end. Nothing to show; use an offset from 1 to {view.total_lines}.)"
        )
    seen.append(SeenFile(state_key(path), view.content, st.st_mtime_ns, not view.complete))
    note = continuation_note(view, path, size, explicit_limit=inp.limit is not None)
    return view.rendered + ("\n\n" + note if note else "")


def read_sync(inp: ReadInput, seen: list[SeenFile],
              buffer: str | None = None) -> str | ContentBlocks:
    """The whole Read, synchronous (it runs in a worker thread); files whose text was shown are
    appended to `seen`. `buffer`: the editor's text of this file (client_files), read instead of
    the disk when the file is text."""
    path, st = _locate(inp.file_path)
    if stat.S_ISDIR(st.st_mode):
        return list_directory(path)
    refuse_special(path, st)
    ext = os.path.splitext(path)[1].lower()
    if inp.pages is not None and ext != ".pdf":
        raise ToolError("pages only applies to PDF files; use offset and limit for text.")
    if is_image_path(path):
        return read_image(path, open_regular(path))
    if ext == ".pdf":
        os.close(open_regular(path))  # refuse unreadable/special before pypdf opens it
        return read_pdf(path, inp.pages, MAX_OUTPUT_CHARS)
    if ext == ".ipynb":
        if st.st_size > MAX_NOTEBOOK_BYTES:
            raise ToolError(f"{path} is too large ({st.st_size >> 20} MB) to read as a notebook.")
        with os.fdopen(open_regular(path), "rb") as handle:
            raw = handle.read()
            mtime_ns = os.fstat(handle.fileno()).st_mtime_ns
        text = read_notebook(path, raw, MAX_OUTPUT_CHARS)
        # recorded as seen so Write may replace the notebook after this read
        seen.append(SeenFile(state_key(path), raw.decode("utf-8", "replace"), mtime_ns, False))
        return text
    if has_binary_extension(path):
        raise ToolError(
            f"{path} is a binary file ({ext} files are not text), so Read will not show it. "
            "Use Bash with a suitable tool instead.",
            code="binary_file",
        )
    return _read_text_file(inp, path, seen, buffer)


def _small_text_file(file_path: str) -> bool:
    """A small regular text file is read on the event loop itself: reading it takes a few
    microseconds, the hand-off to a worker thread and back costs more than that (two thread
    wake-ups per Read, far more on a busy machine). Reads never block (open_regular opens with
    O_NONBLOCK and refuses what is not a regular file); anything large, or not plain text,
    still goes to a worker so the loop keeps streaming."""
    if not os.path.isabs(file_path) or is_image_path(file_path) \
            or file_path.endswith((".pdf", ".ipynb")):
        return False
    try:
        info = os.stat(file_path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= INLINE_READ_BYTES


async def _editor_buffer(file_path: str) -> str | None:
    """The editor's text of a text file, when a front end's client reads files for us."""
    reader = buffer_reader.get()
    if reader is None or not os.path.isabs(file_path) or is_image_path(file_path) \
            or has_binary_extension(file_path) or file_path.endswith((".pdf", ".ipynb")):
        return None
    return await reader(file_path)


async def call(inp: ReadInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.abort.aborted:
        raise ToolError("Read was interrupted before it started.", code="aborted")
    seen: list[SeenFile] = []
    buffer = await _editor_buffer(inp.file_path)
    if _small_text_file(inp.file_path):
        data = read_sync(inp, seen, buffer)
    else:
        data = await asyncio.to_thread(read_sync, inp, seen, buffer)
    for item in seen:
        record_state(ctx, item.key, item.content, item.mtime_ns, item.partial)
    return ToolResult(data=data)


def render_result(data: str | ContentBlocks) -> str | ContentBlocks:
    return data
