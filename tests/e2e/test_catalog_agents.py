"""Agents as written, through the real bootstrap and session: a definition's tools filter, its
rule-form tools pre-approved, model, permissionMode (only in a trusted folder), maxTurns, its own
hooks and colour; `Agent(type)` rules; the built-in Explore agent; background agents; and the
listing message the model reads (agent types and skills, a `role: system` message that never
moves)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from claude_harness.protocol.events import Busy, Notice, ToolProgress, ToolResultEvent, TurnEnd
from claude_harness.protocol.ops import Compact
from claude_harness.session.bootstrap import build_session
from claude_harness.session.options import RunOptions
from tests.e2e.support import run_op, run_prompt

TEXT = {"content": [{"type": "text", "text": "done"}]}


def agent_file(project: Path, name: str, front: str, prompt: str = "You are an agent.") -> None:
    folder = project / ".claude" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(f"---\nname: {name}\n{front}\n---\n{prompt}\n")


def delegate(agent: str, *child: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"content": [{"type": "tool_use", "name": "Agent", "input": {
        "description": "do it", "prompt": "do the task", "subagent_type": agent}}]},
        *child, TEXT]


def bash(command: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]}


def session_for(project: Path, *, trusted: bool = True, **opts: Any) -> Any:
    """A session as `-p` builds it: nobody to ask, so an undecided call is denied."""
    options = RunOptions(cwd=project, print_mode=True, interactive=False, **opts)
    session, _ = build_session(options, trusted=trusted)
    return session


async def test_definition_fields_shape_the_child(project: Path, api: Any) -> None:
    agent_file(project, "gitbot", "description: echo helper\ntools: Read, Bash(echo *)\n"
               "model: haiku\nmaxTurns: 2\ncolor: purple")
    server = api(delegate("gitbot", bash("echo ok"), bash("touch nope"),
                          {"content": [{"type": "text", "text": "never reached"}]}))
    events = await run_prompt(session_for(project), "go")
    child = server.requests[1]
    assert "haiku" in child["model"]
    assert sorted(t["name"] for t in child["tools"]) == ["Bash", "Read"]
    steps = [e.data for e in events if isinstance(e, ToolProgress) and e.name == "Agent"]
    results = [s for s in steps if s.kind == "result" and s.name == "Bash"]
    assert not results[0].is_error  # `echo ok` pre-approved by the rule form
    assert results[1].is_error and not (project / "nope").exists()  # anything else is not
    assert steps[-1].kind == "end" and steps[-1].reason == "max_turns"
    assert all(s.agent_type == "gitbot" and s.color == "purple" for s in steps)
    assert len(server.requests) == 4  # two child turns, then the parent's answer


async def test_permission_mode_needs_a_trusted_folder(project: Path, api: Any) -> None:
    agent_file(project, "writer", "description: writes\npermissionMode: acceptEdits")
    write = {"content": [{"type": "tool_use", "name": "Write", "input": {
        "file_path": str(project / "made.txt"), "content": "x"}}]}
    api(delegate("writer", write, TEXT))
    events = await run_prompt(session_for(project, trusted=False), "go")
    assert not (project / "made.txt").exists()
    assert any(isinstance(e, Notice) and "permissionMode acceptEdits is not applied" in e.text
               for e in events)
    api(delegate("writer", write, TEXT))
    await run_prompt(session_for(project, trusted=True), "go")
    assert (project / "made.txt").read_text() == "x"


async def test_an_agents_own_stop_hook_runs_for_it_alone(project: Path, api: Any,
                                                         tmp_path: Path) -> None:
    log = tmp_path / "stops.jsonl"
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": f"cat >> {log}; echo >> {log}"}]}]}
    agent_file(project, "hooked", "description: has hooks\nhooks: " + json.dumps(hooks))
    api([*delegate("hooked", TEXT)[:2], *delegate("general-purpose", TEXT)])
    await run_prompt(session_for(project), "go")
    stops = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    assert [(s["hook_event_name"], s["agent_type"]) for s in stops] == [("SubagentStop",
                                                                         "hooked")]


async def test_agent_type_rules_and_the_explore_agent(project: Path, api: Any) -> None:
    server = api([delegate("Plan")[0], *delegate("Explore", TEXT)])
    events = await run_prompt(session_for(project, disallowed_tools=["Agent(Plan)"]), "go")
    refused = [e for e in events if isinstance(e, ToolResultEvent) and e.name == "Agent"][0]
    assert refused.is_error and "Plan" in str(refused.content)
    explore = server.requests[2]
    assert "haiku" in explore["model"]
    names = {t["name"] for t in explore["tools"]}
    assert {"Read", "Grep", "Glob"} <= names and not names & {"Edit", "Write", "Agent"}


async def test_background_agent_reports_in_a_turn_of_its_own(project: Path, api: Any) -> None:
    """Interactive: the parent's turn ends at once; when the child is done, the session starts
    a turn that hands the model a task-notification with the child's report."""
    start = {"content": [{"type": "tool_use", "name": "Agent", "input": {
        "description": "slow job", "prompt": "work", "run_in_background": True}}]}
    report = {"content": ["CHILD REPORT"]}  # the parent's answer and the child's race
    server = api([start, report, report, TEXT])
    session = session_for(project)
    session.config.wait_for_background = False  # as in the app and the REPL
    await run_prompt(session, "go")  # the child may end before or after the parent's turn
    if len(server.requests) < 4:
        await asyncio.wait_for(_until_idle(session), 30)
    parent = next(r for r in server.requests[1:3] if r["messages"][0]["content"][0]["text"]
                  == "go")  # the parent's second request, whichever came first
    assert "working in the background" in parent["messages"][-1]["content"][0]["content"]
    notice = server.requests[3]["messages"][-1]["content"][0]["text"]
    assert "<task-notification>" in notice and "<status>completed</status>" in notice
    assert "<result>CHILD REPORT</result>" in notice
    assert 'Agent "slow job" finished' in notice


async def _until_idle(session: Any) -> None:
    """Events until a turn the session started by itself has ended."""
    ended = False
    async for event in session.events():
        ended = ended or isinstance(event, TurnEnd)
        if ended and isinstance(event, Busy) and not event.running:
            return


async def test_listing_message_is_fixed_and_survives_compaction(project: Path, api: Any) -> None:
    skill = project / ".claude" / "skills" / "deploy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\ndescription: Ship it\n---\nDeploy.\n")
    agent_file(project, "rev", "description: Reviews code\ntools: Read")
    server = api([TEXT, TEXT, {"content": ["SUMMARY"]}, TEXT])
    session = session_for(project)
    await run_prompt(session, "one")
    await run_prompt(session, "two")
    await run_op(session, Compact())
    await run_prompt(session, "three")
    listings = [r["messages"][1] for i, r in enumerate(server.requests) if i != 2]
    assert all(m["role"] == "system" for m in listings)
    texts = [m["content"][0]["text"] for m in listings]
    assert texts == [texts[0]] * 3  # the same text at the same place: the prefix never moves
    text = texts[0]
    assert "- rev: Reviews code (Tools: Read)" in text
    assert "The following skills are available for use with the Skill tool:" in text
    assert "- deploy: Ship it" in text
