"""NotebookEdit against real .ipynb files in tmp_path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import FileState, ToolUseContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.notebook_edit import TOOL


def notebook(minor: int = 5, with_ids: bool = True) -> dict[str, Any]:
    cells = [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["# Title\n", "intro"],
        },
        {
            "cell_type": "code",
            "execution_count": 3,
            "metadata": {"tags": ["keep"]},
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["42\n"]}],
            "source": ["print(6 * 7)"],
        },
    ]
    if with_ids:
        cells[0]["id"] = "intro-md"
        cells[1]["id"] = "calc"
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": minor,
    }


def save(path: Path, nb: dict[str, Any], ctx: ToolUseContext | None = None) -> Path:
    """Write the notebook and, when ctx is given, record it as read (what Read would do)."""
    path.write_text(json.dumps(nb, indent=1))
    if ctx is not None:
        ctx.read_file_state.set(
            os.path.realpath(path), FileState(path.read_text(), path.stat().st_mtime_ns)
        )
    return path


async def edit(ctx: ToolUseContext, **kw: Any) -> str:
    inp = TOOL.input_model.model_validate(kw)
    result = await TOOL.call(inp, ctx, lambda _: None)
    return TOOL.render_result(result.data)


def load(path: Path) -> dict[str, Any]:
    nb = json.loads(path.read_text())  # valid JSON after every edit
    assert nb["nbformat"] == 4 and isinstance(nb["cells"], list)
    for cell in nb["cells"]:
        assert cell["cell_type"] in ("code", "markdown")
        assert isinstance(cell["source"], list) and isinstance(cell["metadata"], dict)
        if cell["cell_type"] == "code":
            assert "outputs" in cell and "execution_count" in cell
        else:
            assert "outputs" not in cell and "execution_count" not in cell
    return nb


def src(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


async def test_replace_by_id_clears_stale_outputs(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(), ctx)
    text = await edit(ctx, notebook_path=str(path), cell_id="calc", new_source="x = 1\nprint(x)")
    assert text == f"Replaced the source of code cell calc in {path}."
    nb = load(path)
    cell = nb["cells"][1]
    assert cell["source"] == ["x = 1\n", "print(x)"]
    assert cell["outputs"] == [] and cell["execution_count"] is None
    assert cell["metadata"] == {"tags": ["keep"]} and cell["id"] == "calc"
    assert src(nb["cells"][0]) == "# Title\nintro"
    assert path.read_text().startswith('{\n "cells": [\n  {\n')  # Jupyter's indent=1 layout


async def test_replace_can_change_cell_type(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(), ctx)
    await edit(ctx, notebook_path=str(path), cell_id="calc", new_source="*note*", cell_type="markdown")
    await edit(ctx, notebook_path=str(path), cell_id="intro-md", new_source="1+1", cell_type="code")
    nb = load(path)
    assert [c["cell_type"] for c in nb["cells"]] == ["code", "markdown"]
    assert src(nb["cells"][1]) == "*note*"


async def test_insert_after_cell_and_at_start(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(), ctx)
    text = await edit(
        ctx, notebook_path=str(path), cell_id="intro-md", new_source="import os", edit_mode="insert"
    )
    nb = load(path)
    new = nb["cells"][1]
    assert src(new) == "import os" and new["cell_type"] == "code"
    assert len(new["id"]) == 8 and new["id"] not in ("intro-md", "calc")
    assert f"cell {new['id']} at position 1" in text
    await edit(
        ctx, notebook_path=str(path), new_source="# Top", cell_type="markdown", edit_mode="insert"
    )
    nb = load(path)
    assert [src(c) for c in nb["cells"]] == ["# Top", "# Title\nintro", "import os", "print(6 * 7)"]


async def test_delete(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(), ctx)
    text = await edit(ctx, notebook_path=str(path), cell_id="intro-md", edit_mode="delete")
    assert text == f"Deleted cell intro-md from {path}."
    nb = load(path)
    assert [c["id"] for c in nb["cells"]] == ["calc"]


async def test_cell_n_fallback_and_no_ids_before_4_5(ctx, tmp_path):
    path = save(tmp_path / "old.ipynb", notebook(minor=4, with_ids=False), ctx)
    await edit(ctx, notebook_path=str(path), cell_id="cell-1", new_source="y = 2")
    await edit(ctx, notebook_path=str(path), cell_id="cell-0", new_source="z", edit_mode="insert")
    nb = load(path)
    assert [src(c) for c in nb["cells"]] == ["# Title\nintro", "z", "y = 2"]
    assert all("id" not in c for c in nb["cells"])  # nbformat 4.4 has no cell ids


async def test_unknown_cell_is_refused_and_file_untouched(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(), ctx)
    before = path.read_bytes()
    with pytest.raises(ToolError, match="has no cell 'nope'.*intro-md, calc"):
        await edit(ctx, notebook_path=str(path), cell_id="nope", new_source="x")
    with pytest.raises(ToolError, match="has no cell 'cell-7'"):
        await edit(ctx, notebook_path=str(path), cell_id="cell-7", edit_mode="delete")
    assert path.read_bytes() == before


async def test_read_before_edit_and_staleness(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook())  # not recorded as read
    with pytest.raises(ToolError, match="has not been read"):
        await edit(ctx, notebook_path=str(path), cell_id="calc", new_source="x")
    save(path, notebook(), ctx)
    changed = notebook()
    changed["cells"][0]["source"] = ["changed by the user"]
    path.write_text(json.dumps(changed, indent=1))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))
    with pytest.raises(ToolError, match="changed on disk"):
        await edit(ctx, notebook_path=str(path), cell_id="calc", new_source="x")
    assert load(path)["cells"][0]["source"] == ["changed by the user"]


async def test_consecutive_edits_need_no_new_read(ctx, tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(), ctx)
    await edit(ctx, notebook_path=str(path), cell_id="calc", new_source="a")
    await edit(ctx, notebook_path=str(path), cell_id="calc", new_source="b")
    assert src(load(path)["cells"][1]) == "b"


async def test_bad_inputs(ctx, tmp_path):
    with pytest.raises(ToolError, match="absolute"):
        await edit(ctx, notebook_path="nb.ipynb", cell_id="calc", new_source="x")
    with pytest.raises(ToolError, match="does not exist"):
        await edit(ctx, notebook_path=str(tmp_path / "missing.ipynb"), cell_id="c")
    txt = tmp_path / "notes.txt"
    txt.write_text("{}")
    with pytest.raises(ToolError, match="not a .ipynb"):
        await edit(ctx, notebook_path=str(txt), cell_id="c")
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    ctx.read_file_state.set(str(broken), FileState("{not json", broken.stat().st_mtime_ns))
    with pytest.raises(ToolError, match="not valid notebook JSON"):
        await edit(ctx, notebook_path=str(broken), cell_id="c")
    assert broken.read_text() == "{not json"
    v3 = save(tmp_path / "v3.ipynb", {"nbformat": 3, "cells": []}, ctx)
    with pytest.raises(ToolError, match="only nbformat 4"):
        await edit(ctx, notebook_path=str(v3), cell_id="c")
    with pytest.raises(ValueError):
        TOOL.input_model.model_validate(
            {"notebook_path": "/x.ipynb", "edit_mode": "append", "new_source": ""}
        )


async def test_validation_and_metadata(ctx, tmp_path):
    delete_without_id = TOOL.input_model.model_validate(
        {"notebook_path": str(tmp_path / "a.ipynb"), "edit_mode": "delete"}
    )
    assert not (await TOOL.validate_input(delete_without_id, ctx)).ok
    assert TOOL.is_destructive(delete_without_id)
    relative = TOOL.input_model.model_validate({"notebook_path": "a.ipynb", "cell_id": "x"})
    assert not (await TOOL.validate_input(relative, ctx)).ok
    assert TOOL.backfill_input(relative, ctx) == {"notebook_path": str(tmp_path / "a.ipynb")}
    assert TOOL.permission_subject(delete_without_id) == str(tmp_path / "a.ipynb")
    assert not TOOL.is_read_only(relative) and not TOOL.is_concurrency_safe(relative)
    schema = TOOL.input_schema()
    assert set(schema["properties"]) == {
        "notebook_path",
        "cell_id",
        "new_source",
        "cell_type",
        "edit_mode",
    }
