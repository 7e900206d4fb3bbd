"""`-p`, the Textual app and the plain REPL drive the same engine: one scripted session gives
the same transcript on disk (same messages, same tool results), though `-p` is allowed by a rule
and the two interactive front ends' user approves the Bash call with `1`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.session.store.transcript import latest_session, load_messages
from claude_harness.testing.mock_api import MockApiServer
from tests.plain.conftest import child_env

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


def script(project: Path) -> list[Any]:
    return [
        {"content": ["Reading first.", {"type": "tool_use", "name": "Read",
                                        "input": {"file_path": str(project / "README.md")}}]},
        {"content": [{"type": "tool_use", "name": "Grep",
                      "input": {"pattern": "demo", "output_mode": "content"}},
                     {"type": "tool_use", "name": "Bash", "input": {"command": "touch out.txt"}}]},
        "All done: the README is a demo.",
    ]


def run(project: Path, home: Path, args: list[str], stdin: str) -> list[dict[str, Any]]:
    with MockApiServer({"turns": script(project)}) as server:
        env = {**os.environ, **child_env(home, server)}
        done = subprocess.run([sys.executable, "-m", "claude_harness", *args], cwd=project,
                              input=stdin, capture_output=True, text=True, timeout=90, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert server.remaining_turns == 0
    path = latest_session(home / ".claude", project)  # where Claude Code keeps its own
    assert path is not None
    return load_messages(path)


async def run_app(project: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The real Textual app, built by the real bootstrap, driven by a pilot."""
    from claude_harness.frontends.tui.app import HarnessApp
    from claude_harness.frontends.tui.widgets.permission_prompt import PermissionPrompt
    from claude_harness.session.bootstrap import build_session
    from claude_harness.session.options import RunOptions
    from tests.tui.helpers import send, wait_for

    with MockApiServer({"turns": script(project)}) as server:
        for key, value in child_env(home, server).items():
            monkeypatch.setenv(key, value)
        app = HarnessApp(cwd=project, preload_transport=False, session_factory=lambda: build_session(
            RunOptions(cwd=project), trusted=True))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.ready, what="engine ready")
            await send(pilot, "summarise")
            await wait_for(pilot, lambda: next(iter(app.query(PermissionPrompt)), None),
                           what="permission prompt")
            await pilot.press("1")
            await wait_for(pilot, lambda: server.remaining_turns == 0 and not app.busy,
                           timeout=30, what="turn end")
    path = latest_session(home / ".claude", project)  # where Claude Code keeps its own
    assert path is not None
    return load_messages(path)


async def test_print_mode_app_and_plain_write_the_same_transcript(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    homes = {name: tmp_path / f"home-{name}" for name in ("p", "app", "plain")}
    for home in homes.values():
        home.mkdir()
    headless = run(project, homes["p"], ["-p", "summarise", "--allowedTools", "Bash(touch *)"],
                   "")
    (project / "out.txt").unlink()
    app = await run_app(project, homes["app"], monkeypatch)
    assert (project / "out.txt").exists()
    (project / "out.txt").unlink()
    from claude_harness.config.trust import trust_folder

    trust_folder(homes["plain"] / "data", project.resolve())
    plain = run(project, homes["plain"], ["--plain"], "summarise\n1\n")
    assert (project / "out.txt").exists()
    assert len(plain) == 6
    assert plain == headless
    assert app == headless
