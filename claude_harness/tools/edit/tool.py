"""Edit: replace one exact passage of a file, only if the model has seen the current file.

The order is deliberate: every check that can fail (path, kind of file, read-before-edit,
staleness, permission, match count, encoding) runs before a single byte is written, and the
write itself is atomic, so a refused or failed edit leaves the file exactly as it was.
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
    ValidationResult,
)
from claude_harness.tools.edit.matching import find_matches, fit_to_file, looks_like_read_prefixes
from claude_harness.tools.edit.snippet import snippet_around
from claude_harness.tools.editor_files import editor_text, editor_writer, write_through_editor
from claude_harness.tools.file_common import (
    UTF8,
    TextEncoding,
    atomic_write,
    check_absolute,
    decode_file_bytes,
    dominant_eol,
    ensure_fresh,
    ensure_writable,
    has_binary_extension,
    looks_binary,
    make_parent_dirs,
    missing_file_error,
    normalize_newlines,
    open_path,
    open_regular,
    record_state,
    refuse_special,
    require_absolute,
    stat_or_none,
    state_key,
    with_eol,
)

MAX_EDIT_BYTES = 256 << 20


class EditInput(ToolInput):
    file_path: str = Field(description="Absolute path of the file to change.")
    old_string: str = Field(
        description="The exact text to replace, as it appears in the file (without Read's "
        "line-number prefixes). Empty only to create a new file or fill an empty one."
    )
    new_string: str = Field(description="The text to put in its place (must differ).")
    replace_all: bool = Field(
        default=False, description="Replace every occurrence instead of exactly one."
    )


@dataclass(frozen=True)
class EditOutcome:
    """What the edit did, for the result sentence and the snippet."""

    new_text: str
    count: int
    first_start: int  # where the first replacement begins in new_text
    first_length: int
    tolerant: bool


def apply_edit(text: str, old: str, new: str, replace_all: bool, path: str) -> EditOutcome:
    """Replace old with new in the file's text, keeping the file's line endings and, for a
    tolerant match, its quote and indentation style. Raises ToolError for 0 or >1 matches."""
    eol = dominant_eol(text)
    old_n, new_n = normalize_newlines(old), normalize_newlines(new)
    result = find_matches(text, with_eol(old_n, eol))
    if not result.spans:
        message = (
            f"old_string was not found in {path}. It must match the file's text exactly, "
            "including indentation; copy it from a fresh Read."
        )
        if looks_like_read_prefixes(old_n):
            message += (
                " It seems to include Read's line-number prefixes (`<n><TAB>`); leave those out."
            )
        raise ToolError(message, code="no_match")
    if len(result.spans) > 1 and not replace_all:
        raise ToolError(
            f"old_string matches {len(result.spans)} places in {path}, but must match exactly "
            "one. Add surrounding lines to make it unique, or set replace_all to true to change "
            f"all {len(result.spans)}.",
            code="not_unique",
        )
    pieces: list[str] = []
    cursor = 0
    first_start = first_length = 0
    for index, span in enumerate(result.spans):
        found = text[span.start : span.end]
        replacement = new_n
        if result.tolerant:
            replacement = fit_to_file(new_n, old_n, normalize_newlines(found))
        replacement = with_eol(replacement, eol)
        pieces.append(text[cursor : span.start])
        if index == 0:
            first_start = sum(len(p) for p in pieces)
            first_length = len(replacement)
        pieces.append(replacement)
        cursor = span.end
    pieces.append(text[cursor:])
    return EditOutcome(
        "".join(pieces), len(result.spans), first_start, first_length, result.tolerant
    )


def _read_bytes(path: str) -> bytes:
    with os.fdopen(open_regular(path), "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_EDIT_BYTES:
            raise ToolError(
                f"{path} is {size >> 20} MB, too large to edit; use Bash (sed, a script) instead.",
                code="too_large",
            )
        return handle.read()


def _encode(text: str, encoding: TextEncoding, path: str) -> bytes:
    try:
        return encoding.encode(text)
    except UnicodeEncodeError as exc:
        raise ToolError(
            f"new_string has characters that {path}'s encoding ({encoding.label}) cannot store "
            f"({exc.object[exc.start : exc.end]!r}); nothing was written.",
            code="encoding",
        ) from exc


@dataclass(frozen=True)
class EditPlan:
    """An edit checked and computed, not yet written: what to write where, and what to say."""

    path: str  # as the model named it (after invisible-space variants)
    target: str  # the file written (a symlink resolved)
    key: str
    new_text: str
    encoding: TextEncoding
    message: str


def _create(inp: EditInput, path: str) -> EditPlan:
    """Empty old_string on a missing file: the file is created with new_string."""
    lines = normalize_newlines(inp.new_string).count("\n") + 1
    return EditPlan(path, path, state_key(path), inp.new_string, UTF8,
                    f"Created new file {path} ({lines} line(s)) from new_string.")


def _resolve(path: str) -> tuple[str, os.stat_result | None]:
    path = open_path(path)  # the path the permission decision was made on
    refuse_special(path, None, "edit")
    return path, stat_or_none(path)


def plan_edit(inp: EditInput, ctx: ToolUseContext, buffer: str | None = None) -> EditPlan:
    """Every check, then the new text; nothing is written. `buffer`: the editor's text of the
    file (unsaved changes included), edited instead of the disk's."""
    path = require_absolute(inp.file_path)
    if inp.old_string == inp.new_string:
        raise ToolError("old_string and new_string are identical; there is nothing to change.")
    path, st = _resolve(path)
    if st is None:
        if inp.old_string == "":
            return _create(inp, path)
        raise missing_file_error(path)
    if stat.S_ISDIR(st.st_mode):
        raise ToolError(f"{path} is a directory; Edit changes files.", code="is_directory")
    refuse_special(path, st, "edit")
    if path.lower().endswith(".ipynb"):
        raise ToolError(f"{path} is a Jupyter notebook; use NotebookEdit to change its cells.")
    if has_binary_extension(path):
        raise ToolError(f"{path} is a binary file; Edit only changes text.", code="binary_file")

    target = os.path.realpath(path)  # write through a symlink, keep the link
    key = state_key(path)
    if buffer is None:
        data = _read_bytes(path)
        if looks_binary(data[:8192]):
            raise ToolError(f"{path} is a binary file; Edit only changes text.",
                            code="binary_file")
        text, encoding = decode_file_bytes(data)
    else:
        text, encoding = buffer, UTF8
    ensure_fresh(ctx, key, path, st.st_mtime_ns, lambda: text)
    ensure_writable(target)

    if inp.old_string == "":
        if text.strip():
            raise ToolError(
                f"old_string is empty but {path} already has content. An empty old_string only "
                "creates a new file or fills an empty one; to replace the whole file use Write.",
                code="empty_old_string",
            )
        outcome = EditOutcome(with_eol(inp.new_string, "\n"), 1, 0, len(inp.new_string), False)
    else:
        outcome = apply_edit(text, inp.old_string, inp.new_string, inp.replace_all, path)
    if outcome.new_text == text:
        raise ToolError(f"The edit would leave {path} unchanged; nothing was written.")
    return EditPlan(path, target, key, outcome.new_text, encoding, _success(path, outcome))


