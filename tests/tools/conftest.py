"""Shared fixtures for the tool tests: a real ToolUseContext rooted in a temporary directory.

Several helpers add tests here; fixtures are only ever added, never removed or changed in shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext


def make_ctx(cwd: Path) -> ToolUseContext:
    """A plain context as the pipeline would hand a tool: fresh read-file cache, no hooks, no UI."""
    return ToolUseContext(
        options=ToolUseOptions(),
        permission=PermissionContext(cwd=cwd),
        abort=AbortSignal(),
        read_file_state=FileStateCache(),
        shell=ShellState(cwd),
    )


@pytest.fixture
def ctx(tmp_path: Path) -> ToolUseContext:
    """A context whose working directory is the test's tmp_path."""
    return make_ctx(tmp_path)


@pytest.fixture
def session_ctx(tmp_path: Path) -> ToolUseContext:
    """A context with a session folder inside tmp_path (where Bash saves long output)."""
    return replace(make_ctx(tmp_path), options=ToolUseOptions(session_dir=tmp_path / "session"))


@pytest.fixture
def no_leftover_shells() -> Iterator[None]:
    """Kill every background shell a test started."""
    from claude_harness.tools.bash.background import REGISTRY

    yield
    REGISTRY.kill_all()
