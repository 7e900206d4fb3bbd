"""The Agent tool end to end: a scripted parent delegates, the sub-agent works, reports back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.protocol.events import (
    AssistantMessage,
    Notice,
    ToolProgress,
    ToolResultEvent,
    TurnEnd,
    UserMessage,
)
from claude_harness.protocol.ops import RunCommand
from tests.e2e.support import conversation, make_engine, ndjson, run_cli, run_op, run_prompt


def delegation(project: Path, child_turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"content": [{"type": "tool_use", "name": "Agent",
                      "input": {"description": "Find greet", "prompt": "Where is greet defined?"}}]},
        *child_turns,
        {"content": [{"type": "text", "text": "The sub-agent says greet is in src/app.py."}]},
    ]


def researching_child(project: Path) -> list[dict[str, Any]]:
    app = str(project / "src" / "app.py")
    return [
        {"content": [{"type": "tool_use", "name": "Grep", "input": {"pattern": "def greet"}},
                     {"type": "tool_use", "name": "Read", "input": {"file_path": app}}]},
        {"content": [{"type": "text", "text": "REPORT: greet is defined at src/app.py:1."}]},
    ]


async def test_parent_receives_the_sub_agents_report(project: Path, api: Any) -> None:
    server = api(delegation(project, researching_child(project)))
    engine = make_engine(server, project)
    events = await run_prompt(engine, "where is greet?")
    assert [e for e in events if isinstance(e, TurnEnd)][0].reason == "end_turn"
    agent_result = next(e for e in events if isinstance(e, ToolResultEvent) and e.name == "Agent")
    assert not agent_result.is_error
    assert agent_result.content == "REPORT: greet is defined at src/app.py:1."
    steps = [e.data for e in events if isinstance(e, ToolProgress) and e.name == "Agent"]
    assert any(s.kind == "tool" and s.name == "Grep" and s.key == "def greet" for s in steps)
    assert steps[-1].kind == "end" and steps[-1].reason == "end_turn"
    # The child's own request: its own system prompt, no Agent tool, its prompt as first message.
    child_request = server.requests[1]
    assert child_request["messages"][0]["content"][0]["text"] == "Where is greet defined?"
    assert "Agent" not in [t["name"] for t in child_request["tools"]]
    # The parent's next request carries only the report, not the child's transcript.
    parent_next = conversation(server.requests[3])
    assert len(parent_next) == 3
    assert parent_next[-1]["content"][0]["content"] == "REPORT: greet is defined at src/app.py:1."
    # The transcript keeps the child's messages as a sidechain.
    sidechain = [e.message for e in events if isinstance(e, (UserMessage, AssistantMessage))
                 and e.message.get("isSidechain")]
    assert len(sidechain) == 4 and all(m["parentToolUseId"] == agent_result.tool_use_id
                                       for m in sidechain)


def test_sub_agent_write_is_denied_in_print_mode(project: Path, api: Any) -> None:
    child = [
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch pwned"}}]},
        {"content": [{"type": "text", "text": "REPORT: I was not allowed to create the file."}]},
    ]
    api(delegation(project, child))
    proc = run_cli(["-p", "make a file via a helper", "--output-format", "stream-json"], project)
    assert proc.returncode == 0, proc.stderr
    lines = ndjson(proc.stdout)
    assert not (project / "pwned").exists()
    child_lines = [x for x in lines if x.get("parent_tool_use_id")]
    assert child_lines, "sub-agent messages are streamed with their parent_tool_use_id"
    denied = [b for x in child_lines if x["type"] == "user" for b in x["message"]["content"]
              if b.get("type") == "tool_result"]
    assert denied and denied[0]["is_error"] is True
    assert lines[-1]["subtype"] == "success"
    assert [d["tool_input"] for d in lines[-1]["permission_denials"]] == [
        {"command": "touch pwned"}]


async def test_custom_command_expands_and_allows_its_tools_for_one_turn(project: Path,
                                                                       api: Any) -> None:
    (project / ".claude" / "commands").mkdir(parents=True)
    (project / ".claude" / "commands" / "mark.md").write_text(
        "---\ndescription: create a marker\nallowed-tools: Bash(touch *)\n---\n"
        "Create the marker file $ARGUMENTS now.\n")
    touch = {"content": [{"type": "tool_use", "name": "Bash",
                          "input": {"command": "touch marker-a"}}]}
    touch_b = {"content": [{"type": "tool_use", "name": "Bash",
                            "input": {"command": "touch marker-b"}}]}
    done = {"content": [{"type": "text", "text": "done"}]}
    server = api([touch, done, touch_b, done])
    session = make_engine(server, project, trusted=True)
    await run_op(session, RunCommand("mark", "marker-a"))
    assert (project / "marker-a").exists()
    tag, first = (b["text"] for b in server.requests[0]["messages"][0]["content"][:2])
    assert tag == ("<command-message>mark</command-message>\n<command-name>/mark</command-name>"
                   "\n<command-args>marker-a</command-args>\n")
    assert first.strip() == "Create the marker file marker-a now."
    await run_prompt(session, "again, without the command")
    assert not (project / "marker-b").exists()  # the rule lasted one turn
    events = await run_op(session, RunCommand("nope"))
    assert any(isinstance(e, Notice) and "Unknown command /nope" in e.text for e in events)
    assert len(server.requests) == 4  # an unknown command reaches nobody


async def test_a_prompt_naming_a_custom_command_is_expanded(project: Path, api: Any) -> None:
    """As in -p and stream-json input: `/name args` runs the command; other /words are text."""
    (project / ".claude" / "commands").mkdir(parents=True)
    (project / ".claude" / "commands" / "greet.md").write_text("Say hello to $ARGUMENTS.\n")
    server = api(["hello", "ok"])
    session = make_engine(server, project)
    await run_prompt(session, "/greet Ada")
    await run_prompt(session, "/usr/bin/env is odd")
    assert server.requests[0]["messages"][0]["content"][1]["text"].strip() == "Say hello to Ada."
    assert server.requests[1]["messages"][-1]["content"][0]["text"] == "/usr/bin/env is odd"


def test_custom_agents_are_offered_and_used(project: Path, api: Any) -> None:
    (project / ".claude" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents" / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep\n---\n"
        "You are a meticulous code reviewer.\n")
    server = api([
        {"content": [{"type": "tool_use", "name": "Agent",
                      "input": {"description": "Review", "prompt": "review src",
                                "subagent_type": "reviewer"}}]},
        {"content": [{"type": "text", "text": "REPORT: fine."}]},
        {"content": [{"type": "text", "text": "ok"}]},
    ])
    proc = run_cli(["-p", "review", "--output-format", "json"], project)
    assert proc.returncode == 0, proc.stderr
    listing = server.requests[0]["messages"][1]  # the system message after the first prompt
    assert listing["role"] == "system"
    assert "- reviewer: Reviews code for bugs (Tools: Read, Grep)" in \
        listing["content"][0]["text"]
    child = server.requests[1]
    assert child["system"][0]["text"].startswith("You are a meticulous code reviewer.")
    assert sorted(t["name"] for t in child["tools"]) == ["Grep", "Read"]
