"""Fixtures for the hook tests: a project dir and a runner over user-settings hooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_harness.hooks import HookConfig, HookRunner
from tests.hooks.hook_helpers import MakeRunner


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    p.mkdir()
    return p


@pytest.fixture
def make_runner(project: Path, tmp_path: Path) -> MakeRunner:
    """make_runner({"PreToolUse": [group(...)]}) -> a runner with those hooks as user settings."""

    def make(hooks: dict, *, mode: str = "default", **from_sources: Any) -> HookRunner:
        settings = tmp_path / "user-settings.json"
        config = HookConfig.from_sources([("userSettings", settings, hooks)], **from_sources)
        assert config.warnings == (), config.warnings
        return HookRunner(
            config,
            project_dir=project,
            session_id="sess-123",
            transcript_path=str(tmp_path / "transcript.jsonl"),
            get_permission_mode=lambda: mode,
        )

    return make
