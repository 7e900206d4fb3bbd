"""Cell-level edits on a parsed nbformat 4 notebook (a plain dict), free of any file I/O.

Kept pure so every rule (which cell an id names, what a new cell looks like, what a type change
drops) can be checked without touching disk, and the tool module only has to load, call, save.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any, Literal

CellType = Literal["code", "markdown"]
EditMode = Literal["replace", "insert", "delete"]
Notebook = dict[str, Any]
_INDEX_ID = re.compile(r"cell-(\d+)")


class NotebookProblem(ValueError):
    """The notebook or the request does not allow the edit; the message is for the model."""


def check_structure(nb: Any) -> Notebook:
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookProblem("is not a Jupyter notebook: there is no list of cells")
    if nb.get("nbformat") != 4:
        raise NotebookProblem(
            f"uses nbformat {nb.get('nbformat')!r}; only nbformat 4 notebooks can be edited"
        )
    return nb


def supports_ids(nb: Notebook) -> bool:
    """Cell `id` fields exist from nbformat 4.5 on; older minor versions forbid them."""
    minor = nb.get("nbformat_minor", 0)
    return isinstance(minor, int) and minor >= 5


def cell_label(nb: Notebook, index: int) -> str:
    """How a cell is named to the model: its id, or `cell-N` (0-based) when it has none."""
    cell_id = nb["cells"][index].get("id")
    return str(cell_id) if cell_id else f"cell-{index}"


def find_cell(nb: Notebook, cell_id: str) -> int:
    """Index of the cell whose `id` is cell_id; `cell-N` names the N-th cell (0-based) otherwise."""
    cells = nb["cells"]
    for index, cell in enumerate(cells):
        if cell.get("id") == cell_id:
            return index
    match = _INDEX_ID.fullmatch(cell_id)
    if match and int(match.group(1)) < len(cells):
        return int(match.group(1))
    known = ", ".join(cell_label(nb, i) for i in range(min(len(cells), 10)))
    more = ", ..." if len(cells) > 10 else ""
    raise NotebookProblem(
        f"has no cell {cell_id!r} ({len(cells)} cells: {known}{more}). "
        "Use an id shown by Read, or cell-N for the N-th cell counting from 0"
    )


def source_lines(text: str) -> list[str]:
    """Jupyter's on-disk form: a list of lines, each but the last keeping its newline."""
    return text.splitlines(keepends=True)


def _fresh_id(nb: Notebook) -> str:
    taken = {c.get("id") for c in nb["cells"]}
    while True:
        candidate = uuid.uuid4().hex[:8]
        if candidate not in taken:
            return candidate


def new_cell(nb: Notebook, cell_type: CellType, source: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": cell_type, "metadata": {}, "source": source_lines(source)}
    if cell_type == "code":
        cell["execution_count"] = None
        cell["outputs"] = []
    if supports_ids(nb):
        cell["id"] = _fresh_id(nb)
    return cell


def _set_type(cell: dict[str, Any], cell_type: CellType) -> None:
    """A markdown cell has no outputs or execution count; a code cell must have both."""
    cell["cell_type"] = cell_type
    if cell_type == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


@dataclass(frozen=True)
class EditOutcome:
    cell_id: str  # the cell edited, inserted or deleted, as the model should name it
    cell_type: str
    index: int


def apply_edit(
    nb: Notebook,
    mode: EditMode,
    cell_id: str | None,
    source: str,
    cell_type: CellType | None,
) -> EditOutcome:
    """Change `nb` in place and say which cell was affected."""
    cells: list[dict[str, Any]] = nb["cells"]
    if mode == "insert":
        index = 0 if cell_id is None else find_cell(nb, cell_id) + 1
        cells.insert(index, new_cell(nb, cell_type or "code", source))
        return EditOutcome(cell_label(nb, index), cells[index]["cell_type"], index)
    if cell_id is None:
        raise NotebookProblem(f"needs a cell_id to {mode} a cell")
    index = find_cell(nb, cell_id)
    label = cell_label(nb, index)
    if mode == "delete":
        removed = cells.pop(index)
        return EditOutcome(label, removed.get("cell_type", "code"), index)
    cell = cells[index]
    if cell_type is not None and cell_type != cell.get("cell_type"):
        _set_type(cell, cell_type)
    cell["source"] = source_lines(source)
    if cell.get("cell_type") == "code":
        cell["execution_count"] = None  # the old outputs belong to the old code
        cell["outputs"] = []
    return EditOutcome(label, cell.get("cell_type", "code"), index)
