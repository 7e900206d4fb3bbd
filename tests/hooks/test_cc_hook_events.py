"""Memory and hooks as Claude Code loads them, through the real program and real hook
commands that write their stdin to files: a nested CLAUDE.md loaded when a file below it is
first read (the reminder Claude Code attaches to the Read result), InstructionsLoaded,
CwdChanged, and SessionStart with source `compact` after a compaction."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.e2e.support import run_cli


@pytest.fixture
def project(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    proj = tmp_path / "proj"
    (proj / "sub" / "deep").mkdir(parents=True)
    (proj / "CLAUDE.md").write_text("ROOT MEMORY\n")
    (proj / "sub" / "CLAUDE.md").write_text("SUB MEMORY LINE\n")
    (proj / "sub" / "deep" / "code.py").write_text("print(1)\n")
    (proj / "sub" / "other.py").write_text("print(2)\n")
    monkeypatch.chdir(proj)
    return proj


@pytest.fixture
def api(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    servers: list[MockApiServer] = []

    def start(turns: list[Any]) -> MockApiServer:
        server = MockApiServer({"turns": turns})
        servers.append(server)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        return server

    yield start
    for server in servers:
        server.close()


def _record_hooks(home: Path, out: Path, *events: str) -> None:
    """User settings whose hooks append their stdin (one JSON line) to `out`."""
    command = f"{sys.executable} -c \"import sys; open({str(out)!r}, 'a').write(" \
              "sys.stdin.read().strip() + '\\n')\""
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        event: [{"hooks": [{"type": "command", "command": command}]}] for event in events}}))


def _payloads(out: Path, event: str) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    entries = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return [e for e in entries if e["hook_event_name"] == event]


def _read(path: Path, id_: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "id": id_, "name": "Read",
                         "input": {"file_path": str(path)}}]}


def test_nested_claude_md_is_attached_to_the_first_read_below_it(project: Path, api: Any,
                                                                 home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    _record_hooks(home, out, "InstructionsLoaded")
    code, other = project / "sub" / "deep" / "code.py", project / "sub" / "other.py"
    server = api([_read(code, "toolu_a"), _read(other, "toolu_b"), "done"])
    proc = run_cli(["-p", "read them"], project)
    assert proc.returncode == 0, proc.stderr
    assert "SUB MEMORY LINE" not in json.dumps(server.requests[0])  # not at the start
    first = server.requests[1]["messages"][-1]["content"]
    assert first[0]["type"] == "tool_result" and first[0]["tool_use_id"] == "toolu_a"
    # Claude Code 2.1.332's block after the Read result, byte for byte:
    assert {"type": "text", "text": (f"<system-reminder>\nContents of {project / 'sub'}/"
                                     "CLAUDE.md:\n\nSUB MEMORY LINE\n\n</system-reminder>")} \
        in [{"type": b["type"], "text": b.get("text")} for b in first[1:]]
    second = json.dumps(server.requests[2]["messages"][-1])
    assert "SUB MEMORY LINE" not in second  # told once
    loaded = [p for p in _payloads(out, "InstructionsLoaded")
              if p["load_reason"] == "nested_traversal"]
    assert len(loaded) == 1
    assert loaded[0]["file_path"] == str(project / "sub" / "CLAUDE.md")
    assert loaded[0]["load_reason"] == "nested_traversal"
    assert loaded[0]["memory_type"] == "Project"
    assert loaded[0]["trigger_file_path"] == str(code.resolve())


def test_claude_md_excludes_keeps_a_nested_file_out(project: Path, api: Any,
                                                    home: Path) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"claudeMdExcludes": ["**/sub/CLAUDE.md"]}))
    server = api([_read(project / "sub" / "other.py", "toolu_a"), "done"])
    assert run_cli(["-p", "read"], project).returncode == 0
    assert "SUB MEMORY LINE" not in json.dumps(server.requests[1])


def test_cwd_changed_fires_when_a_cd_carries_over(project: Path, api: Any, home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    _record_hooks(home, out, "CwdChanged")
    bash = {"content": [{"type": "tool_use", "name": "Bash",
                         "input": {"command": "cd sub", "description": "go to sub"}}]}
    stay = {"content": [{"type": "tool_use", "name": "Bash",
                         "input": {"command": "true", "description": "stay"}}]}
    api([bash, stay, "done"])
    proc = run_cli(["-p", "go", "--allowedTools", "Bash"], project)
    assert proc.returncode == 0, proc.stderr
    changed = _payloads(out, "CwdChanged")
    assert [(c["old_cwd"], c["new_cwd"]) for c in changed] == [
        (str(project), str((project / "sub").resolve()))]


def test_session_start_fires_with_source_compact_after_a_compaction(project: Path, api: Any,
                                                                    home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    _record_hooks(home, out, "SessionStart", "PreCompact", "PostCompact")
    api(["first", "<summary>S</summary>", "after"])
    assert run_cli(["-p", "hello"], project).returncode == 0
    assert run_cli(["-c", "-p", "/compact"], project).returncode == 0
    assert run_cli(["-c", "-p", "again"], project).returncode == 0
    sources = [p["source"] for p in _payloads(out, "SessionStart")]
    assert sources == ["startup", "compact", "resume"]  # compact: at once, in its own process
    assert [p["trigger"] for p in _payloads(out, "PreCompact")] == ["manual"]
    assert len(_payloads(out, "PostCompact")) == 1


def test_session_start_compact_context_reaches_the_next_request(project: Path, api: Any,
                                                                home: Path) -> None:
    """What a SessionStart hook prints after a compaction is context for the next request."""
    script = project.parent / "start.sh"
    script.write_text("#!/bin/sh\ncat > /dev/null\necho CONTEXT-AFTER-COMPACT\n")
    script.chmod(0o755)
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [
        {"matcher": "compact", "hooks": [{"type": "command", "command": str(script)}]}]}}))
    server = api(["first", "<summary>S</summary>", "after"])
    assert run_cli(["-p", "hello"], project).returncode == 0
    assert "CONTEXT-AFTER-COMPACT" not in json.dumps(server.requests[0])
    assert run_cli(["-c", "-p", "/compact"], project).returncode == 0
    assert run_cli(["-c", "-p", "again"], project).returncode == 0
    assert "CONTEXT-AFTER-COMPACT" in json.dumps(server.requests[2]["messages"])


def _user_command(home: Path) -> None:
    commands = home / ".claude" / "commands"
    commands.mkdir(parents=True, exist_ok=True)
    (commands / "fix.md").write_text("---\ndescription: fix an issue\n---\nFix issue $ARGUMENTS "
                                     "carefully.\n")


def test_user_prompt_expansion_fires_with_claude_codes_payload(project: Path, api: Any,
                                                               home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    _record_hooks(home, out, "UserPromptExpansion")
    _user_command(home)
    server = api(["done"])
    proc = run_cli(["-p", "/fix 42"], project)
    assert proc.returncode == 0, proc.stderr
    assert "Fix issue 42 carefully." in json.dumps(server.requests[0]["messages"])
    [payload] = _payloads(out, "UserPromptExpansion")
    assert payload["expansion_type"] == "slash_command"
    assert payload["command_name"] == "fix" and payload["command_args"] == "42"
    assert payload["prompt"] == "/fix 42"
    assert payload["command_source"] == "userSettings"  # as Claude Code 2.1.332 names it


def test_user_prompt_expansion_exit_2_blocks_the_command(project: Path, api: Any,
                                                         home: Path) -> None:
    _user_command(home)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "UserPromptExpansion": [{"matcher": "fix", "hooks": [
            {"type": "command", "command": "echo 'not today' >&2; exit 2"}]}]}}))
    server = api(["done"])
    proc = run_cli(["-p", "/fix 42"], project)
    assert server.requests == []  # nothing reached the model
    assert "not today" in proc.stderr


DEMO_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


def _mcp_config(tmp: Path) -> Path:
    config = tmp / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"audit": {
        "command": sys.executable, "args": [str(DEMO_SERVER), "audit"]}}}))
    return config


def test_mcp_tool_hooks_call_the_servers_tool(project: Path, api: Any, home: Path) -> None:
    """A PreToolUse `mcp_tool` hook calls the real demo server's `danger` tool with an input
    interpolated from the hook's JSON (it writes the marker), and a UserPromptSubmit one's
    text answer becomes context, as a command hook's stdout would."""
    target = project / "sub" / "other.py"
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Read", "hooks": [{
            "type": "mcp_tool", "server": "audit", "tool": "danger",
            "input": {"path": "${tool_input.file_path}.seen"}}]}],
        "UserPromptSubmit": [{"hooks": [{
            "type": "mcp_tool", "server": "audit", "tool": "echo",
            "input": {"text": "CONTEXT FROM ${hook_event_name}"}}]}]}}))
    server = api([_read(target, "toolu_a"), "done"])
    proc = run_cli(["-p", "read", "--mcp-config", str(_mcp_config(project.parent))], project)
    assert proc.returncode == 0, proc.stderr
    assert Path(f"{target}.seen").read_text() == "touched"
    assert "audit: CONTEXT FROM UserPromptSubmit" in json.dumps(server.requests[0]["messages"])


