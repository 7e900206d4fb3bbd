"""An isolated user config dir and a project folder (a git repository) for command and agent
files."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home" / ".claude"
    folder.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def repo(tmp_path: Path, user_dir: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# The end-to-end fixtures (scripted API server, project folder) for the Skill tool tests.
from tests.e2e.conftest import api, project  # noqa: E402, F401
