"""The sandbox through the real binary: settings turn it on, and it holds even in
bypassPermissions mode (the sandbox is not a permission prompt: it is the OS saying no)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.sandbox.availability import check_availability
from tests.e2e.support import ndjson, run_cli
from tests.sandbox.conftest import needs_bwrap


def _settings(project: Path, sandbox: dict[str, Any]) -> None:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"sandbox": sandbox}))


def _bash_results(stdout: str) -> list[dict[str, Any]]:
    return [b for line in ndjson(stdout) if line.get("type") == "user"
            for b in line["message"]["content"] if b.get("type") == "tool_result"]


@needs_bwrap
def test_settings_sandbox_the_real_harness_even_when_bypassing_permissions(
    project: Path, api: Any, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    _settings(project, {"enabled": True})
    api([
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": f"echo pwned > {outside}/x; echo in > src/in.txt"}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    proc = run_cli(["-p", "go", "--permission-mode", "bypassPermissions", "--output-format",
                    "stream-json", "--verbose"], project)
    assert proc.returncode == 0, proc.stderr
    [result] = _bash_results(proc.stdout)
    assert "Read-only file system" in json.dumps(result)
    assert "ran in the sandbox" in json.dumps(result)
    assert not (outside / "x").exists()
    assert (project / "src" / "in.txt").read_text() == "in\n"


def test_an_unavailable_sandbox_is_announced_at_start_up(
    project: Path, api: Any, tmp_path: Path
) -> None:
    check_availability.cache_clear()
    _settings(project, {"enabled": True, "bwrapPath": str(tmp_path / "no-bwrap")})
    api([
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "echo hi"}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    proc = run_cli(["-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json",
                    "--verbose"], project)
    assert proc.returncode == 0, proc.stderr
    assert "Sandbox enabled but unavailable: bubblewrap" in proc.stderr
    [result] = _bash_results(proc.stdout)
    assert "ran outside the sandbox: the sandbox cannot run here" in json.dumps(result)