def test_mcp_tool_hook_failures_are_non_blocking_errors(project: Path, api: Any,
                                                        home: Path) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "UserPromptSubmit": [{"hooks": [
            {"type": "mcp_tool", "server": "audit", "tool": "fail",
             "input": {"reason": "audit log is full"}},
            {"type": "mcp_tool", "server": "nosuch", "tool": "echo"}]}]}}))
    server = api(["done"])
    proc = run_cli(["-p", "hi", "--mcp-config", str(_mcp_config(project.parent))], project)
    assert proc.returncode == 0, proc.stderr
    assert len(server.requests) == 1  # the prompt still went
    assert "hook `mcp__audit__fail`" in proc.stderr
    assert "the tool answered with an error: Error executing tool fail" in proc.stderr
    assert "MCP server 'nosuch' is not configured" in proc.stderr


def test_instructions_loaded_fires_for_the_memory_loaded_at_start(project: Path, api: Any,
                                                                   home: Path) -> None:
    out = project.parent / "hooks.jsonl"
    _record_hooks(home, out, "InstructionsLoaded")
    (home / ".claude" / "CLAUDE.md").write_text("USER MEMORY\n")
    (project / "CLAUDE.local.md").write_text("LOCAL MEMORY\n")
    api(["done"])
    assert run_cli(["-p", "hi"], project).returncode == 0
    loaded = {(p["file_path"], p["memory_type"], p["load_reason"])
              for p in _payloads(out, "InstructionsLoaded")}
    assert loaded == {
        (str((home / ".claude" / "CLAUDE.md").resolve()), "User", "session_start"),
        (str((project / "CLAUDE.md").resolve()), "Project", "session_start"),
        (str((project / "CLAUDE.local.md").resolve()), "Local", "session_start"),
    }


