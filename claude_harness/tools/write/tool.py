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
from dataclasses import dataclass

from pydantic import Field

from claude_harness.protocol.client_files import BufferWriter
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
)
from claude_harness.tools.editor_files import editor_text, editor_writer, write_through_editor
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


@dataclass(frozen=True)
class WritePlan:
    """A Write checked, not yet done: the text to write where, its bytes for the disk, and what
    to say once it is written."""

    target: str
    key: str
    content: str
    data: bytes
    message: str


def plan_write(inp: WriteInput, ctx: ToolUseContext, buffer: str | None = None) -> WritePlan:
    """Every check, then the content in the old file's style; nothing is written. `buffer`: the
    editor's text of the file, what the staleness check compares with instead of the disk."""
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
        current = old_text if buffer is None else buffer
        ensure_fresh(ctx, key, path, st.st_mtime_ns, lambda: current)
        ensure_writable(target)
        if eol == "\r\n" and "\r\n" not in content:
            content = with_eol(content, eol)
    data, used = _encode(content, encoding)
    lines = normalize_newlines(content).count("\n") + (0 if content.endswith("\n") else 1)
    lines = lines if content else 0
    note = f", now {used.label}" if used != encoding else ""
    if st is None:
        message = f"Created new file {path} ({lines} line(s))."
    else:
        message = f"Updated {path}: its whole content was replaced ({lines} line(s){note})."
    return WritePlan(target, key, content, data, message)


def write_sync(inp: WriteInput, ctx: ToolUseContext) -> str:
    plan = plan_write(inp, ctx)
    make_parent_dirs(plan.target)
    ctx.checkpoints.before_change(plan.target)
    mtime = atomic_write(plan.target, plan.data)
    record_state(ctx, plan.key, plan.content, mtime, partial=False)
    return plan.message


async def _write_in_editor(inp: WriteInput, ctx: ToolUseContext, writer: BufferWriter) -> str:
    """The Write through the editor (editor_files.py): the same checks (against the buffer the
    person sees), the checkpoint, then the editor writes the text into its buffer and file."""
    buffer = await editor_text(open_path(inp.file_path)) if os.path.isabs(inp.file_path) else None
    plan = await asyncio.to_thread(plan_write, inp, ctx, buffer)
    await asyncio.to_thread(make_parent_dirs, plan.target)
    ctx.checkpoints.before_change(plan.target)
    mtime = await write_through_editor(writer, plan.target, plan.content)
    record_state(ctx, plan.key, plan.content, mtime, partial=False)
    return plan.message


async def call(inp: WriteInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.abort.aborted:
        raise ToolError("Write was interrupted before it started.", code="aborted")
    writer = editor_writer()
    if writer is not None:
        return ToolResult(data=await _write_in_editor(inp, ctx, writer))
    return ToolResult(data=await asyncio.to_thread(write_sync, inp, ctx))
