"""The session core through its two directions only: ops in, events out, with the real SDK
against the scripted server (permission answers by id, sub-agent prompts, /clear, /model,
rules, the prompt queue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.protocol.events import (
    Busy,
    HistoryReplaced,
    ModelChanged,
    Notice,
    PermissionRequest,
    PermissionSettled,
    PromptsReturned,
    QueueChanged,
    RulesChanged,
    ToolResultEvent,
    TurnEnd,
)
from claude_harness.protocol.ops import (
    AddRule,
    AnswerPermission,
    Clear,
    Interrupt,
    RemoveRule,
    SetModel,
    UserPrompt,
)
from claude_harness.testing.scenarios import TEXT
from tests.e2e.support import conversation, iter_prompt, make_engine, run_op, run_prompt


def bash(command: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]}


async def test_an_answer_reaches_only_the_request_with_its_id(project: Path, api: Any) -> None:
    server = api([bash("touch made"), TEXT])
    session = make_engine(server, project, interactive=True)
    settled: list[PermissionSettled] = []
    async for event in iter_prompt(session, "make it"):
        if isinstance(event, PermissionRequest):
            assert event.agent_id is None and event.request_id
            session.submit(AnswerPermission("not-" + event.request_id, "yes"))  # ignored
            session.submit(AnswerPermission(event.request_id, "no", "use a temp dir"))
        elif isinstance(event, PermissionSettled):
            settled.append(event)
    assert [s.choice for s in settled] == ["no"] and not (project / "made").exists()
    sent = server.requests[1]["messages"][-1]["content"][0]
    assert sent["is_error"] and "The user said: use a temp dir" in sent["content"]


async def test_an_interrupt_answers_an_open_prompt_no(project: Path, api: Any) -> None:
    server = api([bash("touch made"), TEXT])
    session = make_engine(server, project, interactive=True)
    events = []
    async for event in iter_prompt(session, "make it"):
        events.append(event)
        if isinstance(event, PermissionRequest):
            session.submit(Interrupt())
    assert any(isinstance(e, PermissionSettled) and e.choice == "no" for e in events)
    assert [e.reason for e in events if isinstance(e, TurnEnd)] == ["aborted"]
    assert not (project / "made").exists()


async def test_a_sub_agents_prompt_is_the_same_request_with_its_agent_id(project: Path,
                                                                        api: Any) -> None:
    server = api([
        {"content": [{"type": "tool_use", "name": "Agent",
                      "input": {"description": "make a file", "prompt": "touch child"}}]},
        bash("touch child"),
        {"content": [{"type": "text", "text": "REPORT: made it."}]},
        TEXT,
    ])
    session = make_engine(server, project, interactive=True)
    requests: list[PermissionRequest] = []
    events = await run_prompt(session, "delegate", answer=lambda r: (
        requests.append(r), AnswerPermission(r.request_id, "yes"))[1])
    assert len(requests) == 1 and requests[0].agent_id and requests[0].tool_name == "Bash"
    assert (project / "child").exists()
    agent = next(e for e in events if isinstance(e, ToolResultEvent) and e.name == "Agent")
    assert agent.content == "REPORT: made it."


async def test_always_saves_the_rule_and_later_calls_see_it(project: Path, api: Any) -> None:
    server = api([bash("touch one"), TEXT, bash("touch two"), TEXT])
    session = make_engine(server, project, interactive=True)
    asked = []
    await run_prompt(session, "one", answer=lambda r: (
        asked.append(r), AnswerPermission(r.request_id, "always"))[1])
    events = await run_prompt(session, "two", answer=lambda r: (
        asked.append(r), AnswerPermission(r.request_id, "no"))[1])
    assert len(asked) == 1 and (project / "two").exists()
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert saved["permissions"]["allow"] == [asked[0].suggestion]
    assert not [e for e in events if isinstance(e, PermissionRequest)]


async def test_rules_are_added_and_removed_through_ops(project: Path, api: Any) -> None:
    session = make_engine(api([]), project, interactive=True)
    events = await run_op(session, AddRule("deny", "Bash(rm *)"))
    assert any(isinstance(e, Notice) and "Saved deny rule" in e.text for e in events)
    listed = [e.rules for e in events if isinstance(e, RulesChanged)][-1]
    assert ("deny", "Bash(rm *)", "localSettings, this session") in listed
    events = await run_op(session, RemoveRule("Bash(rm *)"))
    assert not [r for r in [e for e in events if isinstance(e, RulesChanged)][-1].rules
                if r[1] == "Bash(rm *)"]
    saved = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert saved["permissions"]["deny"] == []


async def test_set_model_resolves_aliases(project: Path, api: Any) -> None:
    server = api([TEXT])
    session = make_engine(server, project)
    events = await run_op(session, SetModel("opus"))
    assert [e.model for e in events if isinstance(e, ModelChanged)] == ["claude-opus-5-5"]
    await run_prompt(session, "hi")
    assert server.requests[0]["model"] == "claude-opus-5-5"


async def test_clear_forgets_the_history_and_the_files_read(project: Path, api: Any) -> None:
    app = str(project / "src" / "app.py")
    edit = {"content": [{"type": "tool_use", "name": "Edit", "input": {
        "file_path": app, "old_string": "'hello ' + name", "new_string": "'hi ' + name"}}]}
    read = {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": app}}]}
    server = api([read, TEXT, edit, TEXT])
    session = make_engine(server, project, mode="acceptEdits")
    await run_prompt(session, "read it")
    events = await run_op(session, Clear())
    assert any(isinstance(e, HistoryReplaced) and e.reason == "clear" for e in events)
    events = await run_prompt(session, "now edit it")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert result.is_error and "has not been read yet" in result.content
    assert len(conversation(server.requests[2])) == 1  # the new conversation starts empty


async def test_prompts_sent_during_a_turn_wait_and_go_out_together(project: Path,
                                                                   api: Any) -> None:
    server = api([{"content": [{"type": "text", "text": "slow " * 100}], "delay": 0.01},
                  TEXT])
    session = make_engine(server, project)
    queued: list[tuple[str, ...]] = []
    async for event in iter_prompt(session, "first"):
        if isinstance(event, Busy) and event.running and not queued:
            session.submit(UserPrompt("second"))
            session.submit(UserPrompt("third"))
        if isinstance(event, QueueChanged):
            queued.append(event.pending)
    assert queued[:2] == [("second",), ("second", "third")] and queued[-1] == ()
    last = server.requests[-1]["messages"][-1]["content"][0]["text"]
    assert last == "second\n\nthird" and len(server.requests) == 2


async def test_an_interrupt_hands_queued_prompts_back(project: Path, api: Any) -> None:
    server = api([bash("sleep 30"), TEXT])
    session = make_engine(server, project, allow=("Bash(sleep *)",))
    returned: list[tuple[str, ...]] = []
    async for event in iter_prompt(session, "wait"):
        if isinstance(event, ToolResultEvent) or isinstance(event, Busy) and not event.running:
            continue
        if type(event).__name__ == "ToolStart":
            session.submit(UserPrompt("instead"))
            session.submit(Interrupt())
        if isinstance(event, PromptsReturned):
            returned.append(event.texts)
    assert returned == [("instead",)] and len(server.requests) == 1
