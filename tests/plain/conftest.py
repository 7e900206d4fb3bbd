"""Fixtures for the plain REPL tests: isolated home/data dirs, a project folder, the scripted
Messages API server, and a tmux-driven `claude-harness --plain` pointed at it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.plain.tmux_helpers import TmuxSession

FORCING_VARS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "LINES")


@pytest.fixture(autouse=True)
def no_forced_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Variables that make Rich treat a pipe as a terminal would hide what these tests check."""
    for var in FORCING_VARS:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "README.md").write_text("# demo\n")
    return proj


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


def child_env(home: Path, server: MockApiServer) -> dict[str, str]:
    """The environment the program runs with: nothing inherited that points elsewhere."""
    return {
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "CLAUDE_HARNESS_DATA_DIR": str(home / "data"),
        "CLAUDE_HARNESS_MANAGED_SETTINGS": str(home / "no-managed.json"),
        "CLAUDE_HARNESS_RETRY_BASE_DELAY": "0.05",
        "ANTHROPIC_BASE_URL": server.url,
        "ANTHROPIC_API_KEY": "test",
        "TERM": "xterm-256color",
        "CLAUDE_HARNESS_NO_DAEMON": "1",  # no warm process left behind
    }


@pytest.fixture
def plain_tmux(project: Path, home: Path) -> Iterator[Any]:
    """`start(turns, *args)` -> (TmuxSession, MockApiServer); both stopped in teardown."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is required for the plain REPL terminal tests")
    started: list[tuple[TmuxSession, MockApiServer]] = []

    def start(turns: list[Any], *args: str, env: dict[str, str] | None = None,
              trusted: bool = True, piped: str | None = None
              ) -> tuple[TmuxSession, MockApiServer]:
        if trusted:  # most tests start in a folder the user already trusted
            from claude_harness.config.trust import trust_folder

            trust_folder(home / "data", project.resolve())
        server = MockApiServer({"turns": turns})
        try:
            session = TmuxSession(project, {**child_env(home, server), **(env or {})},
                                  list(args), piped=piped)
        except Exception:
            server.close()
            raise
        started.append((session, server))
        return session, server

    yield start
    for session, server in started:
        session.kill()
        server.close()
