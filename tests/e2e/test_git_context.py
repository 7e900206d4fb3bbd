"""The context Claude Code gives the model, given by ours: the git snapshot (compared with the
one Claude Code 2.1.332 sends for the same repository, when it is installed), the git
instructions, `includeGitInstructions: false` and its environment variable, `language` and
`claudeMdExcludes`; and the snapshot runs nothing the repository configures."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness.agent.git_context import STATUS_LIMIT, gather
from claude_harness.testing.mock_api import MockApiServer
from tests.e2e.support import run_cli

REFERENCE = Path(os.environ.get("CLAUDE_HARNESS_REFERENCE_CLI",
                                "/opt/cc/node_modules/.bin/claude"))


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"})


def _repo(project: Path, untracked: int = 3) -> Path:
    """The project as a repository on branch `feature`: 8 commits, a change, untracked files."""
    _git(project, "init", "-q", "-b", "feature")
    _git(project, "config", "user.name", "Test Person")
    _git(project, "config", "user.email", "t@example.com")
    _git(project, "add", ".")
    _git(project, "commit", "-qm", "first commit")
    for number in range(1, 8):
        (project / "README.md").write_text(f"# demo {number}\n")
        _git(project, "commit", "-qam", f"commit {number}")
    (project / "README.md").write_text("# changed\n")
    for number in range(untracked):
        (project / f"untracked_file_with_a_long_name_{number}.txt").write_text("x")
    return project


def _system(request: dict[str, Any]) -> str:
    system = request["system"]
    return system if isinstance(system, str) else "".join(b["text"] for b in system)


def _snapshot_fields(text: str) -> str:
    """From `Current branch:` to the last of the recent commits: the facts of the snapshot."""
    start = text.index("Current branch:")
    commits = text.index("Recent commits:\n", start)
    end = commits + len("Recent commits:\n")
    lines = text[end:].split("\n")
    kept = []
    for line in lines:
        if not re.fullmatch(r"[0-9a-f]{7,} .*", line):
            break
        kept.append(line)
    return text[start:end] + "\n".join(kept)


def test_snapshot_in_the_system_prompt_has_claude_codes_shape(project: Path, api: Any) -> None:
    _repo(project)
    server = api(["ok"])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    system = _system(server.requests[0])
    assert "# gitStatus" in system
    fields = _snapshot_fields(system)
    assert fields.startswith(
        "Current branch: feature\n\nMain branch (you will usually use this for PRs): main\n\n"
        "Git user: Test Person\n\nStatus:\n M README.md\n"
        "?? untracked_file_with_a_long_name_0.txt\n")
    commits = fields.split("Recent commits:\n")[1].splitlines()
    assert [c.split(" ", 1)[1] for c in commits] == [f"commit {n}" for n in (7, 6, 5, 4, 3)]
    assert "Working with git:" in system  # the commit and pull request guidance


def test_status_is_cut_at_two_thousand_characters(project: Path) -> None:
    _repo(project, untracked=150)
    text = gather(project)
    assert text is not None
    status = text.split("Status:\n", 1)[1].split("\n\nRecent commits:")[0]
    body, note = status.split("\n... (truncated because it exceeds 2k characters.")
    assert len(body) == STATUS_LIMIT
    assert note.startswith(" If you need more information, run \"git status\" using Bash)")


@pytest.mark.skipif(not REFERENCE.exists(), reason="Claude Code is not installed")
def test_snapshot_matches_claude_codes_for_the_same_repository(project: Path, api: Any,
                                                               tmp_path: Path) -> None:
    """Claude Code and we, on one repository (status long enough to be cut): the same branch,
    main branch, user, status (cut at the same character) and commits."""
    _repo(project, untracked=150)
    cc_home = tmp_path / "cc-home"
    cc_home.mkdir()
    server = MockApiServer({"turns": ["ok"]})
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ANTHROPIC"))}
        env.update(HOME=str(cc_home), ANTHROPIC_BASE_URL=server.url,
                   ANTHROPIC_API_KEY="sk-dummy", DISABLE_AUTOUPDATER="1",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
        done = subprocess.run([str(REFERENCE), "-p", "hi"], cwd=project, env=env,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        theirs = json.dumps(server.requests[0]["messages"])
    finally:
        server.close()
    their_text = json.loads(f'"{theirs.split("# gitStatus")[1].split("</system-reminder>")[0]}"')
    ours = api(["ok"])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    assert _snapshot_fields(_system(ours.requests[0])) == _snapshot_fields(their_text)


def test_include_git_instructions_false_and_the_env_var_switch_both_off(
        project: Path, api: Any, home: Path) -> None:
    _repo(project)
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"includeGitInstructions": false}')
    server = api(["ok"])
    assert run_cli(["-p", "hi"], project).returncode == 0
    system = _system(server.requests[0])
    assert "# gitStatus" not in system and "Working with git:" not in system
    (home / ".claude" / "settings.json").write_text("{}")
    server = api(["ok"])
    env_before = os.environ.get("CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS")
    os.environ["CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS"] = "1"
    try:
        assert run_cli(["-p", "hi"], project).returncode == 0
    finally:
        if env_before is None:
            del os.environ["CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS"]
        else:
            os.environ["CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS"] = env_before
    system = _system(server.requests[0])
    assert "# gitStatus" not in system and "Working with git:" not in system


def test_outside_a_repository_there_is_no_snapshot(project: Path, api: Any) -> None:
    server = api(["ok"])
    assert run_cli(["-p", "hi"], project).returncode == 0
    assert "# gitStatus" not in _system(server.requests[0])


def _booby_trapped(project: Path, marker: Path) -> None:
    """A repository whose config runs programs on a plain `git status`: an fsmonitor, a clean
    filter on a file whose stat changed but size did not, and hooks."""
    _repo(project)
    (project / ".gitattributes").write_text("*.py filter=trap\n")
    _git(project, "add", ".gitattributes")
    _git(project, "commit", "-qm", "attributes")
    touch = f"echo ran >> {marker}"
    _git(project, "config", "filter.trap.clean", f"sh -c '{touch}; cat'")
    _git(project, "config", "core.fsmonitor", f"sh -c '{touch}' #")
    hooks = project / ".git" / "hooks"
    for name in ("post-index-change", "reference-transaction"):
        (hooks / name).write_text(f"#!/bin/sh\n{touch}\n")
        (hooks / name).chmod(0o755)
    app = project / "src" / "app.py"
    app.write_text(app.read_text().replace("hello", "HELLO"))  # same size, new mtime
    future = time.time() + 5
    os.utime(app, (future, future))


def test_the_snapshot_runs_nothing_the_repository_configures(project: Path, api: Any,
                                                             tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    _booby_trapped(project, marker)
    probe = tmp_path / "probe"
    shutil.copytree(project, probe, symlinks=True)
    subprocess.run(["git", "status", "--short"], cwd=probe, capture_output=True, check=False)
    assert marker.exists(), "the fixture must run programs under a plain git status"
    marker.unlink()
    server = api(["ok"])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    system = _system(server.requests[0])
    assert "M src/app.py" in system  # the status is there...
    assert "own git filters off" in system  # ...and says the filters were off
    assert not marker.exists()


def test_a_slow_repository_is_skipped_not_waited_for(project: Path) -> None:
    _repo(project)
    started = time.monotonic()
    assert gather(project, timeout=0.0) is None
    assert time.monotonic() - started < 0.5


def test_language_setting_adds_the_language_section(project: Path, api: Any,
                                                    home: Path) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"language": "french"}')
    server = api(["ok"])
    assert run_cli(["-p", "hi"], project).returncode == 0
    assert "# Language\nAlways respond in french." in _system(server.requests[0])


def test_claude_md_excludes_leaves_those_files_out(project: Path, api: Any, home: Path) -> None:
    _repo(project)
    (project / "CLAUDE.md").write_text("ROOT MEMORY LINE\n")
    (project / "CLAUDE.local.md").write_text("LOCAL MEMORY LINE\n")
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"claudeMdExcludes": [str(project / "CLAUDE.md")]}))
    server = api(["ok"])
    assert run_cli(["-p", "hi"], project).returncode == 0
    system = _system(server.requests[0])
    assert "ROOT MEMORY LINE" not in system and "LOCAL MEMORY LINE" in system
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"claudeMdExcludes": ["**/*.local.md"]}))
    server = api(["ok"])
    assert run_cli(["-p", "hi"], project).returncode == 0
    system = _system(server.requests[0])
    assert "ROOT MEMORY LINE" in system and "LOCAL MEMORY LINE" not in system