def edit_sync(inp: EditInput, ctx: ToolUseContext) -> str:
    plan = plan_edit(inp, ctx)
    data = _encode(plan.new_text, plan.encoding, plan.path)
    make_parent_dirs(plan.target)
    ctx.checkpoints.before_change(plan.target)
    mtime = atomic_write(plan.target, data)
    record_state(ctx, plan.key, plan.new_text, mtime, partial=False)
    return plan.message


async def _edit_in_editor(inp: EditInput, ctx: ToolUseContext, writer: BufferWriter) -> str:
    """The edit of the editor's buffer (editor_files.py): the same checks on the text the
    person sees, the checkpoint of the file, then the editor writes the new text."""
    buffer = await editor_text(open_path(inp.file_path)) if os.path.isabs(inp.file_path) else None
    plan = await asyncio.to_thread(plan_edit, inp, ctx, buffer)
    await asyncio.to_thread(make_parent_dirs, plan.target)
    ctx.checkpoints.before_change(plan.target)
    mtime = await write_through_editor(writer, plan.target, plan.new_text)
    record_state(ctx, plan.key, plan.new_text, mtime, partial=False)
    return plan.message


def _success(path: str, outcome: EditOutcome) -> str:
    what = f"{outcome.count} occurrences replaced" if outcome.count > 1 else "1 occurrence replaced"
    tolerance = (
        "; old_string matched after allowing for quote/white-space differences, and the file's "
        "own style was kept"
        if outcome.tolerant
        else ""
    )
    head = f"The file {path} has been edited ({what}{tolerance})."
    snippet = snippet_around(outcome.new_text, outcome.first_start, outcome.first_length)
    label = "First edited region" if outcome.count > 1 else "Edited region"
    return f"{head}\n{label}:\n{snippet}"


async def call(inp: EditInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.abort.aborted:
        raise ToolError("Edit was interrupted before it started.", code="aborted")
    writer = editor_writer()
    if writer is not None:
        return ToolResult(data=await _edit_in_editor(inp, ctx, writer))
    return ToolResult(data=await asyncio.to_thread(edit_sync, inp, ctx))


async def validate_input(inp: EditInput, ctx: ToolUseContext) -> ValidationResult:
    """Step 4 of the pipeline: refuse a no-op edit and a relative path before any prompt."""
    if inp.old_string == inp.new_string:
        return ValidationResult.fail(
            "old_string and new_string are identical; there is nothing to change.", "no_op_edit"
        )
    return check_absolute(inp.file_path)
