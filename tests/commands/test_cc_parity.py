"""The corpus of real files in tests/fixtures loads as Claude Code loads it.

`cc_expected.json` records what Claude Code 2.1.332 listed in its system/init line for each
fixture folder (its own built-ins taken out); it was produced by running the real binary on
copies of these folders (see tests/fixtures/README.md). These tests need no Claude Code: they
compare our catalog's lists with the recorded ones, name by name.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from claude_harness.commands.agents import BUILTIN_AGENTS
from claude_harness.commands.catalog import load_catalog

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXPECTED = json.loads((FIXTURES / "cc_expected.json").read_text(encoding="utf-8"))["folders"]
BUILTIN_NAMES = {a.name for a in BUILTIN_AGENTS}
PROJECTS = [name for name in EXPECTED if name != "plugins"]


@pytest.fixture(autouse=True)
def empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))


def _copy(name: str, tmp_path: Path) -> Path:
    """A copy outside this repository, as Claude Code was run (no parent `.claude` folders)."""
    target = tmp_path / "work" / name
    shutil.copytree(FIXTURES / "projects" / name, target)
    return target


def _ours(fields: dict[str, list]) -> dict[str, list]:
    return {**fields, "agents": [a for a in fields["agents"] if a not in BUILTIN_NAMES]}


@pytest.mark.parametrize("name", PROJECTS)
def test_project_folder_lists_match_claude_code(name: str, tmp_path: Path) -> None:
    catalog = load_catalog(_copy(name, tmp_path))
    ours = _ours(catalog.init_fields())
    expected = EXPECTED[name]
    for key in ("agents", "skills", "slash_commands"):
        assert sorted(ours[key]) == sorted(expected[key]), key
    assert ours["plugins"] == []


def test_plugin_folders_match_claude_code(tmp_path: Path) -> None:
    plugin_dirs = [*sorted(p for p in (FIXTURES / "plugins").iterdir() if p.is_dir()),
                   FIXTURES / "projects" / "xcode-previews"]
    empty = tmp_path / "empty"
    empty.mkdir()
    catalog = load_catalog(empty, plugin_dirs=plugin_dirs)
    ours = _ours(catalog.init_fields())
    expected = EXPECTED["plugins"]
    for key in ("agents", "skills", "slash_commands"):
        assert sorted(ours[key]) == sorted(expected[key]), key
    assert sorted((p["name"], p["source"], p.get("version")) for p in ours["plugins"]) == \
        sorted((p["name"], p["source"], p.get("version")) for p in expected["plugins"])


def test_counts_are_not_trivially_empty() -> None:
    """The recorded data covers every kind, so the comparisons above can fail."""
    total = {key: sum(len(f[key]) for f in EXPECTED.values())
             for key in ("agents", "skills", "slash_commands", "plugins")}
    assert total["agents"] >= 30 and total["skills"] >= 30
    assert total["slash_commands"] >= 70 and total["plugins"] >= 5
