"""The catalog through the real binary: the catalog at start-up, system/init's lists against what
Claude Code 2.1.332 listed for the same folders, typed commands and skills in `-p`, a plugin's
hook, agent and MCP server, and the start-up settings (--debug, cleanupPeriodDays,
apiKeyHelper, a project MCP server waiting for approval)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness.commands.agents import BUILTIN_AGENTS
from tests.e2e.support import ndjson, run_cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXPECTED = json.loads((FIXTURES / "cc_expected.json").read_text(encoding="utf-8"))["folders"]
DEMO_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"
BUILTIN_AGENT_NAMES = {a.name for a in BUILTIN_AGENTS}
TEXT = {"content": [{"type": "text", "text": "done"}]}


def init_line(proc: Any) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    first = ndjson(proc.stdout)[0]
    assert first["type"] == "system" and first["subtype"] == "init"
    return first


def configured(line: dict[str, Any]) -> dict[str, list[Any]]:
    """The init lists minus our own built-ins (as cc_expected.json is Claude Code's minus its)."""
    return {"agents": [a for a in line["agents"] if a not in BUILTIN_AGENT_NAMES],
            "skills": line["skills"], "slash_commands": line["slash_commands"],
            "plugins": line["plugins"]}


@pytest.mark.parametrize("name", [n for n in EXPECTED if n != "plugins"])
def test_fixture_folder_init_lists_match_claude_code(name: str, tmp_path: Path, home: Path,
                                                     api: Any) -> None:
    folder = tmp_path / "work" / name  # outside any repository, as Claude Code was run
    shutil.copytree(FIXTURES / "projects" / name, folder)
    api([TEXT])
    ours = configured(init_line(run_cli(["-p", "hi", "--output-format", "stream-json",
                                         "--verbose"], folder)))
    for key in ("agents", "skills", "slash_commands"):
        assert sorted(ours[key]) == sorted(EXPECTED[name][key]), key
    assert ours["plugins"] == []


def test_plugin_dirs_init_lists_match_claude_code(tmp_path: Path, home: Path, api: Any) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    dirs = [*sorted(p for p in (FIXTURES / "plugins").iterdir() if p.is_dir()),
            FIXTURES / "projects" / "xcode-previews"]
    api([TEXT])
    args = ["-p", "hi", "--output-format", "stream-json", "--verbose"]
    for folder in dirs:
        args += ["--plugin-dir", str(folder)]
    line = init_line(run_cli(args, empty))
    ours, expected = configured(line), EXPECTED["plugins"]
    for key in ("agents", "skills", "slash_commands"):
        assert sorted(ours[key]) == sorted(expected[key]), key
    assert sorted((p["name"], p["source"]) for p in ours["plugins"]) == \
        sorted((p["name"], p["source"]) for p in expected["plugins"])
    assert line["output_style"] == "default"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_typed_command_and_skill_in_print_mode(project: Path, api: Any) -> None:
    """Claude Code's shape: the Read attachment, the `<command-name>` block, the body with
    `$1` (0-based: the second argument), the inline command's output and `@path` left as
    written; a skill typed as /name gets its base directory and the arguments appended."""
    write(project / ".claude" / "commands" / "fix.md",
          "---\ndescription: Fix an issue\nallowed-tools: Bash(echo:*)\n---\n"
          "Fix issue $1 with priority $2.\nStatus: !`echo inline-ok`\nSee @notes.txt please.\n")
    write(project / "notes.txt", "note contents here\n")
    skill = write(project / ".claude" / "skills" / "greet" / "SKILL.md",
                  "---\nname: greet\ndescription: Greets people\n---\nSay hello.\n")
    server = api([TEXT, TEXT])
    run = run_cli(["-p", "/fix 42 high", "--trust-workspace"], project)
    assert run.returncode == 0, run.stderr
    blocks = [b["text"] for b in server.requests[0]["messages"][0]["content"]]
    assert blocks[0] == ("<system-reminder>\nCalled the Read tool with the following input: "
                         f'{{"file_path":"{project / "notes.txt"}"}}\n</system-reminder>')
    assert blocks[1].startswith("<system-reminder>\nResult of calling the Read tool:\n"
                                "1\tnote contents here")
    assert blocks[2] == ("<command-message>fix</command-message>\n<command-name>/fix"
                         "</command-name>\n<command-args>42 high</command-args>\n")
    assert blocks[3] == "Fix issue high with priority $2.\nStatus: inline-ok\nSee @notes.txt " \
                        "please.\n"
    run = run_cli(["-p", "/greet bob"], project)
    assert run.returncode == 0, run.stderr
    blocks = [b["text"] for b in server.requests[1]["messages"][0]["content"]]
    assert blocks[1] == (f"Base directory for this skill: {skill.parent}\n\nSay hello.\n"
                         "\n\nARGUMENTS: bob")


def test_refused_and_hidden_commands_send_nothing(project: Path, api: Any) -> None:
    write(project / ".claude" / "commands" / "deny.md",
          "---\ndescription: d\n---\nBefore: !`touch ../outside-marker`\n")
    write(project / ".claude" / "commands" / "hid.md",
          "---\ndescription: h\nuser-invocable: false\n---\nHidden\n")
    server = api([TEXT])
    denied = run_cli(["-p", "/deny"], project)
    assert denied.returncode == 0
    assert 'Shell command permission check failed for pattern "!`touch ../outside-marker`"' \
        in denied.stderr
    assert not (project.parent / "outside-marker").exists()
    hidden = run_cli(["-p", "/hid"], project)
    assert "can only be invoked by Claude" in hidden.stderr
    assert server.requests == []


def make_plugin(root: Path, marker: Path) -> Path:
    """A plugin folder with a command, an agent, a hook (using ${CLAUDE_PLUGIN_ROOT}) and an
    MCP server (the real demo server)."""
    write(root / ".claude-plugin" / "plugin.json",
          json.dumps({"name": "kit", "version": "1.0.0", "description": "test kit"}))
    write(root / "commands" / "hello.md", "---\ndescription: says hello\n---\nHello $ARGUMENTS\n")
    write(root / "agents" / "helper.md",
          "---\nname: helper\ndescription: A plugin helper\ntools: Read\n---\nYou help.\n")
    write(root / "hooks" / "hook.sh", f"#!/bin/sh\ncat >> {marker}\necho >> {marker}\n")
    (root / "hooks" / "hook.sh").chmod(0o755)
    write(root / "hooks" / "hooks.json", json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "mcp__.*", "hooks": [{"type": "command",
                                          "command": "${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh"}]}]}}))
    write(root / ".mcp.json", json.dumps({"mcpServers": {"demo": {
        "command": sys.executable, "args": [str(DEMO_SERVER), "demo"]}}}))
    return root


