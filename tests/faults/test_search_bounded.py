"""Searches are bounded: a huge tree (generated) and `/` itself give partial results, with a note
saying so, within the timeout (CLAUDE_CODE_GLOB_TIMEOUT_SECONDS), never a hang."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.tools.glob import TOOL as GLOB
from claude_harness.tools.grep import TOOL as GREP
from tests.tools.conftest import make_ctx

DIRS, FILES_PER_DIR = 200, 200  # 40,000 files, each matching


@pytest.fixture(scope="module")
def huge_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("huge")
    line = "needle in a haystack line\n" * 40
    for d in range(DIRS):
        folder = root / f"d{d:03}"
        folder.mkdir()
        for f in range(FILES_PER_DIR):
            (folder / f"f{f:03}.txt").write_text(line)
    return root


async def _run(tool: Any, ctx: ToolUseContext, **kw: Any) -> tuple[str, float]:
    inp = tool.input_model.model_validate(kw)
    start = time.monotonic()
    result = await tool.call(inp, ctx, lambda _: None)
    assert not result.is_error
    return result.data, time.monotonic() - start


@pytest.mark.parametrize("mode", ["files_with_matches", "content", "count"])
async def test_a_huge_tree_gives_partial_results_with_a_note(
    huge_tree: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_GLOB_TIMEOUT_SECONDS", "0.02")
    text, took = await _run(GREP, make_ctx(huge_tree), pattern="needle", output_mode=mode,
                            head_limit=0)
    assert "timed out after 0.02 seconds" in text and "partial" in text
    assert took < 5
    entries = [ln for ln in text.splitlines() if "needle" in ln or ln.endswith((".txt", ":40"))]
    assert len(entries) < DIRS * FILES_PER_DIR * (40 if mode == "content" else 1)


async def test_the_same_search_completes_without_a_note_given_time(
    huge_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_GLOB_TIMEOUT_SECONDS", "60")
    text, _ = await _run(GREP, make_ctx(huge_tree), pattern="needle", output_mode="count",
                         head_limit=0)
    assert "timed out" not in text
    assert len(text.splitlines()) >= DIRS * FILES_PER_DIR


async def test_glob_over_a_huge_tree_is_bounded_too(
    huge_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 1 ms: less than rg needs even to start, so the search is always cut (with the page cache
    # warm, rg lists the whole 40,000-file tree within 20 ms)
    monkeypatch.setenv("CLAUDE_CODE_GLOB_TIMEOUT_SECONDS", "0.001")
    text, took = await _run(GLOB, make_ctx(huge_tree), pattern="**/*.txt")
    assert "timed out" in text and took < 5


async def test_grep_of_the_whole_file_system_returns_partial_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_GLOB_TIMEOUT_SECONDS", "1")
    # A pattern nothing on disk matches (this file holds the regex, not a match): rg must walk
    # and read everything, /proc and /sys included.
    text, took = await _run(GREP, make_ctx(tmp_path), pattern="x{3}q{4}z", path="/")
    assert took < 6, f"took {took:.1f}s"
    assert "timed out after 1 seconds" in text and "partial" in text
