"""CLAUDE.md memory files: hierarchy, imports, and their place in the system prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.agent.prompt import render_system_prompt
from claude_harness.config.memory import load_memory


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pkg" / "sub").mkdir(parents=True)
    (home / ".claude" / "CLAUDE.md").write_text("USER: prefer short answers\n")
    (repo / "CLAUDE.md").write_text("ROOT: run tests with pytest\n@docs/style.md\n")
    (repo / "docs").mkdir()
    (repo / "docs" / "style.md").write_text("STYLE: four spaces\n@deeper.md\n")
    (repo / "docs" / "deeper.md").write_text("DEEPER: imported twice removed\n")
    (repo / "pkg" / ".claude").mkdir()
    (repo / "pkg" / ".claude" / "CLAUDE.md").write_text("PKG: package rules\n")
    (repo / "pkg" / "CLAUDE.local.md").write_text("LOCAL: my own notes\n")
    (repo / "pkg" / "sub" / "CLAUDE.md").write_text("SUB: deepest folder\n")
    (tmp_path / "CLAUDE.md").write_text("OUTSIDE: above the repository root\n")
    return repo


def test_hierarchy_from_user_to_cwd_in_order(tree: Path) -> None:
    memory = load_memory(tree / "pkg" / "sub")
    order = [memory.text.index(tag) for tag in
             ("USER:", "ROOT:", "STYLE:", "DEEPER:", "PKG:", "LOCAL:", "SUB:")]
    assert order == sorted(order)
    assert "OUTSIDE:" not in memory.text  # above the repository root
    assert len(memory.files) == 7


def test_imports_stop_at_depth_four_and_ignore_code(tree: Path) -> None:
    chain = tree / "docs"
    for i in range(6):
        (chain / f"c{i}.md").write_text(f"LEVEL{i}\n@c{i + 1}.md\n")
    (tree / "CLAUDE.md").write_text("ROOT\n@docs/c0.md\n`@docs/deeper.md`\n```\n@README.md\n```\n")
    (tree / "README.md").write_text("README-CONTENT\n")
    text = load_memory(tree).text
    assert "LEVEL3" in text and "LEVEL4" not in text
    assert "DEEPER" not in text and "README-CONTENT" not in text


def test_memory_goes_into_the_system_prompt(tree: Path) -> None:
    memory = load_memory(tree)
    prompt = render_system_prompt(tree, "m", memory=memory.text)
    assert "ROOT: run tests with pytest" in prompt and str(tree) in prompt
