"""A plain `claude-harness -p hi` never imports what only some runs need (issue 26).

Why: on the very first run after installing (no bytecode yet) every module imported costs its
compile too, and `-p hi` touches no image, no front matter file, no path rule and no shell
command. The real process runs against the scripted API server with -X importtime, whose report
names every module the process imported, so a module-level import added back anywhere on the
start path fails this test. The Bash turn's check is the one place the Bash analysis loads.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from claude_harness.testing.mock_api import MockApiServer

# Top-level packages (and our own modules) a `-p hi` run must not import.
NOT_AT_START = {
    "PIL",  # Read of an image (claude_harness.tools.read.images)
    "yaml",  # front matter of command, agent, skill and rule files
    "pathspec",  # path permission rules and conditional rule files
    "bashlex",  # the Bash command check
    "claude_harness.permissions.bash.analysis",
}


def imported(stderr: str) -> set[str]:
    return set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", stderr, re.M))


def run(home: Path, project: Path, turns: list) -> set[str]:
    with MockApiServer({"turns": turns}) as server:
        env = {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "x",
               "CLAUDE_HARNESS_NO_DAEMON": "1", "HOME": str(home)}
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "claude_harness", "-p", "hi",
             "--allowedTools", "Bash"],
            cwd=project, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() in ("Hello.", "Done."), result.stdout
    return imported(result.stderr)


def loaded(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_a_plain_run_imports_none_of_them(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    modules = run(home, project, ["Hello."])
    assert "claude_harness.frontends.headless" in modules  # the report is read right
    assert sorted(n for n in NOT_AT_START if loaded(modules, n)) == []


def test_the_bash_check_loads_the_bash_analysis(home: Path, tmp_path: Path) -> None:
    """The other side: the lazy imports still happen when the turn needs them."""
    project = tmp_path / "project"
    project.mkdir()
    modules = run(home, project, [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}]},
        "Done."])
    assert loaded(modules, "bashlex") and loaded(modules, "claude_harness.permissions.bash.analysis")
