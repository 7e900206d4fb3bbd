"""Write: create a file, or replace one the model has read, in one atomic step.

A new file needs no read. Overwriting an existing one does, and the file must not have changed
since: otherwise the model would silently throw away what the user (or a formatter) just wrote.
The old file's encoding (BOM, UTF-16) and CRLF line endings carry over to the new content, since
the model only ever saw the text, never those bytes.
"""

from __future__ import annotations

import asyncio
import os
import stat

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
)
from claude_harness.tools.file_common import (
    UTF8,
    TextEncoding,
    atomic_write,
    decode_file_bytes,
    dominant_eol,
    ensure_fresh,
    ensure_writable,
    looks_binary,
    make_parent_dirs,
    normalize_newlines,
    open_path,
    open_regular,
    record_state,
    refuse_special,
    stat_or_none,
    state_key,
    with_eol,
)

MAX_COMPARE_BYTES = 256 << 20  # past this we do not load the old file to learn its style


class WriteInput(ToolInput):
    file_path: str = Field(description="Absolute path of the file to create or overwrite.")
    content: str = Field(description="The complete new content of the file.")


def _existing_style(path: str, size: int, known: bool) -> tuple[str, TextEncoding, str]:
    """The old file's text (for the staleness check), encoding and dominant line ending."""
    with os.fdopen(open_regular(path), "rb") as handle:
        data = handle.read(min(size, MAX_COMPARE_BYTES) + 1)
    if looks_binary(data[:8192]):
        if not known:  # Read refuses binary files, so "read it first" would be a dead end
            raise ToolError(
                f"{path} is an existing binary file, which Read cannot show, so Write will not "
                "overwrite it. If replacing it is really intended, remove it with Bash first.",
                code="binary_file",
            )
        return "", UTF8, "\n"  # replacing a binary file: write the content as plain UTF-8
    try:
        text, encoding = decode_file_bytes(data)
    except ToolError:
        return "", UTF8, "\n"
    return text, encoding, dominant_eol(text)


def _encode(content: str, encoding: TextEncoding) -> tuple[bytes, TextEncoding]:
    """Keep the file's encoding when it can hold the content; otherwise fall back to UTF-8
    rather than refuse (the model asked for this exact text)."""
    try:
        return encoding.encode(content), encoding
    except UnicodeEncodeError:
        return content.encode("utf-8"), UTF8


def write_sync(inp: WriteInput, ctx: ToolUseContext) -> str:
    path = open_path(inp.file_path)
    refuse_special(path, None, "write")
    st = stat_or_none(path)
    target = os.path.realpath(path)  # write through a symlink, keep the link
    key = state_key(path)
    content = inp.content
    encoding = UTF8
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise ToolError(f"{path} is a directory; Write needs a file path.", code="is_directory")
        refuse_special(path, st, "write")
        known = ctx.read_file_state.get(key) is not None
        old_text, encoding, eol = _existing_style(path, st.st_size, known)
        ensure_fresh(ctx, key, path, st.st_mtime_ns, lambda: old_text)
        ensure_writable(target)
        if eol == "\r\n" and "\r\n" not in content:
            content = with_eol(content, eol)
    else:
        make_parent_dirs(target)
    data, used = _encode(content, encoding)
    ctx.checkpoints.before_change(target)
    mtime = atomic_write(target, data)
    record_state(ctx, key, content, mtime, partial=False)
    lines = normalize_newlines(content).count("\n") + (0 if content.endswith("\n") else 1)
    lines = lines if content else 0
    note = f", now {used.label}" if used != encoding else ""
    if st is None:
        return f"Created new file {path} ({lines} line(s))."
    return f"Updated {path}: its whole content was replaced ({lines} line(s){note})."


async def call(inp: WriteInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.abort.aborted:
        raise ToolError("Write was interrupted before it started.", code="aborted")
    return ToolResult(data=await asyncio.to_thread(write_sync, inp, ctx))
