"""Each hook event of the catalog, fired by the real session built by the real bootstrap, with
real hook scripts that record their stdin: SessionStart after /clear and after a compaction,
PostCompact, SubagentStart / SubagentStop, PostToolBatch, StopFailure, `async` hooks delivered
on the next turn, `prompt` and `agent` hooks answered by the model, an agent definition's own
hooks, CLAUDE_ENV_FILE exports reaching Bash, CLAUDECODE=1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.protocol.events import ToolResultEvent, TurnEnd
from claude_harness.protocol.ops import Clear, Compact
from claude_harness.session.bootstrap import build_session
from claude_harness.session.options import RunOptions
from tests.e2e.support import run_op, run_prompt

TEXT = {"content": [{"type": "text", "text": "done"}]}


def recorder(tmp: Path) -> tuple[str, Path]:
    """A hook command appending its stdin (one JSON line) to a log."""
    log = tmp / "hooks.jsonl"
    script = tmp / "record.sh"
    script.write_text(f"#!/bin/sh\ncat >> {log}\necho >> {log}\n")
    script.chmod(0o755)
    return str(script), log


def payloads(log: Path, event: str | None = None) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in log.read_text().splitlines() if x.strip()] if log.exists() \
        else []
    return [r for r in rows if event is None or r["hook_event_name"] == event]


def settings(project: Path, hooks: dict[str, Any], **more: Any) -> None:
    folder = project / ".claude"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"hooks": hooks, **more}))


def on(event: str, command: str, **extra: Any) -> dict[str, Any]:
    return {event: [{"hooks": [{"type": "command", "command": command, **extra}]}]}


def session_for(project: Path, **opts: Any) -> Any:
    """A session as `-p` builds it (nobody to ask), in a trusted folder."""
    options = RunOptions(cwd=project, print_mode=True, interactive=False, **opts)
    session, _warnings = build_session(options, trusted=True)
    return session


async def test_session_start_after_clear_and_compaction_and_post_compact(
        project: Path, api: Any, tmp_path: Path) -> None:
    command, log = recorder(tmp_path)
    settings(project, {**on("SessionStart", command), **on("PostCompact", command)})
    api([TEXT, TEXT, {"content": [{"type": "text", "text": "SUMMARY of it all"}]}, TEXT])
    session = session_for(project)
    await run_prompt(session, "one")
    await run_op(session, Clear())
    await run_prompt(session, "two")
    await run_op(session, Compact())
    await run_prompt(session, "three")
    starts = [p["source"] for p in payloads(log, "SessionStart")]
    assert starts == ["startup", "clear", "compact"]
    compact = payloads(log, "PostCompact")
    assert len(compact) == 1 and compact[0]["trigger"] == "manual"
    assert "SUMMARY of it all" in compact[0]["compact_summary"]


async def test_subagent_start_and_stop_carry_the_agent(project: Path, api: Any,
                                                       tmp_path: Path) -> None:
    command, log = recorder(tmp_path)
    settings(project, {**on("SubagentStart", command), **on("SubagentStop", command)})
    api([{"content": [{"type": "tool_use", "name": "Agent", "input": {
            "description": "look", "prompt": "look around", "subagent_type": "Explore"}}]},
         {"content": [{"type": "text", "text": "REPORT: looked"}]}, TEXT])
    session = session_for(project)
    await run_prompt(session, "delegate")
    start, = payloads(log, "SubagentStart")
    stop, = payloads(log, "SubagentStop")
    assert start["agent_type"] == stop["agent_type"] == "Explore"
    assert start["agent_id"] == stop["agent_id"] and start["agent_id"]
    assert stop["last_assistant_message"] == "REPORT: looked"
    transcript = Path(stop["agent_transcript_path"])
    lines = [json.loads(x) for x in transcript.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["user", "assistant"]
    assert lines[0]["message"]["content"][0]["text"] == "look around"


async def test_post_tool_batch_sees_every_call_and_its_feedback_reaches_the_model(
        project: Path, api: Any, tmp_path: Path) -> None:
    command, log = recorder(tmp_path)
    blocker = tmp_path / "block.sh"
    blocker.write_text("#!/bin/sh\necho 'run the tests next' >&2\nexit 2\n")
    blocker.chmod(0o755)
    settings(project, {"PostToolBatch": [{"hooks": [{"type": "command", "command": command},
                                                    {"type": "command", "command": str(blocker)}]}]})
    readme = str(project / "README.md")
    server = api([{"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": readme}},
                               {"type": "tool_use", "name": "Glob", "input": {"pattern": "*.md"}}]},
                  TEXT])
    await run_prompt(session_for(project), "look")
    batch, = payloads(log, "PostToolBatch")
    assert [c["tool_name"] for c in batch["tool_calls"]] == ["Read", "Glob"]
    assert batch["tool_calls"][0]["tool_input"] == {"file_path": readme}
    assert batch["tool_calls"][0]["tool_use_id"] == "toolu_0_0"
    results = server.requests[1]["messages"][-1]["content"]
    assert [b["type"] for b in results] == ["tool_result", "tool_result", "text"]
    assert "PostToolBatch hook feedback:\nrun the tests next" in results[2]["text"]


async def test_stop_failure_fires_when_the_turn_ends_on_an_api_error(
        project: Path, api: Any, tmp_path: Path) -> None:
    command, log = recorder(tmp_path)
    settings(project, on("StopFailure", command))
    api([{"content": [], "fault": {"status": 400, "message": "bad request here"}}])
    events = await run_prompt(session_for(project), "hi")
    assert next(e for e in events if isinstance(e, TurnEnd)).reason == "error"
    failure, = payloads(log, "StopFailure")
    assert failure["error"] == "invalid_request" and "bad request here" in failure["error_details"]


async def test_async_hook_context_arrives_on_the_next_turn(project: Path, api: Any,
                                                            tmp_path: Path) -> None:
    slow = tmp_path / "slow.sh"
    slow.write_text('#!/bin/sh\nsleep 0.3\necho \'{"hookSpecificOutput": {"hookEventName": '
                    '"UserPromptSubmit", "additionalContext": "LATE CONTEXT"}}\'\n')
    slow.chmod(0o755)
    settings(project, on("UserPromptSubmit", str(slow), **{"async": True}))
    server = api([TEXT, TEXT])
    session = session_for(project)
    await run_prompt(session, "first")
    await session.config.hooks.wait_async(5)
    await run_prompt(session, "second")
    first = json.dumps(server.requests[0]["messages"])
    second = server.requests[1]["messages"][-1]["content"]
    assert "LATE CONTEXT" not in first
    assert any("LATE CONTEXT" in b.get("text", "") for b in second)


async def test_env_file_exports_reach_bash_with_claudecode(project: Path, api: Any) -> None:
    settings(project, on("SessionStart", 'echo "export GREETING=from-hook" >> "$CLAUDE_ENV_FILE"'))
    api([{"content": [{"type": "tool_use", "name": "Bash",
                       "input": {"command": "echo $GREETING $CLAUDECODE"}}]}, TEXT])
    events = await run_prompt(session_for(project, allowed_tools=["Bash(echo:*)"]), "run")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert "from-hook 1" in str(result.content)


async def test_prompt_and_agent_hooks_are_answered_by_the_model(project: Path, api: Any) -> None:
    settings(project, {"PreToolUse": [
        {"matcher": "Glob", "hooks": [{"type": "prompt", "prompt": "Is $ARGUMENTS safe?"}]},
        {"matcher": "Grep", "hooks": [{"type": "agent", "prompt": "Check the search"}]}]})
    server = api([
        {"content": [{"type": "tool_use", "name": "Glob", "input": {"pattern": "*.py"}}]},
        {"content": [{"type": "text", "text": '{"ok": false, "reason": "globs are banned"}'}]},
        {"content": [{"type": "tool_use", "name": "Grep", "input": {"pattern": "x"}}]},
        {"content": [{"type": "text", "text": '{"ok": true}'}]},
        TEXT])
    events = await run_prompt(session_for(project), "search")
    glob, grep = [e for e in events if isinstance(e, ToolResultEvent)]
    assert glob.is_error and "globs are banned" in str(glob.content)
    assert not grep.is_error
    judge = server.requests[1]
    assert "haiku" in judge["model"] and "Is {" in judge["messages"][0]["content"][0]["text"]
    agent_judge = server.requests[3]
    assert sorted(t["name"] for t in agent_judge["tools"]) == ["Glob", "Grep", "Read"]


async def test_disable_all_hooks_and_plugin_hooks_through_bootstrap(
        project: Path, api: Any, tmp_path: Path) -> None:
    command, log = recorder(tmp_path)
    plugin = tmp_path / "plug"
    (plugin / "hooks").mkdir(parents=True)
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": on("UserPromptSubmit",
                                                                         command)}))
    api([TEXT, TEXT])
    await run_prompt(session_for(project, plugin_dirs=[str(plugin)]), "with the plugin's hook")
    assert [p["prompt"] for p in payloads(log, "UserPromptSubmit")] == ["with the plugin's hook"]
    settings(project, {}, disableAllHooks=True)
    await run_prompt(session_for(project, plugin_dirs=[str(plugin)]), "hooks off")
    assert len(payloads(log, "UserPromptSubmit")) == 1
