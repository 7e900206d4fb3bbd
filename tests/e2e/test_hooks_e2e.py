"""Hooks wired into the pipeline and the loop, with real hook scripts and the real SDK."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.hooks import HookConfig, HookRunner
from claude_harness.protocol.events import HookRan, Notice, ToolResultEvent, TurnEnd
from tests.e2e.support import history, iter_prompt, make_engine, ndjson, run_cli, run_prompt

TEXT = {"content": [{"type": "text", "text": "done"}]}


def script(tmp: Path, name: str, body: str) -> str:
    path = tmp / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def runner(project: Path, hooks: dict[str, Any]) -> HookRunner:
    config = HookConfig.from_sources([("userSettings", None, hooks)])
    return HookRunner(config, project_dir=project, session_id="s", transcript_path="",
                      get_permission_mode=lambda: "default")


def bash_turn(command: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]}


async def test_hook_allow_never_lifts_a_deny_rule(project: Path, api: Any, tmp_path: Path) -> None:
    allow = script(tmp_path, "allow.sh", 'echo \'{"hookSpecificOutput": {"hookEventName": '
                   '"PreToolUse", "permissionDecision": "allow"}}\'\n')
    server = api([bash_turn("touch denied.txt"), TEXT])
    engine = make_engine(server, project, deny=("Bash(touch *)",), hooks=runner(
        project, {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                 "command": allow}]}]}))
    events = await run_prompt(engine, "go")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert result.is_error and not (project / "denied.txt").exists()
    assert any(isinstance(e, HookRan) and e.event == "PreToolUse" for e in events)


async def test_hook_rewriting_input_into_a_denied_command_stays_denied(
        project: Path, api: Any, tmp_path: Path) -> None:
    rewrite = script(tmp_path, "rewrite.sh", 'echo \'{"hookSpecificOutput": {"hookEventName": '
                     '"PreToolUse", "permissionDecision": "allow", "updatedInput": '
                     '{"command": "touch rewritten.txt"}}}\'\n')
    server = api([bash_turn("ls"), TEXT])
    engine = make_engine(server, project, deny=("Bash(touch *)",), hooks=runner(
        project, {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                 "command": rewrite}]}]}))
    events = await run_prompt(engine, "go")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert result.is_error and not (project / "rewritten.txt").exists()


async def test_hook_rewrite_to_an_allowed_command_runs_the_new_command(
        project: Path, api: Any, tmp_path: Path) -> None:
    rewrite = script(tmp_path, "rewrite.sh", 'echo \'{"hookSpecificOutput": {"hookEventName": '
                     '"PreToolUse", "updatedInput": {"command": "echo rewritten"}}}\'\n')
    server = api([bash_turn("echo original"), TEXT])
    engine = make_engine(server, project, hooks=runner(
        project, {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                 "command": rewrite}]}]}))
    events = await run_prompt(engine, "go")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert not result.is_error and "rewritten" in result.content
    # The transcript keeps what the model sent.
    assert history(events)[1]["content"][0]["input"] == {"command": "echo original"}


async def test_stop_hook_keeps_the_model_going_and_is_capped(project: Path, api: Any,
                                                              tmp_path: Path) -> None:
    seen = tmp_path / "stop-inputs.jsonl"
    block = script(tmp_path, "stop.sh", f'cat >> {seen}; echo >> {seen}\n'
                   'echo "keep working" >&2\nexit 2\n')
    server = api([TEXT] * 9)
    engine = make_engine(server, project, hooks=runner(
        project, {"Stop": [{"hooks": [{"type": "command", "command": block}]}]}))
    events = await run_prompt(engine, "go")
    assert [e for e in events if isinstance(e, TurnEnd)][0].reason == "end_turn"
    assert len(server.requests) == 9  # the first answer + 8 continuations, then the cap
    payloads = [json.loads(line) for line in seen.read_text().splitlines() if line.strip()]
    assert payloads[0]["stop_hook_active"] is False and payloads[1]["stop_hook_active"] is True
    assert any(isinstance(e, Notice) and "in a row" in e.text for e in events)
    assert "keep working" in server.requests[1]["messages"][-1]["content"][0]["text"]


async def test_user_prompt_submit_hook_adds_context_or_blocks(project: Path, api: Any,
                                                              tmp_path: Path) -> None:
    hook = script(tmp_path, "ups.sh", 'read input\ncase "$input" in *secret*) '
                  'echo "no secrets" >&2; exit 2;; esac\necho "Today is test day."\n')
    server = api([TEXT])
    engine = make_engine(server, project, hooks=runner(
        project, {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": hook}]}]}))
    events = await run_prompt(engine, "tell me the secret")
    assert [e for e in events if isinstance(e, TurnEnd)][0].reason == "hook_stopped"
    assert server.requests == []
    await run_prompt(engine, "hello")
    texts = [b["text"] for b in server.requests[0]["messages"][0]["content"]]
    assert "hello" in texts and "Today is test day." in texts


async def test_missing_hook_script_is_visible_and_the_call_proceeds(
        project: Path, api: Any, tmp_path: Path) -> None:
    server = api([bash_turn("echo still-ran"), TEXT])
    engine = make_engine(server, project, hooks=runner(
        project, {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": str(tmp_path / "nope.sh")}]}]}))
    events = await run_prompt(engine, "go")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert not result.is_error and "still-ran" in result.content
    assert any(isinstance(e, Notice) and e.level == "warning" for e in events)


def test_hooks_from_project_settings_run_in_print_mode_and_stream_as_events(
        project: Path, api: Any) -> None:
    """In a trusted folder (here: --trust-workspace); untrusted, -p skips them, see
    test_permission_attacks.py."""
    log = project / "hook.log"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PostToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command",
                                       "command": f"cat >> {log}; echo >> {log}"}]}]}}))
    api([bash_turn("echo hi"), TEXT])
    proc = run_cli(["-p", "go", "--output-format", "stream-json", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(log.read_text().splitlines()[0])
    assert payload["hook_event_name"] == "PostToolUse" and payload["tool_name"] == "Bash"
    assert payload["tool_input"] == {"command": "echo hi"}
    events = [x for x in ndjson(proc.stdout) if x.get("subtype") == "hook_response"]
    assert events and events[0]["hook_event"] == "PostToolUse"
    assert events[0]["hooks"][0]["exit_code"] == 0


async def test_permission_request_hook_answers_the_prompt_but_not_past_deny(
        project: Path, api: Any, tmp_path: Path) -> None:
    approve = script(tmp_path, "approve.sh", 'read input\ncase "$input" in *rewrite-me*) '
                     'echo \'{"hookSpecificOutput": {"hookEventName": "PermissionRequest", '
                     '"decision": {"behavior": "allow", "updatedInput": {"command": '
                     '"touch forbidden.txt"}}}}\';; *) echo \'{"hookSpecificOutput": '
                     '{"hookEventName": "PermissionRequest", "decision": {"behavior": '
                     '"allow"}}}\';; esac\n')
    server = api([bash_turn("touch approved.txt"), bash_turn("touch rewrite-me.txt"), TEXT])
    engine = make_engine(server, project, deny=("Bash(touch forbidden*)",), hooks=runner(
        project, {"PermissionRequest": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": approve}]}]}))
    events = await run_prompt(engine, "go")
    first, second = [e for e in events if isinstance(e, ToolResultEvent)]
    assert not first.is_error and (project / "approved.txt").exists()
    assert second.is_error and not (project / "forbidden.txt").exists()
    assert not (project / "rewrite-me.txt").exists()


async def test_dont_ask_again_with_a_compound_command_saves_every_rule(project: Path,
                                                                       api: Any) -> None:
    from claude_harness.protocol.events import PermissionRequest
    from claude_harness.protocol.ops import AnswerPermission

    server = api([bash_turn("mkdir -p out && touch out/a"), bash_turn("mkdir -p out && touch out/b"),
                  TEXT])
    engine = make_engine(server, project, interactive=True)
    prompts = 0
    async for event in iter_prompt(engine, "go"):
        if isinstance(event, PermissionRequest):
            prompts += 1
            engine.submit(AnswerPermission(event.request_id, "always"))
    assert prompts == 1 and (project / "out" / "b").exists()
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert len(saved["permissions"]["allow"]) == 2
