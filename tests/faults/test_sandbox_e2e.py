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
    """The project's sandbox settings (the runs below trust the folder: before trust, settings
    that widen the sandbox are held back, see tests/config/test_untrusted_clone.py)."""
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
    proc = run_cli(["-p", "go", "--trust-workspace", "--permission-mode", "bypassPermissions", "--output-format",
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
    proc = run_cli(["-p", "go", "--trust-workspace", "--allowedTools", "Bash", "--output-format", "stream-json",
                    "--verbose"], project)
    assert proc.returncode == 0, proc.stderr
    assert "Sandbox enabled but unavailable: bubblewrap" in proc.stderr
    [result] = _bash_results(proc.stdout)
    assert "ran outside the sandbox: the sandbox cannot run here" in json.dumps(result)


@needs_bwrap
def test_what_would_ask_runs_sandboxed_in_p_and_unsandboxed_requests_are_denied(
    project: Path, api: Any, tmp_path: Path
) -> None:
    """Default mode, no allow rule: `-p` would deny this command, but with the sandbox on
    (autoAllowBashIfSandboxed is the default) it runs, sandboxed; the same command asking to
    leave the sandbox needs a prompt, which `-p` cannot give: denied and reported."""
    outside = tmp_path / "outside"
    outside.mkdir()
    _settings(project, {"enabled": True})
    command = f"echo pwned > {outside}/x; echo in > src/in.txt"
    api([
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]},
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": "echo out > src/out.txt",
                                "dangerouslyDisableSandbox": True}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    proc = run_cli(["-p", "go", "--trust-workspace", "--output-format", "stream-json", "--verbose"], project)
    assert proc.returncode == 0, proc.stderr
    sandboxed, unsandboxed = _bash_results(proc.stdout)
    assert not sandboxed.get("is_error") or "Read-only file system" in json.dumps(sandboxed)
    assert (project / "src" / "in.txt").read_text() == "in\n"
    assert not (outside / "x").exists()
    assert unsandboxed["is_error"] and "dangerouslyDisableSandbox" in json.dumps(unsandboxed)
    assert not (project / "src" / "out.txt").exists()
    result = ndjson(proc.stdout)[-1]
    assert [d["tool_input"].get("dangerouslyDisableSandbox")
            for d in result["permission_denials"]] == [True]


def test_missing_user_namespaces_are_named_at_start_up(
    project: Path, api: Any, tmp_path: Path
) -> None:
    """A bwrap that cannot create namespaces (as in an unprivileged container): the start-up
    notice says so and where to look."""
    check_availability.cache_clear()
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely "
                    "because the kernel does not allow non-privileged user namespaces' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    _settings(project, {"enabled": True, "bwrapPath": str(fake)})
    api([{"content": [{"type": "text", "text": "done"}]}])
    proc = run_cli(["-p", "go", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr
    assert "Sandbox enabled but unavailable: bubblewrap cannot create the sandbox" in proc.stderr
    assert "user namespaces are probably disabled" in proc.stderr
    check_availability.cache_clear()
