""""Yes, and don't ask again": the suggested rule is saved, reloaded, and matches the next call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_harness.config.local_rules import update_local_rules
from claude_harness.config.settings import CliSettings, load_settings
from claude_harness.permissions.resolver import resolve_permission
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.tools.bash import TOOL as BASH
from claude_harness.tools.write import TOOL as WRITE
from tests.permissions.perm_helpers import context, decide_bash, make_project


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(tmp_path / "none.json"))
    return make_project(tmp_path / "proj").resolve()


async def _decide(tool, raw: dict, cwd: Path):
    perm = load_settings(cwd, cli=CliSettings()).permission_context(interactive=True)
    ctx = ToolUseContext(options=ToolUseOptions(), permission=perm, abort=AbortSignal(),
                         read_file_state=FileStateCache(), shell=ShellState(cwd))
    return await resolve_permission(tool, tool.input_model.model_validate(raw), ctx)


@pytest.mark.parametrize("command,suggestion", [
    ("npm run test --watch", "Bash(npm run test *)"),
    ("git push origin main", "Bash(git push *)"),
    ("make build", "Bash(make build *)"),
    ("pytest -x tests", "Bash(pytest *)"),
    ("python3 manage.py migrate", "Bash(python3 *)"),
    ("NODE_ENV=test npm test", "Bash(npm test *)"),
    ("timeout 60 cargo build --release", "Bash(cargo build *)"),
    ("npm run build && git commit -m x && ls", "Bash(npm run build *), Bash(git commit *)"),
])
def test_bash_suggestions(proj: Path, command: str, suggestion: str) -> None:
    assert decide_bash(command, context(proj)).suggestion == suggestion


def test_no_suggestion_for_commands_a_rule_cannot_cover(proj: Path) -> None:
    for command in ("echo ${x@P}", "git -c core.pager=x log",
                    "find . -exec rm {} +", "python3 -c 'print(1)'"):
        d = decide_bash(command, context(proj))
        assert d.behavior == "ask" and d.suggestion is None, command


def test_compound_suggestion_is_capped_at_five(proj: Path) -> None:
    command = " && ".join(f"tool{i} run" for i in range(8))
    assert (decide_bash(command, context(proj)).suggestion or "").count("Bash(") == 5


@pytest.mark.parametrize("command", [
    "npm run test --watch",
    "npm run build && make dist",
    "NODE_ENV=test npm test -- --ci",
    "docker compose up -d",
])
async def test_round_trip(proj: Path, command: str) -> None:
    first = await _decide(BASH, {"command": command}, proj)
    assert first.behavior == "ask" and first.suggestion
    update_local_rules(proj, add=first.suggestion)
    again = await _decide(BASH, {"command": command}, proj)
    assert again.behavior == "allow", again.reason
    assert again.decided_by == "rule"


async def test_round_trip_for_a_file_edit(proj: Path) -> None:
    raw = {"file_path": str(proj / "src" / "pkg" / "new.py"), "content": "x"}
    first = await _decide(WRITE, raw, proj)
    assert first.behavior == "ask" and first.suggestion == "Edit(/src/pkg/**)"
    update_local_rules(proj, add=first.suggestion)
    assert (await _decide(WRITE, raw, proj)).behavior == "allow"
    other = {"file_path": str(proj / "docs" / "x.md"), "content": "x"}
    assert (await _decide(WRITE, other, proj)).behavior == "ask"


def test_save_keeps_other_keys_and_does_not_duplicate(proj: Path) -> None:
    path = proj / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"model": "m", "permissions": {"allow": ["Read"], "deny": ["X"]}}))
    update_local_rules(proj, add="Bash(make *)")
    update_local_rules(proj, add="Bash(make *)")
    data = json.loads(path.read_text())
    assert data == {"model": "m", "permissions": {"allow": ["Read", "Bash(make *)"], "deny": ["X"]}}


def test_save_refuses_to_clobber_a_broken_file(proj: Path) -> None:
    path = proj / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text("{broken")
    with pytest.raises(ValueError, match="not valid JSON"):
        update_local_rules(proj, add="Bash(make *)")
    assert path.read_text() == "{broken"
    with pytest.raises(ValueError):
        update_local_rules(proj, add="Bash(make *")


async def test_round_trip_outside_read_and_redirect(proj: Path, tmp_path: Path) -> None:
    other = tmp_path / "shared"
    other.mkdir()
    (other / "notes.txt").write_text("n")
    assert (await _decide(BASH, {"command": f"cat {other}/notes.txt"}, proj)).suggestion == (
        f"Read(/{other}/**)")
    assert (await _decide(BASH, {"command": "npm test > build.log"}, proj)).suggestion == (
        "Bash(npm test *), Edit(/build.log)")
    for command in (f"cat {other}/notes.txt", "npm test > build.log",
                    f"grep -n x {other}/notes.txt | head > out/list.txt"):
        (proj / "out").mkdir(exist_ok=True)
        first = await _decide(BASH, {"command": command}, proj)
        assert first.behavior == "ask" and first.suggestion, command
        update_local_rules(proj, add=first.suggestion)
        again = await _decide(BASH, {"command": command}, proj)
        assert again.behavior == "allow", (command, first.suggestion, again.reason)
