"""Grep against real files in tmp_path with the real rg binary."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.grep import TOOL


async def grep(ctx: ToolUseContext, **kw: Any) -> str:
    inp = TOOL.input_model.model_validate(kw)
    result = await TOOL.call(inp, ctx, lambda _: None)
    assert not result.is_error
    return result.data


def write(root: Path, rel: str, text: str, mtime: float | None = None) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)


# --- files_with_matches ----------------------------------------------------------------------


async def test_files_with_matches_is_default_and_newest_first(ctx, tmp_path):
    write(tmp_path, "old.py", "needle\n", mtime=1_000_000)
    write(tmp_path, "sub/new.py", "a needle\n", mtime=3_000_000)
    write(tmp_path, "mid.txt", "needle too\n", mtime=2_000_000)
    write(tmp_path, "none.py", "haystack\n")
    out = await grep(ctx, pattern="needle")
    assert out == "Found 3 files\nsub/new.py\nmid.txt\nold.py"


async def test_single_file_says_file(ctx, tmp_path):
    write(tmp_path, "a.py", "needle\n")
    assert await grep(ctx, pattern="needle") == "Found 1 file\na.py"


async def test_no_match_messages(ctx, tmp_path):
    write(tmp_path, "a.py", "nothing here\n")
    assert await grep(ctx, pattern="needle") == "No files found"
    assert await grep(ctx, pattern="needle", output_mode="content") == "No matches found"
    assert await grep(ctx, pattern="needle", output_mode="count") == "No matches found"


# --- content -----------------------------------------------------------------------------------


async def test_content_lines_with_and_without_numbers(ctx, tmp_path):
    write(tmp_path, "b.py", "x = 1\nneedle = 2\n")
    write(tmp_path, "a.py", "needle()\nother\nneedle.x\n")
    out = await grep(ctx, pattern="needle", output_mode="content")
    assert out == "a.py:1:needle()\na.py:3:needle.x\nb.py:2:needle = 2"
    out = await grep(ctx, pattern="needle", output_mode="content", **{"-n": False})
    assert out == "a.py:needle()\na.py:needle.x\nb.py:needle = 2"


async def test_context_lines_and_group_separators(ctx, tmp_path):
    lines = ["l1", "hit a", "l3", "l4", "l5", "l6", "hit b", "l8"]
    write(tmp_path, "a.txt", "\n".join(lines) + "\n")
    write(tmp_path, "b.txt", "hit c\nafter\n")
    out = await grep(ctx, pattern="hit", output_mode="content", **{"-C": 1})
    assert out.splitlines() == [
        "a.txt-1-l1",
        "a.txt:2:hit a",
        "a.txt-3-l3",
        "--",
        "a.txt-6-l6",
        "a.txt:7:hit b",
        "a.txt-8-l8",
        "--",
        "b.txt:1:hit c",
        "b.txt-2-after",
    ]
    # `context` is the long spelling of -C
    assert await grep(ctx, pattern="hit", output_mode="content", context=1) == out


async def test_after_and_before_context(ctx, tmp_path):
    write(tmp_path, "a.txt", "one\ntwo\nhit\nfour\nfive\n")
    after = await grep(ctx, pattern="hit", output_mode="content", **{"-A": 2})
    assert after.splitlines() == ["a.txt:3:hit", "a.txt-4-four", "a.txt-5-five"]
    before = await grep(ctx, pattern="hit", output_mode="content", **{"-B": 1})
    assert before.splitlines() == ["a.txt-2-two", "a.txt:3:hit"]


async def test_case_insensitive_and_only_matching(ctx, tmp_path):
    write(tmp_path, "a.txt", "Say HELLO world\n")
    assert await grep(ctx, pattern="hello") == "No files found"
    out = await grep(ctx, pattern="hello", output_mode="content", **{"-i": True, "-o": True})
    assert out == "a.txt:1:HELLO"


async def test_multiline(ctx, tmp_path):
    write(tmp_path, "a.rs", "struct Foo {\n    x: i32,\n}\nfn main() {}\n")
    assert await grep(ctx, pattern=r"Foo \{.*?\}", output_mode="content") == "No matches found"
    out = await grep(ctx, pattern=r"Foo \{.*?\}", output_mode="content", multiline=True)
    assert out.splitlines() == ["a.rs:1:struct Foo {", "a.rs:2:    x: i32,", "a.rs:3:}"]


async def test_long_lines_are_cut(ctx, tmp_path):
    write(tmp_path, "min.js", "needle" + "x" * 5000 + "\n")
    out = await grep(ctx, pattern="needle", output_mode="content")
    assert out.startswith("min.js:1:needle")
    assert len(out) < 1000
    assert "omitted" in out


# --- count ------------------------------------------------------------------------------------


async def test_count_format(ctx, tmp_path):
    write(tmp_path, "b.py", "hit\nhit\nmiss\nhit\n")
    write(tmp_path, "a.py", "hit\n")
    out = await grep(ctx, pattern="hit", output_mode="count")
    assert out == "a.py:1\nb.py:3\n\nFound 4 total occurrences across 2 files."


# --- errors -------------------------------------------------------------------------------------


async def test_invalid_regex_reports_rg_diagnostic(ctx, tmp_path):
    write(tmp_path, "a.py", "foo(\n")
    with pytest.raises(ToolError) as err:
        await grep(ctx, pattern="foo(")
    assert "regex parse error" in err.value.message
    assert "unclosed group" in err.value.message


async def test_unknown_type_is_an_error(ctx, tmp_path):
    write(tmp_path, "a.py", "x\n")
    with pytest.raises(ToolError, match="unrecognized file type"):
        await grep(ctx, pattern="x", type="nosuchtype")


async def test_missing_path_is_an_error(ctx, tmp_path):
    with pytest.raises(ToolError, match="does not exist"):
        await grep(ctx, pattern="x", path=str(tmp_path / "missing"))


async def test_negative_head_limit_rejected_by_schema():
    with pytest.raises(ValueError):
        TOOL.input_model.model_validate({"pattern": "x", "head_limit": -1})
    with pytest.raises(ValueError):
        TOOL.input_model.model_validate({"pattern": "x", "bogus": 1})


# --- what is searched -----------------------------------------------------------------------------


async def test_gitignore_respected_even_with_matching_glob(ctx, tmp_path):
    git_init(tmp_path)
    write(tmp_path, ".gitignore", "*.log\nbuild/\n")
    write(tmp_path, "debug.log", "needle\n")
    write(tmp_path, "build/out.py", "needle\n")
    write(tmp_path, "src/app.py", "needle\n")
    assert await grep(ctx, pattern="needle") == "Found 1 file\nsrc/app.py"
    assert await grep(ctx, pattern="needle", glob="*.log") == "No files found"


async def test_vcs_dirs_skipped_but_hidden_files_searched(ctx, tmp_path):
    for vcs in (".git", ".svn", ".hg", ".bzr", ".jj", ".sl"):
        write(tmp_path, f"{vcs}/data", "needle\n")
    write(tmp_path, ".github/workflow.yml", "needle\n")
    write(tmp_path, ".env.example", "needle\n", mtime=1_000_000)
    out = await grep(ctx, pattern="needle")
    assert out == "Found 2 files\n.github/workflow.yml\n.env.example"


async def test_glob_filters_comma_space_and_brace(ctx, tmp_path):
    for name in ("a.ts", "b.tsx", "c.js", "d.py"):
        write(tmp_path, f"src/{name}", "needle\n")
    expected = ["src/a.ts", "src/b.tsx"]
    for spec in ("*.ts,*.tsx", "*.ts *.tsx", "*.{ts,tsx}", "src/*.{ts,tsx}"):
        out = await grep(ctx, pattern="needle", glob=spec)
        assert sorted(out.splitlines()[1:]) == expected, spec
    out = await grep(ctx, pattern="needle", glob="!*.ts")
    assert sorted(out.splitlines()[1:]) == ["src/b.tsx", "src/c.js", "src/d.py"]


async def test_type_filter(ctx, tmp_path):
    write(tmp_path, "a.py", "needle\n")
    write(tmp_path, "b.js", "needle\n")
    assert await grep(ctx, pattern="needle", type="py") == "Found 1 file\na.py"


async def test_path_subdir_file_and_outside_cwd(ctx, tmp_path):
    write(tmp_path, "proj/sub/a.py", "needle\n")
    write(tmp_path, "proj/b.py", "needle\n")
    write(tmp_path, "elsewhere/c.py", "needle\n")
    proj = tmp_path / "proj"
    ctx.shell.cwd = proj
    assert await grep(ctx, pattern="needle", path="sub") == "Found 1 file\nsub/a.py"
    assert await grep(ctx, pattern="needle", path=str(proj / "b.py")) == "Found 1 file\nb.py"
    outside = await grep(ctx, pattern="needle", path=str(tmp_path / "elsewhere"))
    assert outside == f"Found 1 file\n{tmp_path / 'elsewhere' / 'c.py'}"


# --- pagination --------------------------------------------------------------------------------------


async def test_head_limit_and_offset_in_files_mode(ctx, tmp_path):
    for i in range(5):
        write(tmp_path, f"f{i}.txt", "needle\n", mtime=1_000_000 + i)
    first = await grep(ctx, pattern="needle", head_limit=2)
    assert first.splitlines()[:3] == ["Found 5 files", "f4.txt", "f3.txt"]
    assert "head_limit=2" in first and "Use offset=2" in first
    second = await grep(ctx, pattern="needle", head_limit=2, offset=2)
    assert second.splitlines()[1:3] == ["f2.txt", "f1.txt"]
    assert "Use offset=4" in second
    last = await grep(ctx, pattern="needle", head_limit=2, offset=4)
    assert last.splitlines()[1] == "f0.txt"
    assert "Use offset" not in last
    beyond = await grep(ctx, pattern="needle", offset=9)
    assert "No entries at offset 9" in beyond and "5 files" in beyond


async def test_default_head_limit_is_250_and_zero_means_all(ctx, tmp_path):
    write(tmp_path, "big.txt", "needle\n" * 300)
    default = await grep(ctx, pattern="needle", output_mode="content")
    lines = default.splitlines()
    assert lines[249] == "big.txt:250:needle"
    assert "head_limit=250" in default and "Use offset=250" in default
    everything = await grep(ctx, pattern="needle", output_mode="content", head_limit=0)
    assert everything.count("\n") == 299 and "offset" not in everything


async def test_content_pages_are_stable_and_contiguous(ctx, tmp_path):
    for i in range(6):
        write(tmp_path, f"d{i}/f.txt", "needle\nneedle\n")
    pages = []
    for offset in range(0, 12, 5):
        out = await grep(ctx, pattern="needle", output_mode="content", head_limit=5, offset=offset)
        pages.extend(ln for ln in out.splitlines() if ln.startswith("d"))
    everything = await grep(ctx, pattern="needle", output_mode="content", head_limit=0)
    assert pages == everything.splitlines()
    assert len(pages) == 12


# --- abort and tool metadata ------------------------------------------------------------------------


async def test_abort_kills_a_running_search(ctx, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # rg blocks reading it until a writer appears: a search that never ends

    async def abort_soon() -> None:
        await asyncio.sleep(0.3)
        ctx.abort.abort("user pressed Esc")

    aborter = asyncio.create_task(abort_soon())
    with pytest.raises(ToolError, match="interrupted"):
        await asyncio.wait_for(grep(ctx, pattern="x", path=str(fifo)), timeout=5)
    await aborter


async def test_schema_metadata_and_backfill(ctx, tmp_path):
    schema = TOOL.input_schema()
    assert schema["required"] == ["pattern"]
    assert schema["additionalProperties"] is False
    for key in ("-A", "-B", "-C", "-n", "-i", "-o", "context", "head_limit", "offset", "multiline"):
        assert key in schema["properties"]
    inp = TOOL.input_model.model_validate({"pattern": "x"})
    assert TOOL.is_read_only(inp) and TOOL.is_concurrency_safe(inp)
    assert TOOL.backfill_input(inp, ctx) == {"path": str(tmp_path)}
    rel = TOOL.input_model.model_validate({"pattern": "x", "path": "src/../lib"})
    assert TOOL.backfill_input(rel, ctx) == {"path": str(tmp_path / "lib")}
    backfilled = rel.model_copy(update=TOOL.backfill_input(rel, ctx))
    assert TOOL.permission_subject(backfilled) == str(tmp_path / "lib")
    assert "Glob" in TOOL.description  # prompt.md loaded: it points name searches to Glob


# --- big outputs: the path-ordered early-stop pass ---------------------------------------------------


def _ordering_tree(root: Path) -> None:
    # names whose byte order and path-component order differ ("a.txt" vs "a/..."), plus depth
    for rel in ("a.txt", "a/b.txt", "a/c/d.txt", "a-b.txt", "B.txt", "z/y.txt", "a0.txt"):
        write(root, rel, "".join(f"hit {i}\nmiss\n" for i in range(7)))


async def test_early_stop_pass_pages_match_the_full_read(ctx, tmp_path, monkeypatch):
    from claude_harness.tools.grep import tool as grep_tool

    _ordering_tree(tmp_path)
    pages = {}
    for threshold in (1 << 30, 64):  # everything read and sorted / early-stop rerun in path order
        monkeypatch.setattr(grep_tool, "FULL_READ_MAX_BYTES", threshold)
        got = []
        for offset in range(0, 120, 8):
            out = await grep(
                ctx, pattern="hit", output_mode="content", head_limit=8, offset=offset, **{"-A": 1}
            )
            got.append([ln for ln in out.splitlines() if not ln.startswith("[")])
        pages[threshold] = got
    full, early = pages[1 << 30], pages[64]
    assert early == full
    flat = [ln for page in full for ln in page if ln]
    assert flat[0] == "B.txt:1:hit 0"  # rg --sort path order: B < a-b < a.txt... and a/ dirs
    files = list(dict.fromkeys(ln.split(":")[0] for ln in flat if ":hit" in ln))
    assert files == ["B.txt", "a/b.txt", "a/c/d.txt", "a-b.txt", "a.txt", "a0.txt", "z/y.txt"]


async def test_early_stop_pass_says_there_is_more(ctx, tmp_path, monkeypatch):
    from claude_harness.tools.grep import tool as grep_tool

    monkeypatch.setattr(grep_tool, "FULL_READ_MAX_BYTES", 64)
    write(tmp_path, "big.txt", "hit\n" * 5000)
    out = await grep(ctx, pattern="hit", output_mode="content", head_limit=3, offset=3)
    assert out.splitlines()[:3] == ["big.txt:4:hit", "big.txt:5:hit", "big.txt:6:hit"]
    assert "there are more" in out and "Use offset=6" in out
    beyond = await grep(ctx, pattern="hit", output_mode="content", offset=4990, head_limit=50)
    lines = beyond.splitlines()
    assert lines[:10] == [f"big.txt:{n}:hit" for n in range(4991, 5001)]
    assert lines[-1] == "[Showing lines 4991-5000 of 5000 (offset=4990).]"  # exact again
