"""`claude-harness mcp add|add-json|get|remove|list|reset-project-choices` write the files
Claude Code writes: what one program adds, the other lists, shows and removes (Claude Code
2.1.332 run in the same HOME; both read `$CLAUDE_CONFIG_DIR/.claude.json` and `.mcp.json`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from claude_harness.mcp.config import load_mcp_configs
from tests.cc_reference import needs_claude_code, run_claude_code
from tests.e2e.support import run_cli

# Servers that fail at once when Claude Code health-checks them (nothing listens on port 9).
ADDS = [
    ["add", "loc", "-e", "FOO=bar", "-e", "X=1", "--", "true", "-v", "x y"],
    ["add", "-s", "project", "proj", "--transport", "http", "http://127.0.0.1:9/mcp",
     "-H", "Authorization: Bearer tok", "-H", "X-A: b"],
    ["add", "-s", "user", "usr", "-t", "sse", "http://127.0.0.1:9/sse"],
    ["add-json", "js", '{"type":"stdio","command":"true","args":["-"]}'],
]


@pytest.fixture
def repo(project: Path) -> Path:
    """A git repository with the session in a subfolder (local servers are filed under the
    repository's root, project servers in the folder itself)."""
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    sub = project / "sub"
    sub.mkdir()
    return sub


def ours(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(["mcp", *args], cwd)


def user_config(home: Path) -> dict[str, Any]:
    return json.loads((home / ".claude" / ".claude.json").read_text())


def test_add_writes_what_claude_code_writes(repo: Path, home: Path) -> None:
    for args in ADDS:
        done = ours(args, repo)
        assert done.returncode == 0, done.stderr
    config = user_config(home)
    root = str(repo.parent.resolve())
    assert config["projects"][root]["mcpServers"] == {
        "loc": {"type": "stdio", "command": "true", "args": ["-v", "x y"],
                "env": {"FOO": "bar", "X": "1"}},
        "js": {"type": "stdio", "command": "true", "args": ["-"]}}
    assert config["mcpServers"] == {"usr": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"] == {"proj": {
        "type": "http", "url": "http://127.0.0.1:9/mcp",
        "headers": {"Authorization": "Bearer tok", "X-A": "b"}}}
    found = {s.name: s.scope for s in load_mcp_configs(repo).servers}
    assert found == {"loc": "local", "js": "local", "proj": "project", "usr": "user"}


@needs_claude_code
def test_claude_code_lists_and_shows_what_we_added(repo: Path, home: Path) -> None:
    for args in ADDS:
        assert ours(args, repo).returncode == 0
    listed = run_claude_code(["mcp", "list"], repo).stdout
    assert all(f"{name}:" in listed for name in ("loc", "proj", "usr", "js"))
    shown = run_claude_code(["mcp", "get", "loc"], repo).stdout
    assert "Local config" in shown and "Command: true" in shown and "Args: -v x y" in shown
    assert "FOO=bar" in shown and "X=1" in shown
    shown = run_claude_code(["mcp", "get", "proj"], repo).stdout
    assert "Project config" in shown and "URL: http://127.0.0.1:9/mcp" in shown
    assert "Authorization: Bearer tok" in shown
    shown = run_claude_code(["mcp", "get", "usr"], repo).stdout
    assert "User config" in shown and "Type: sse" in shown


@needs_claude_code
def test_we_list_and_show_what_claude_code_added(repo: Path, home: Path) -> None:
    for args in ADDS:
        done = run_claude_code(["mcp", *args], repo)
        assert done.returncode == 0, done.stderr
    listed = [line for line in ours(["list"], repo).stdout.splitlines() if ": " in line]
    assert sorted(line.split(":")[0] for line in listed) == ["js", "loc", "proj", "usr"]
    assert "proj: http://127.0.0.1:9/mcp (HTTP) - ⏸ Pending approval" in "\n".join(listed)
    shown = ours(["get", "loc"], repo).stdout
    assert "Scope: Local config" in shown and "Command: true" in shown
    assert "Args: -v x y" in shown and "FOO=bar" in shown
    shown = ours(["get", "proj"], repo).stdout
    assert "Authorization: Bearer tok" in shown and "Status: ⏸ Pending approval" in shown
    assert "Type: sse" in ours(["get", "usr"], repo).stdout


@needs_claude_code
def test_remove_in_both_directions(repo: Path, home: Path) -> None:
    assert ours(ADDS[0], repo).returncode == 0
    done = run_claude_code(["mcp", "remove", "loc"], repo)
    assert done.returncode == 0, done.stderr
    missing = ours(["get", "loc"], repo)
    assert missing.returncode == 1 and 'No MCP server named "loc"' in missing.stderr
    assert run_claude_code(["mcp", *ADDS[1]], repo).returncode == 0
    removed = ours(["remove", "proj", "-s", "project"], repo)
    assert removed.returncode == 0 and "Removed MCP server proj from project config" in \
        removed.stdout
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"] == {}
    assert run_claude_code(["mcp", "get", "proj"], repo).returncode == 1


def test_a_name_in_two_scopes_is_removed_only_with_a_scope(repo: Path, home: Path) -> None:
    assert ours(["add", "twice", "--", "true"], repo).returncode == 0
    assert ours(["add", "-s", "user", "twice", "--", "true"], repo).returncode == 0
    both = ours(["remove", "twice"], repo)
    assert both.returncode == 1 and "exists in multiple scopes" in both.stderr
    assert "claude-harness mcp remove twice -s local" in both.stderr
    assert ours(["remove", "twice", "-s", "user"], repo).returncode == 0
    assert "mcpServers" not in user_config(home) or user_config(home)["mcpServers"] == {}
    assert [s.scope for s in load_mcp_configs(repo).servers] == ["local"]


@pytest.mark.parametrize(("args", "says"), [
    (["add", "loc", "--", "true"], "already exists in local config"),
    (["add", "bad", "-e", "NOEQUALS", "--", "true"], "is not of the form KEY=VALUE"),
    (["add", "bad", "-t", "http", "http://x", "extra"], "takes a URL only"),
    (["add-json", "bad", "{not json"], "invalid JSON"),
    (["add-json", "bad", '{"type":"carrier-pigeon"}'], "not supported"),
    (["add", "-s", "galaxy", "bad", "--", "true"], "invalid choice"),
])
def test_bad_input_is_refused_in_one_line_and_changes_nothing(
        args: list[str], says: str, repo: Path, home: Path) -> None:
    assert ours(["add", "loc", "--", "true"], repo).returncode == 0
    before = (home / ".claude" / ".claude.json").read_text()
    done = ours(args, repo)
    assert done.returncode != 0 and says in done.stderr and "Traceback" not in done.stderr
    assert (home / ".claude" / ".claude.json").read_text() == before


def test_a_config_file_that_is_not_json_is_left_alone(repo: Path, home: Path) -> None:
    config = home / ".claude" / ".claude.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("{broken")
    done = ours(["add", "-s", "user", "x", "--", "true"], repo)
    assert done.returncode == 1 and "not valid JSON" in done.stderr
    assert config.read_text() == "{broken"


@needs_claude_code
def test_reset_project_choices_asks_again_in_both_programs(repo: Path, home: Path) -> None:
    assert ours(ADDS[1], repo).returncode == 0
    assert ours(["approve", "proj"], repo).returncode == 0
    contacted = "proj: http://127.0.0.1:9/mcp (HTTP) - ✘ Failed to connect"  # it may start
    assert contacted in ours(["list"], repo).stdout
    config_file = home / ".claude" / ".claude.json"  # as if Claude Code had approved it too
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(json.dumps({"projects": {str(repo.parent.resolve()): {
        "enabledMcpjsonServers": ["proj"]}}}))
    done = ours(["reset-project-choices"], repo)
    assert done.returncode == 0 and "have been reset" in done.stdout
    assert "⏸ Pending approval" in ours(["list"], repo).stdout
    project = user_config(home)["projects"][str(repo.parent.resolve())]
    assert project["enabledMcpjsonServers"] == [] and project["disabledMcpjsonServers"] == []
    assert "Pending approval" in run_claude_code(["mcp", "get", "proj"], repo).stdout


def test_approvals_are_kept_in_claude_codes_record_too(repo: Path, home: Path) -> None:
    """`approve`/`reject` also fill the project's enabledMcpjsonServers/disabledMcpjsonServers
    in .claude.json (Claude Code's record of the choice), and a choice found only there counts
    here. (Whether Claude Code then connects also depends on its workspace trust, which is the
    trust dialog's business, not this record's.)"""
    assert ours(ADDS[1], repo).returncode == 0
    assert ours(["approve", "proj"], repo).returncode == 0
    project = user_config(home)["projects"][str(repo.parent.resolve())]
    assert project["enabledMcpjsonServers"] == ["proj"]
    assert ours(["reject", "proj"], repo).returncode == 0
    project = user_config(home)["projects"][str(repo.parent.resolve())]
    assert project["enabledMcpjsonServers"] == [] and project["disabledMcpjsonServers"] == ["proj"]
    assert "proj: http://127.0.0.1:9/mcp (HTTP) - ✘ Rejected" in ours(["list"], repo).stdout
    assert ours(["reset-project-choices"], repo).returncode == 0
    assert "⏸ Pending approval" in ours(["list"], repo).stdout
    config = user_config(home)
    config["projects"][str(repo.parent.resolve())]["enabledMcpjsonServers"] = ["proj"]
    (home / ".claude" / ".claude.json").write_text(json.dumps(config))
    assert "(HTTP) - ✘ Failed to connect" in ours(["list"], repo).stdout  # contacted: approved