def test_a_plugins_hook_agent_and_mcp_server_work(project: Path, tmp_path: Path,
                                                  api: Any) -> None:
    marker = tmp_path / "hook-calls.jsonl"
    plugin = make_plugin(tmp_path / "kit", marker)
    server = api([
        {"content": [{"type": "tool_use", "name": "ToolSearch",
                      "input": {"query": "select:mcp__plugin_kit_demo__echo"}}]},
        {"content": [{"type": "tool_use", "name": "mcp__plugin_kit_demo__echo",
                      "input": {"text": "hi"}}]},
        {"content": [{"type": "tool_use", "name": "Agent", "input": {
            "description": "help", "prompt": "help me", "subagent_type": "kit:helper"}}]},
        {"content": [{"type": "text", "text": "REPORT: helped"}]},
        TEXT,
    ])
    proc = run_cli(["-p", "go", "--plugin-dir", str(plugin), "--output-format", "stream-json",
                    "--verbose", "--allowedTools", "mcp__plugin_kit_demo__echo"], project)
    line = init_line(proc)
    assert {"name": "plugin:kit:demo", "status": "connected"}.items() <= \
        next(s for s in line["mcp_servers"] if s["name"] == "plugin:kit:demo").items()
    assert "kit:hello" in line["slash_commands"] and "kit:helper" in line["agents"]
    assert line["plugins"][0]["name"] == "kit" and line["plugins"][0]["source"] == "kit@inline"
    echo = [b for m in ndjson(proc.stdout) if m["type"] == "user"
            for b in m["message"]["content"] if b.get("type") == "tool_result"][1]
    assert not echo.get("is_error") and "demo: hi" in json.dumps(echo["content"])
    calls = [json.loads(x) for x in marker.read_text().splitlines() if x.strip()]
    assert [c["tool_name"] for c in calls] == ["mcp__plugin_kit_demo__echo"]
    child = server.requests[3]
    assert child["system"][0]["text"].startswith("You help.")
    assert [t["name"] for t in child["tools"]] == ["Read"]


