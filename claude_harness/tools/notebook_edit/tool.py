"""NotebookEdit: replace, insert or delete one cell of a Jupyter notebook, keeping it valid JSON.

Follows the same rules as Edit: the notebook must have been read (and not changed since), the
write is atomic, and a refused edit leaves the file untouched.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from typing import Any

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    VALID,
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)
from claude_harness.tools.file_common import (
    absolute_from,
    atomic_write,
    ensure_fresh,
    ensure_writable,
    open_path,
    record_state,
    refuse_special,
    require_absolute,
    stat_or_none,
    state_key,
)
from claude_harness.tools.notebook_edit.cells import (
    CellType,
    EditMode,
    NotebookProblem,
    apply_edit,
    check_structure,
)
from claude_harness.tools.notebook_edit.presentation import PRESENTATION


class NotebookEditInput(ToolInput):
    notebook_path: str = Field(description="Absolute path of the .ipynb file")
    cell_id: str | None = Field(
        None,
        description="The cell to replace or delete, or the cell after which to insert "
        "(omit to insert at the start). An id shown by Read, or cell-N for the N-th cell from 0",
    )
    new_source: str = Field("", description="The cell's new source (unused when deleting)")
    cell_type: CellType | None = Field(
        None,
        description="code or markdown; for insert defaults to code, for replace keeps the "
        "cell's type unless given",
    )
    edit_mode: EditMode = Field("replace", description="replace (default), insert or delete")


def _load(path: str, raw: bytes) -> dict[str, Any]:
    try:
        return check_structure(json.loads(raw))
    except NotebookProblem as exc:
        raise ToolError(f"{path} {exc}.", code="bad_notebook") from exc
    except ValueError as exc:
        raise ToolError(f"{path} is not valid notebook JSON: {exc}.", code="bad_notebook") from exc


def _serialise(nb: dict[str, Any]) -> bytes:
    """Jupyter's own layout (one-space indent, sorted keys), so diffs stay small."""
    return (json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def edit_sync(inp: NotebookEditInput, ctx: ToolUseContext) -> dict[str, Any]:
    path = open_path(inp.notebook_path)
    if not path.endswith(".ipynb"):
        raise ToolError(f"{path} is not a .ipynb notebook; use Edit for other files.")
    st = stat_or_none(path)
    if st is None:
        raise ToolError(f"Notebook does not exist: {path}", code="not_found")
    if stat.S_ISDIR(st.st_mode):
        raise ToolError(f"{path} is a directory, not a notebook.", code="is_directory")
    refuse_special(path, st, "edit")
    with open(path, "rb") as handle:
        raw = handle.read()
    key = state_key(path)
    ensure_fresh(ctx, key, path, st.st_mtime_ns, lambda: raw.decode("utf-8", "replace"))
    ensure_writable(path)
    nb = _load(path, raw)
    try:
        outcome = apply_edit(nb, inp.edit_mode, inp.cell_id, inp.new_source, inp.cell_type)
    except NotebookProblem as exc:
        raise ToolError(f"{path} {exc}. Nothing was changed.", code="bad_cell") from exc
    data = _serialise(nb)
    ctx.checkpoints.before_change(path)
    mtime = atomic_write(path, data)
    record_state(ctx, key, data.decode("utf-8"), mtime, partial=False)
    return {
        "notebook_path": path,
        "edit_mode": inp.edit_mode,
        "cell_id": outcome.cell_id,
        "cell_type": outcome.cell_type,
        "index": outcome.index,
    }


async def _call(inp: NotebookEditInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    if ctx.abort.aborted:
        raise ToolError("NotebookEdit was interrupted before it started.", code="aborted")
    return ToolResult(data=await asyncio.to_thread(edit_sync, inp, ctx))


def _render(data: dict[str, Any]) -> str:
    path, cell = data["notebook_path"], data["cell_id"]
    if data["edit_mode"] == "insert":
        return (
            f"Inserted a new {data['cell_type']} cell {cell} at position {data['index']} "
            f"(counting from 0) in {path}."
        )
    if data["edit_mode"] == "delete":
        return f"Deleted cell {cell} from {path}."
    return f"Replaced the source of {data['cell_type']} cell {cell} in {path}."


async def _validate(inp: NotebookEditInput, ctx: ToolUseContext) -> ValidationResult:
    try:
        require_absolute(inp.notebook_path)
    except ToolError as exc:
        return ValidationResult.fail(exc.message, "relative_path")
    if inp.edit_mode != "insert" and inp.cell_id is None:
        return ValidationResult.fail(f"cell_id is required to {inp.edit_mode} a cell.")
    return VALID


TOOL = build_tool(
    name="NotebookEdit",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=NotebookEditInput,
    call=_call,
    validate_input=_validate,
    render_result=_render,
    is_destructive=lambda inp: inp.edit_mode == "delete",
    backfill_input=lambda inp, ctx: {"notebook_path": absolute_from(inp.notebook_path, ctx.cwd)},
    permission_subject=lambda inp: inp.notebook_path,
    key_argument=lambda inp: os.path.basename(inp.notebook_path),
    to_classifier_input=lambda inp: f"{inp.edit_mode} cell {inp.cell_id} in {inp.notebook_path}",
    search_hint="jupyter ipynb notebook cell edit",
)
