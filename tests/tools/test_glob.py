"""Glob against real files in tmp_path with the real rg binary."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.glob import TOOL


async def glob(ctx: ToolUseContext, **kw: Any) -> str:
    inp = TOOL.input_model.model_validate(kw)
    result = await TOOL.call(inp, ctx, lambda _: None)
    return result.data


def touch(root: Path, rel: str, mtime: float | None = None) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x\n")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


async def test_double_star_is_recursive_single_star_is_not(ctx, tmp_path):
    touch(tmp_path, "top.py", mtime=3_000_000)
    touch(tmp_path, "pkg/mod.py", mtime=2_000_000)
    touch(tmp_path, "pkg/deep/er.py", mtime=1_000_000)
    touch(tmp_path, "pkg/notes.txt")
    assert await glob(ctx, pattern="*.py") == "top.py"
    assert await glob(ctx, pattern="**/*.py") == "top.py\npkg/mod.py\npkg/deep/er.py"
    assert await glob(ctx, pattern="pkg/*.py") == "pkg/mod.py"
    assert await glob(ctx, pattern="pkg/**/*.py") == "pkg/mod.py\npkg/deep/er.py"


async def test_newest_first(ctx, tmp_path):
    touch(tmp_path, "a.md", mtime=1_000_000)
    touch(tmp_path, "b.md", mtime=3_000_000)
    touch(tmp_path, "c.md", mtime=2_000_000)
    assert await glob(ctx, pattern="*.md") == "b.md\nc.md\na.md"


async def test_braces_classes_and_question_mark(ctx, tmp_path):
    for name in ("src/a.ts", "src/b.tsx", "src/c.js", "lib/x/d.ts", "t1.txt", "t22.txt"):
        touch(tmp_path, name, mtime=1_000_000)
    assert await glob(ctx, pattern="**/*.{ts,tsx}") == "lib/x/d.ts\nsrc/a.ts\nsrc/b.tsx"
    assert await glob(ctx, pattern="{src,lib/x}/[ad].ts") == "lib/x/d.ts\nsrc/a.ts"
    assert await glob(ctx, pattern="t?.txt") == "t1.txt"


async def test_no_match(ctx, tmp_path):
    touch(tmp_path, "a.py")
    assert await glob(ctx, pattern="**/*.rs") == "No files found"
    assert await glob(ctx, pattern="missing_dir/**/*.py") == "No files found"


async def test_at_most_100_then_a_truncation_note(ctx, tmp_path):
    for i in range(100):
        touch(tmp_path, f"exact/f{i:03}.c")
    exact = await glob(ctx, pattern="exact/*.c")
    assert len(exact.splitlines()) == 100 and "truncated" not in exact
    for i in range(130):
        touch(tmp_path, f"many/f{i:03}.c", mtime=1_000_000 + i)
    out = await glob(ctx, pattern="many/*.c")
    lines = out.splitlines()
    assert lines[0] == "many/f129.c" and lines[99] == "many/f030.c"
    assert "truncated" in lines[100] and "130" in lines[100]
    assert len(lines) == 101


async def test_gitignore_respected_vcs_skipped_hidden_included(ctx, tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("*.log\nnode_modules/\n")
    touch(tmp_path, "app.log")
    touch(tmp_path, "node_modules/lib/index.js")
    touch(tmp_path, "src/index.js")
    touch(tmp_path, ".hg/store.js")
    touch(tmp_path, ".config/tool.js")
    assert await glob(ctx, pattern="*.log") == "No files found"
    assert sorted((await glob(ctx, pattern="**/*.js")).splitlines()) == [
        ".config/tool.js",
        "src/index.js",
    ]
    listed = (await glob(ctx, pattern="**/*")).splitlines()
    assert not any(p.startswith(".git/") for p in listed)
    assert ".gitignore" in listed


async def test_path_parameter(ctx, tmp_path):
    touch(tmp_path, "proj/src/a.py")
    touch(tmp_path, "other/b.py")
    ctx.shell.cwd = tmp_path / "proj"
    assert await glob(ctx, pattern="*.py", path="src") == "src/a.py"
    assert await glob(ctx, pattern="*.py", path=str(tmp_path / "proj" / "src")) == "src/a.py"
    outside = await glob(ctx, pattern="*.py", path=str(tmp_path / "other"))
    assert outside == str(tmp_path / "other" / "b.py")
    assert await glob(ctx, pattern=str(tmp_path / "other" / "*.py")) == outside


async def test_bad_paths_are_errors(ctx, tmp_path):
    touch(tmp_path, "file.py")
    with pytest.raises(ToolError, match="does not exist"):
        await glob(ctx, pattern="*.py", path=str(tmp_path / "nope"))
    with pytest.raises(ToolError, match="not a directory"):
        await glob(ctx, pattern="*.py", path=str(tmp_path / "file.py"))
    with pytest.raises(ToolError, match="NUL"):
        await glob(ctx, pattern="a\0b")
    with pytest.raises(ValueError):
        TOOL.input_model.model_validate({"pattern": ""})


async def test_metadata(ctx, tmp_path):
    schema = TOOL.input_schema()
    assert schema["required"] == ["pattern"] and schema["additionalProperties"] is False
    inp = TOOL.input_model.model_validate({"pattern": "*.py"})
    assert TOOL.is_read_only(inp) and TOOL.is_concurrency_safe(inp)
    assert TOOL.backfill_input(inp, ctx) == {"path": str(tmp_path)}
    assert "**/*.py" in TOOL.description


async def test_backfilled_path_is_where_the_search_really_starts(ctx, tmp_path):
    """Permission rules see the backfilled path: an absolute or `..` pattern must show up there."""
    inp = TOOL.input_model.model_validate({"pattern": "/etc/*.conf"})
    assert TOOL.backfill_input(inp, ctx) == {"path": "/etc"}
    inp = TOOL.input_model.model_validate({"pattern": "../other/**/*.py", "path": "sub"})
    assert TOOL.backfill_input(inp, ctx) == {"path": str(tmp_path / "other")}
    inp = TOOL.input_model.model_validate({"pattern": "src/**/*.py"})
    assert TOOL.backfill_input(inp, ctx) == {"path": str(tmp_path / "src")}
