"""Concurrent "don't ask again" saves: many processes, one settings file, no rule lost."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from claude_harness.config.local_rules import update_local_rules
from claude_harness.config.settings_write import update_json_file

SAVERS = 400


def _fork_savers(proj: Path, count: int) -> list[int]:
    """Fork `count` processes that each save one rule once a shared pipe is closed (all at once)."""
    return _fork(proj.parent, count, lambda i: update_local_rules(proj, add=f"Bash(tool-{i} *)"))


def _fork(errors: Path, count: int, action: Callable[[int], object]) -> list[int]:
    """Fork `count` processes that each run `action(i)` once a shared pipe is closed (all at
    once); a failure is written to `errors`/saver-<i>.error."""
    gate_read, gate_write = os.pipe()
    pids = []
    for i in range(count):
        pid = os.fork()
        if pid == 0:  # child: wait at the gate, save, leave without running pytest's teardown
            status = 1
            try:
                os.close(gate_write)
                os.read(gate_read, 1)
                action(i)
                status = 0
            except BaseException as exc:  # say why, for the assertion below
                (errors / f"saver-{i}.error").write_text(repr(exc))
            finally:
                os._exit(status)
        pids.append(pid)
    os.close(gate_read)
    os.close(gate_write)  # open the gate
    return pids


def test_400_concurrent_saves_from_separate_processes_keep_400_rules(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    settings = proj / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"model": "kept", "permissions": {"deny": ["Read(.env)"]}}))

    statuses = [os.waitpid(pid, 0)[1] for pid in _fork_savers(proj, SAVERS)]

    errors = [p.read_text() for p in tmp_path.glob("saver-*.error")]
    assert errors == []
    assert [os.waitstatus_to_exitcode(s) for s in statuses] == [0] * SAVERS
    data = json.loads(settings.read_text())
    assert sorted(data["permissions"]["allow"]) == sorted(f"Bash(tool-{i} *)" for i in range(SAVERS))
    assert data["model"] == "kept" and data["permissions"]["deny"] == ["Read(.env)"]
    leftovers = [p.name for p in settings.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_a_failed_change_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"a": 1}\n')
    path.chmod(0o600)

    def refuse(data: dict) -> None:
        data["a"] = 2
        raise ValueError("no")

    with pytest.raises(ValueError):
        update_json_file(path, refuse)
    assert path.read_text() == '{"a": 1}\n'
    update_json_file(path, lambda data: data.update(b=True))
    assert json.loads(path.read_text()) == {"a": 1, "b": True}
    assert path.stat().st_mode & 0o777 == 0o600  # the user's permissions survive the rename


def test_a_file_that_is_not_an_object_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="JSON object"):
        update_json_file(path, lambda data: data.update(x=1))
    assert path.read_text() == "[1, 2]"


def test_every_settings_writer_keeps_concurrent_changes(tmp_path: Path, home: Path) -> None:
    """Trusting folders, approving MCP servers and choosing a theme from many processes at
    once: every answer is kept (each goes through the locked writer)."""
    from claude_harness.config.paths import user_settings_path
    from claude_harness.config.trust import is_trusted, trust_folder
    from claude_harness.frontends.tui.themes import save_user_theme
    from claude_harness.mcp.approvals import get_approval, record_approval

    store, count = home / "data", 60
    user_settings_path().parent.mkdir(parents=True)
    user_settings_path().write_text(json.dumps({"model": "kept"}))

    def act(i: int) -> None:
        if i % 3 == 0:
            trust_folder(store, tmp_path / f"folder-{i}")
        elif i % 3 == 1:
            record_approval(tmp_path, f"server-{i}", True)
        elif save_user_theme(f"theme-{i}") is not None:
            raise RuntimeError("theme not saved")

    statuses = [os.waitpid(pid, 0)[1] for pid in _fork(tmp_path, count, act)]
    assert [p.read_text() for p in tmp_path.glob("saver-*.error")] == []
    assert [os.waitstatus_to_exitcode(s) for s in statuses] == [0] * count
    assert all(is_trusted(store, tmp_path / f"folder-{i}") for i in range(0, count, 3))
    assert all(get_approval(tmp_path, f"server-{i}") for i in range(1, count, 3))
    user = json.loads(user_settings_path().read_text())
    assert user["model"] == "kept" and user["theme"] in {f"theme-{i}" for i in range(2, count, 3)}
