"""The agent loop in-process, with the real SDK over HTTP: faults, malformed input, the streaming
executor, abort, thinking, turn limits."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from claude_harness.agent.messages import tool_uses
from claude_harness.protocol.events import (
    ApiRetry,
    SessionStarted,
    TextDelta,
    ToolResultEvent,
    ToolStart,
    TurnEnd,
)
from claude_harness.protocol.ops import AnswerPermission, Interrupt
from tests.e2e.support import conversation, history, iter_prompt, make_engine, run_prompt

TEXT = {"content": [{"type": "text", "text": "All good."}]}


def end_of(events: list[Any]) -> TurnEnd:
    ends = [e for e in events if isinstance(e, TurnEnd)]
    assert len(ends) == 1
    return ends[0]


def results(events: list[Any]) -> dict[str, ToolResultEvent]:
    return {e.tool_use_id: e for e in events if isinstance(e, ToolResultEvent)}


async def test_overloaded_then_success_retries(project: Path, api: Any) -> None:
    server = api([{"fault": {"status": 529, "retry_after": 0}}, TEXT])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "hi")
    assert end_of(events).reason == "end_turn"
    retries = [e for e in events if isinstance(e, ApiRetry)]
    assert len(retries) == 1 and "529" in retries[0].error
    assert len(server.requests) == 2
    assert history(events)[-1]["content"][0]["text"] == "All good."


async def test_dropped_stream_is_retried_and_partial_text_discarded(project: Path, api: Any) -> None:
    dropped = {"content": [{"type": "text", "text": "PARTIAL " * 40}],
               "fault": {"drop_after_events": 5}}
    server = api([dropped, TEXT])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "hi")
    assert end_of(events).reason == "end_turn"
    assert any(isinstance(e, ApiRetry) for e in events)
    assistant = [m for m in history(events) if m["role"] == "assistant"]
    assert len(assistant) == 1 and "PARTIAL" not in str(assistant)


async def test_error_event_in_stream_is_retried(project: Path, api: Any) -> None:
    server = api([{"content": [{"type": "text", "text": "x"}],
                   "fault": {"sse_error": {"type": "overloaded_error", "message": "busy"},
                             "after_events": 2}}, TEXT])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "hi")
    assert end_of(events).reason == "end_turn"
    assert len(server.requests) == 2


async def test_retries_spent_end_with_clear_error(project: Path, api: Any) -> None:
    server = api([{"fault": {"status": 500, "retry_after": 0}}] * 5)
    engine = make_engine(server, project)
    events = await run_prompt(engine, "hi")
    end = end_of(events)
    assert end.reason == "error" and "500" in (end.error or "")
    assert len(server.requests) == 4  # first try + max_retries=3


async def test_malformed_tool_inputs_become_error_results(project: Path, api: Any) -> None:
    turn = {"content": [
        {"type": "tool_use", "name": "Read", "input": {"file_path": 123}},
        {"type": "tool_use", "name": "NoSuchTool", "input": {"x": 1}},
        {"type": "tool_use", "name": "Glob", "raw_input": '{"pattern": "**/*.py"'},
        {"type": "tool_use", "name": "Read", "input": {"file_path": "/x", "bogus": True}},
    ]}
    server = api([turn, TEXT])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "go")
    assert end_of(events).reason == "end_turn"
    by_id = results(events)
    assert len(by_id) == 4 and all(r.is_error for r in by_id.values())
    texts = [str(r.content) for r in by_id.values()]
    assert any("file_path" in t and "invalid" in t for t in texts)
    assert any("No such tool available: NoSuchTool" in t for t in texts)
    assert any("not valid JSON" in t for t in texts)
    assert any("unexpected parameter `bogus`" in t for t in texts)
    # The API accepted the history that carried these results: the session went on.
    sent = server.requests[1]["messages"]
    answered = [b for b in sent[-1]["content"] if b["type"] == "tool_result"]
    assert len(answered) == 4 and all(b["is_error"] for b in answered)
    assert all("_invalid_json" not in str(m) for m in sent)


async def test_read_only_tool_finishes_before_message_stop(project: Path, api: Any) -> None:
    app = str(project / "src" / "app.py")
    turn = {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": app}},
                        {"type": "text", "text": "word " * 60}],
            "delay": 0.02}
    server = api([turn, TEXT])
    engine = make_engine(server, project)
    seen: dict[str, float] = {}
    async for event in iter_prompt(engine, "read"):
        if isinstance(event, ToolResultEvent):
            seen["result"] = time.time()
    first_response_end = next(e["t"] for e in server.log if e["event"] == "response_end")
    assert seen["result"] < first_response_end - 0.2


async def test_serial_tools_wait_for_the_stream(project: Path, api: Any) -> None:
    target = project / "made.txt"
    turn = {"content": [{"type": "tool_use", "name": "Write",
                         "input": {"file_path": str(target), "content": "x"}},
                        {"type": "text", "text": "word " * 30}],
            "delay": 0.02}
    server = api([turn, TEXT])
    engine = make_engine(server, project, mode="acceptEdits")
    stamps: dict[str, float] = {}
    async for event in iter_prompt(engine, "write"):
        if isinstance(event, ToolResultEvent):
            stamps["result"] = time.time()
    first_response_end = next(e["t"] for e in server.log if e["event"] == "response_end")
    assert stamps["result"] >= first_response_end
    assert target.read_text() == "x"


async def test_abort_during_a_long_tool_leaves_a_valid_history(project: Path, api: Any) -> None:
    turn = {"content": [{"type": "tool_use", "name": "Bash",
                         "input": {"command": "sleep 30"}}]}
    server = api([turn, TEXT])
    engine = make_engine(server, project, allow=("Bash(sleep *)",))
    events: list[Any] = []
    started = time.monotonic()
    async for event in iter_prompt(engine, "wait"):
        events.append(event)
        if isinstance(event, ToolStart):
            asyncio.get_running_loop().call_later(0.5, engine.submit, Interrupt())
    assert time.monotonic() - started < 10
    assert end_of(events).reason == "aborted"
    messages = history(events)
    uses = tool_uses(messages[-2])
    answered = [b["tool_use_id"] for b in messages[-1]["content"]]
    assert [u["id"] for u in uses] == answered
    # The next prompt works and the server accepts the history.
    events = await run_prompt(engine, "next")
    assert end_of(events).reason == "end_turn"


async def test_abort_while_streaming_text(project: Path, api: Any) -> None:
    slow = {"content": [{"type": "text", "text": "slow " * 200}], "delay": 0.02}
    server = api([slow, TEXT])
    engine = make_engine(server, project)
    events: list[Any] = []
    deltas = 0
    async for event in iter_prompt(engine, "talk"):
        events.append(event)
        deltas += isinstance(event, TextDelta)
        if isinstance(event, TextDelta) and deltas == 2:
            engine.submit(Interrupt())
    assert end_of(events).reason == "aborted"
    events = await run_prompt(engine, "again")
    assert end_of(events).reason == "end_turn"
    assert server.requests[-1]["messages"][0]["role"] == "user"


async def test_thinking_blocks_are_sent_back_intact(project: Path, api: Any) -> None:
    app = str(project / "src" / "app.py")
    turn = {"content": [{"type": "thinking", "thinking": "I should read the file."},
                        {"type": "tool_use", "name": "Read", "input": {"file_path": app}}]}
    server = api([turn, TEXT])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "think")
    assert end_of(events).reason == "end_turn"  # the server rejects altered thinking blocks
    sent = conversation(server.requests[1])[1]["content"][0]
    assert sent["type"] == "thinking" and sent["thinking"] == "I should read the file."
    assert sent["signature"]


async def test_max_turns_stops_the_loop(project: Path, api: Any) -> None:
    app = str(project / "src" / "app.py")
    read = {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": app}}]}
    server = api([read, read, read, TEXT])
    engine = make_engine(server, project, max_turns=2)
    events = await run_prompt(engine, "loop")
    end = end_of(events)
    assert end.reason == "max_turns" and end.num_turns == 2
    assert len(server.requests) == 2


async def test_auto_mode_classifier_decides_and_says_so(project: Path, api: Any) -> None:
    from claude_harness.protocol.events import Notice

    server = api([
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch built"}}]},
        {"content": [{"type": "text", "text": "ALLOW"}]},  # the classifier's fast stage
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": "touch pushed"}}]},
        {"content": [{"type": "text", "text": "BLOCK"}]},
        TEXT,
    ])
    engine = make_engine(server, project, mode="auto")
    events = await run_prompt(engine, "build it, but never push")
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any(n.startswith("Auto mode allowed Bash") for n in notices)
    assert any(n.startswith("Auto mode blocked Bash") for n in notices)
    assert (project / "built").exists() and not (project / "pushed").exists()
    classifier_request = server.requests[1]
    assert "never push" in str(classifier_request["messages"])
    assert "touch built" in str(classifier_request["messages"])


async def test_approved_in_place_sed_applies_exactly_the_previewed_change(
        project: Path, api: Any) -> None:
    from claude_harness.protocol.events import PermissionRequest

    target = project / "notes.txt"
    target.write_text("hello world\nhello again\n")
    server = api([{"content": [{"type": "tool_use", "name": "Bash",
                                "input": {"command": "sed -i 's/hello/bye/' notes.txt"}}]},
                  TEXT])
    engine = make_engine(server, project, interactive=True)
    previews: list[str] = []
    async for event in iter_prompt(engine, "edit notes"):
        if isinstance(event, PermissionRequest):
            previews.append(event.preview or "")
            target.write_text("hello world\nhello again\nhello late\n")  # changes after preview
            engine.submit(AnswerPermission(event.request_id, "yes"))
    assert previews and "-hello world" in previews[0] and "+bye world" in previews[0]
    assert target.read_text() == "bye world\nbye again\n"  # what was shown, not a re-run


async def test_debug_log_records_safe_error_classes_only(project: Path, api: Any) -> None:
    import json

    secret = str(project / "secret-name-xyz.txt")
    server = api([{"content": [{"type": "tool_use", "name": "Read",
                                "input": {"file_path": secret}},
                               {"type": "tool_use", "name": "Bash",
                                "input": {"command": "ls"}}]}, TEXT])
    engine = make_engine(server, project, debug=True)
    events = await run_prompt(engine, "read it")
    started = next(e for e in events if isinstance(e, SessionStarted))
    log = Path(started.transcript_path).parent / started.session_id / "debug.log"
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["tool"] for e in entries] == ["Read"]
    assert entries[0]["error"].startswith("ToolError:")
    assert "secret-name-xyz" not in log.read_text()