def test_debug_prints_the_load_report_and_status_lists_unsupported(project: Path,
                                                                   api: Any) -> None:
    write(project / ".claude" / "settings.json",
          json.dumps({"spinnerVerbs": ["x"], "typoKey": 1, "model": "haiku"}))
    api([TEXT])
    proc = run_cli(["-p", "hi", "--debug", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr
    assert "[debug] configuration:" in proc.stderr
    assert "unsupported spinnerVerbs" in proc.stderr and "unsupported typoKey" in proc.stderr


def test_old_transcripts_are_removed_at_start(project: Path, home: Path, api: Any) -> None:
    store = home / "data" / "projects" / "-elsewhere"
    old = write(store / "old.jsonl", "{}\n")
    fresh = write(store / "fresh.jsonl", "{}\n")
    ten_days = time.time() - 10 * 86_400
    os.utime(old, (ten_days, ten_days))
    write(home / ".claude" / "settings.json", json.dumps({"cleanupPeriodDays": 5}))
    api([TEXT])
    assert run_cli(["-p", "hi"], project).returncode == 0
    assert not old.exists() and fresh.exists()


def test_api_key_helper_supplies_the_key(project: Path, home: Path, api: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    write(home / ".claude" / "settings.json", json.dumps({"apiKeyHelper": "echo helper-key"}))
    server = api([TEXT], api_key="helper-key")
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    assert len(server.requests) == 1
    # A repository's own settings may not run a helper in a folder never trusted.
    write(home / ".claude" / "settings.json", "{}")
    write(project / ".claude" / "settings.json",
          json.dumps({"apiKeyHelper": f"touch {project / 'ran'}; echo helper-key"}))
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 1 and not (project / "ran").exists()


def test_print_mode_says_why_a_project_mcp_server_waits(project: Path, api: Any) -> None:
    write(project / ".mcp.json", json.dumps({"mcpServers": {"proj": {
        "command": sys.executable, "args": [str(DEMO_SERVER), "proj"]}}}))
    api([TEXT])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    assert "proj: project server from" in proc.stderr
    assert "claude-harness mcp approve proj" in proc.stderr


def test_init_only_runs_setup_hooks_and_exits(project: Path, tmp_path: Path) -> None:
    seen = tmp_path / "setup.json"
    write(project / ".claude" / "settings.json", json.dumps({"hooks": {"Setup": [{"hooks": [
        {"type": "command", "command": f"cat > {seen}; echo \"X=$CLAUDE_ENV_FILE\" >> {seen}"}]}
    ]}}))
    proc = run_cli(["--init-only", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr
    payload, env_line = seen.read_text().split("X=", 1)
    data = json.loads(payload)
    assert data["hook_event_name"] == "Setup" and data["trigger"] == "init"
    assert "session-env" in env_line


def test_stream_json_input_runs_a_typed_command(project: Path, api: Any) -> None:
    write(project / ".claude" / "commands" / "greet.md", "Say hello to $ARGUMENTS.\n")
    server = api([TEXT])
    stdin = json.dumps({"type": "user", "message": {"role": "user", "content": "/greet Ada"}})
    proc = run_cli(["-p", "--input-format", "stream-json", "--output-format", "stream-json",
                    "--verbose"], project, stdin=stdin + "\n")
    assert init_line(proc)["slash_commands"] == ["greet"]
    blocks = [b["text"] for b in server.requests[0]["messages"][0]["content"]]
    assert blocks[:2] == ["<command-message>greet</command-message>\n<command-name>/greet"
                          "</command-name>\n<command-args>Ada</command-args>\n",
                          "Say hello to Ada.\n"]
