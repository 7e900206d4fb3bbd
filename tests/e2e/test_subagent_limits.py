"""A sub-agent never has more than its parent, through the real bootstrap, session
and scripted server: the parent's plan or dontAsk mode, its missing bypass, and the tools its
deny rules removed hold for a child whatever the child's definition says. Each child's call is
a real tool call; what it would have made is looked for on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.events import Notice, ToolProgress
from claude_harness.session.bootstrap import build_session
from claude_harness.session.options import RunOptions
from tests.e2e.support import run_prompt

TEXT = {"content": [{"type": "text", "text": "done"}]}


def agent_file(project: Path, name: str, front: str) -> None:
    folder = project / ".claude" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(f"---\nname: {name}\ndescription: x\n{front}\n---\n"
                                       "You are an agent.\n")


def delegate(agent: str, *child: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"content": [{"type": "tool_use", "name": "Agent", "input": {
        "description": "do it", "prompt": "do the task", "subagent_type": agent}}]},
        *child, TEXT, TEXT]


def write(path: Path) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Write", "input": {
        "file_path": str(path), "content": "x"}}]}


def bash(command: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]}


def session_for(project: Path, **opts: Any) -> Any:
    """A trusted folder, as `-p` builds it: nobody to ask, so an undecided call is denied."""
    options = RunOptions(cwd=project, print_mode=True, interactive=False, **opts)
    session, _ = build_session(options, trusted=True)
    return session


def child_results(events: list[Any], tool: str) -> list[Any]:
    return [e.data for e in events if isinstance(e, ToolProgress) and e.name == "Agent"
            and e.data.kind == "result" and e.data.name == tool]


def notices(events: list[Any]) -> str:
    return "\n".join(e.text for e in events if isinstance(e, Notice))


@pytest.mark.parametrize("mode", ["acceptEdits", "bypassPermissions", "default", "auto"])
async def test_a_parent_in_plan_mode_keeps_its_child_from_writing(project: Path, api: Any,
                                                                  mode: str) -> None:
    agent_file(project, "writer", f"permissionMode: {mode}")
    target = project / "made.txt"
    api(delegate("writer", write(target), TEXT))
    events = await run_prompt(session_for(project, permission_mode="plan"), "go")
    (result,) = child_results(events, "Write")
    assert result.is_error and not target.exists()
    if mode != "default":
        assert f"permissionMode {mode}" in notices(events)


async def test_a_definition_never_grants_bypass_to_a_parent_in_default(
        project: Path, api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IS_SANDBOX", "1")
    agent_file(project, "root", "permissionMode: bypassPermissions")
    target = project / "made.txt"
    api(delegate("root", bash(f"touch {target}"), write(target), TEXT))
    events = await run_prompt(session_for(project, allow_bypass=True), "go")
    assert [r.is_error for r in child_results(events, "Bash")] == [True]
    assert [r.is_error for r in child_results(events, "Write")] == [True]
    assert not target.exists()
    assert "permissionMode bypassPermissions" in notices(events)


@pytest.mark.parametrize("mode", ["plan", "dontAsk"])
async def test_pre_approved_tools_do_not_lift_plan_or_dont_ask(project: Path, api: Any,
                                                              mode: str) -> None:
    agent_file(project, "toucher", "tools: Read, Bash(touch *)")
    target = project / "touched"
    api(delegate("toucher", bash(f"touch {target}"), TEXT))
    events = await run_prompt(session_for(project, permission_mode=mode), "go")
    (result,) = child_results(events, "Bash")
    assert result.is_error and not target.exists()
    assert "pre-approved tools are not applied" in notices(events)


async def test_an_agents_tool_list_never_adds_a_tool_the_parent_removed(project: Path,
                                                                        api: Any) -> None:
    agent_file(project, "writer", "tools: Read, Write, Bash\npermissionMode: acceptEdits")
    target = project / "made.txt"
    server = api(delegate("writer", write(target), bash(f"echo hi > {target}"), TEXT))
    events = await run_prompt(session_for(project, disallowed_tools=["Write", "Bash(echo *)"]),
                              "go")
    child_tools = {t["name"] for t in server.requests[1]["tools"]}
    assert "Write" not in child_tools and {"Read", "Bash"} <= child_tools
    assert [r.is_error for r in child_results(events, "Write")] == [True]
    assert [r.is_error for r in child_results(events, "Bash")] == [True]
    assert not target.exists()


async def test_narrower_modes_and_a_trusted_acceptedits_still_apply(project: Path,
                                                                    api: Any) -> None:
    """The other side: a definition may narrow its parent, and under a parent in default its
    acceptEdits answers the question the parent would have asked (tests/e2e/
    test_catalog_agents.py checks the trusted-folder gate)."""
    agent_file(project, "planner", "permissionMode: plan")
    agent_file(project, "writer", "permissionMode: acceptEdits")
    narrowed, allowed = project / "narrowed.txt", project / "allowed.txt"
    api(delegate("planner", write(narrowed), TEXT))
    await run_prompt(session_for(project, permission_mode="acceptEdits"), "go")
    assert not narrowed.exists()
    api(delegate("writer", write(allowed), TEXT))
    await run_prompt(session_for(project), "go")
    assert allowed.read_text() == "x"


@pytest.mark.parametrize(("parent", "asked", "child"), [
    ("plan", "acceptEdits", "plan"), ("plan", "bypassPermissions", "plan"),
    ("plan", "dontAsk", "plan"), ("dontAsk", "acceptEdits", "dontAsk"),
    ("dontAsk", "default", "dontAsk"), ("default", "bypassPermissions", "default"),
    ("default", "auto", "default"), ("acceptEdits", "auto", "acceptEdits"),
    ("default", "acceptEdits", "acceptEdits"), ("default", "plan", "plan"),
    ("acceptEdits", "default", "default"), ("bypassPermissions", "plan", "plan"),
    ("bypassPermissions", None, "bypassPermissions"), ("auto", "auto", "auto"),
])
def test_the_childs_mode_never_lifts_the_parents(parent: str, asked: str | None,
                                                 child: str) -> None:
    from claude_harness.agent.subagent_limits import child_mode

    assert child_mode(parent, asked) == child
