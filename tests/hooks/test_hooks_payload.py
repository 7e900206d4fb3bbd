"""Every event delivers its JSON payload on stdin, with CLAUDE_PROJECT_DIR and cwd set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_harness.hooks import HOOK_EVENTS
from tests.hooks.hook_helpers import MakeRunner, group, write_script

PAYLOADS: dict[str, dict] = {
    "PreToolUse": {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "tu_1"},
    "PostToolUse": {
        "tool_name": "Edit",
        "tool_input": {"file_path": "/x"},
        "tool_use_id": "tu_2",
        "tool_response": {"ok": True},
    },
    "PostToolUseFailure": {
        "tool_name": "Bash",
        "tool_input": {"command": "false"},
        "tool_use_id": "tu_3",
        "error": "exit 1",
    },
    "PermissionRequest": {
        "tool_name": "Write",
        "tool_input": {"file_path": "/y"},
        "tool_use_id": "tu_4",
    },
    "PermissionDenied": {
        "tool_name": "Bash",
        "tool_input": {"command": "rm"},
        "tool_use_id": "tu_5",
    },
    "UserPromptSubmit": {"prompt": "fix the bug"},
    "Stop": {"stop_hook_active": True},
    "SubagentStop": {"stop_hook_active": False, "agent_id": "a1", "agent_type": "Explore",
                     "agent_transcript_path": "/t/agent-a1.jsonl",
                     "last_assistant_message": "found it"},
    "SubagentStart": {"agent_id": "a1", "agent_type": "Explore"},
    "PostToolBatch": {"tool_calls": [{"tool_name": "Bash", "tool_input": {"command": "ls"},
                                      "tool_use_id": "tu_6", "tool_response": "a.txt"}]},
    "StopFailure": {"error": "rate_limit", "error_details": "429",
                    "last_assistant_message": ""},
    "PostCompact": {"trigger": "auto", "compact_summary": "summary"},
    "Setup": {"trigger": "init"},
    "SessionStart": {"source": "resume"},
    "SessionEnd": {"reason": "clear"},
    "PreCompact": {"trigger": "manual", "custom_instructions": ""},
    "Notification": {"notification_type": "permission_prompt", "message": "needs you"},
    "Elicitation": {"mcp_server_name": "crm", "message": "Who?", "mode": "form",
                    "requested_schema": {"type": "object", "properties": {}}},
    "ElicitationResult": {"mcp_server_name": "crm", "mode": "form", "action": "decline"},
    "InstructionsLoaded": {"file_path": "/p/sub/CLAUDE.md", "memory_type": "Project",
                           "load_reason": "nested_traversal",
                           "trigger_file_path": "/p/sub/a.py"},
    "CwdChanged": {"old_cwd": "/p", "new_cwd": "/p/sub"},
    "ConfigChange": {"source": "local_settings", "file_path": "/p/.claude/settings.local.json"},
    "UserPromptExpansion": {"expansion_type": "slash_command", "command_name": "fix",
                            "command_args": "42", "command_source": "userSettings",
                            "prompt": "/fix 42"},
    "FileChanged": {"file_path": "/p/.env", "event": "change"},
    "TaskCreated": {"task_id": "1", "task_subject": "Run the tests",
                    "task_description": "Running the tests"},
    "TaskCompleted": {"task_id": "1", "task_subject": "Run the tests",
                      "task_description": "Running the tests"},
    "DirectoryAdded": {"directory": "/p/more", "source": "slash_command"},
    "PreModelSwitch": {"from_model": "claude-sonnet-4-6", "to_model": "claude-opus-4-7",
                       "requested_model": "opus", "source": "command", "context_tokens": 0,
                       "prompt_cache_warm": False, "cache_ttl": "5m",
                       "estimated_cache_write_usd": 0.0, "pricing": "catalog"},
    "PostModelSwitch": {"from_model": "claude-sonnet-4-6", "to_model": "claude-opus-4-7",
                        "requested_model": "opus", "source": "picker", "context_tokens": 0,
                        "prompt_cache_warm": False, "cache_ttl": "5m",
                        "estimated_cache_write_usd": 0.0, "pricing": "catalog"},
    "PreSkillShellCommand": {"tool_name": "Bash", "tool_input": {"command": "git status"},
                             "tool_use_id": "skill_shell_1", "command_name": "status",
                             "command_source": "projectSettings", "invoked_by": "user"},
}


def test_payload_table_covers_every_event() -> None:
    assert set(PAYLOADS) == set(HOOK_EVENTS)


@pytest.mark.parametrize("event", sorted(PAYLOADS))
async def test_stdin_env_and_cwd_reach_the_hook(
    event: str, make_runner: MakeRunner, project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    script = write_script(
        tmp_path,
        "capture.sh",
        f'cat > {out}/stdin.json\nprintf %s "$CLAUDE_PROJECT_DIR" > {out}/env\npwd -P > {out}/cwd\n'
        f"if [ -t 0 ]; then echo tty > {out}/tty; fi\n",
    )
    runner = make_runner({event: [group(str(script))]}, mode="acceptEdits")
    outcome = await runner.run(event, PAYLOADS[event])

    assert outcome.errors == []
    assert [r.exit_code for r in outcome.results] == [0]
    data = json.loads((out / "stdin.json").read_text())
    assert data["hook_event_name"] == event
    assert data["session_id"] == "sess-123"
    assert data["transcript_path"] == str(tmp_path / "transcript.jsonl")
    assert data["cwd"] == str(project)
    assert data["permission_mode"] == "acceptEdits"
    for key, value in PAYLOADS[event].items():
        assert data[key] == value
    assert (out / "env").read_text() == str(project)
    assert (out / "cwd").read_text().strip() == str(project.resolve())
    assert not (out / "tty").exists()


async def test_payload_cannot_spoof_the_event_name(make_runner: MakeRunner, tmp_path: Path) -> None:
    sink = tmp_path / "stdin.json"
    runner = make_runner({"Stop": [group(f"cat > {sink}")]})
    await runner.run("Stop", {"hook_event_name": "PreToolUse", "stop_hook_active": False})
    assert json.loads(sink.read_text())["hook_event_name"] == "Stop"


async def test_python_hook_reads_payload(make_runner: MakeRunner, tmp_path: Path) -> None:
    script = write_script(
        tmp_path,
        "echo_tool.py",
        "import json, sys\n"
        "data = json.load(sys.stdin)\n"
        "ctx = 'tool=' + data['tool_name'] + ' cmd=' + data['tool_input']['command']\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'additionalContext': ctx}}))\n",
        python=True,
    )
    runner = make_runner({"PreToolUse": [group(str(script))]})
    outcome = await runner.run("PreToolUse", PAYLOADS["PreToolUse"])
    assert outcome.additional_context == ["tool=Bash cmd=ls"]


async def test_unknown_event_is_a_programming_error(make_runner: MakeRunner) -> None:
    runner = make_runner({})
    with pytest.raises(ValueError, match="unknown hook event"):
        await runner.run("PreToolUze", {})


async def test_no_hooks_means_an_empty_outcome(make_runner: MakeRunner) -> None:
    outcome = await make_runner({}).run("PreToolUse", PAYLOADS["PreToolUse"])
    assert not outcome.ran and not outcome.blocked and outcome.permission_decision is None
