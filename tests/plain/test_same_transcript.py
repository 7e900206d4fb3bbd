"""The plain REPL and `-p` drive the same engine: one scripted session gives the same
transcript on disk (same messages, same tool results), even though `-p` is allowed by a rule
and the REPL's user approves interactively."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.session.transcript import latest_session, load_messages
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
    path = latest_session(home / "data", project)
    assert path is not None
    return load_messages(path)


def test_plain_and_print_mode_write_the_same_transcript(project: Path, tmp_path: Path) -> None:
    home_p, home_plain = tmp_path / "home-p", tmp_path / "home-plain"
    home_p.mkdir()
    home_plain.mkdir()
    headless = run(project, home_p, ["-p", "summarise", "--allowedTools", "Bash(touch *)"], "")
    (project / "out.txt").unlink()
    plain = run(project, home_plain, ["--plain"], "summarise\n1\n")
    assert (project / "out.txt").exists()
    assert len(plain) == 6
    assert plain == headless