def test_config_change_fires_for_a_settings_file_changed_mid_session(project: Path, api: Any,
                                                                     home: Path) -> None:
    """The first prompt's hook writes `.claude/settings.local.json`; before the second prompt
    ConfigChange reports it (source local_settings), once."""
    out = project.parent / "hooks.jsonl"
    local = project / ".claude" / "settings.local.json"
    record = (f"{sys.executable} -c \"import sys; open({str(out)!r}, 'a').write("
              "sys.stdin.read().strip() + '\\n')\"")
    write = (f"{sys.executable} -c \"import pathlib; p = pathlib.Path({str(local)!r}); "
             "p.parent.mkdir(exist_ok=True); p.exists() or p.write_text('{}')\"")
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "ConfigChange": [{"hooks": [{"type": "command", "command": record}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": write}]}]}}))
    api(["one", "two", "three"])
    lines = "\n".join(json.dumps({"type": "user", "message": {"role": "user", "content": c}})
                      for c in ("first", "second", "third"))
    proc = run_cli(["-p", "--input-format", "stream-json", "--output-format", "json"], project,
                   stdin=lines + "\n")
    assert proc.returncode == 0, proc.stderr
    changes = _payloads(out, "ConfigChange")
    assert [(c["source"], c["file_path"]) for c in changes] == [("local_settings", str(local))]
