"""The Skill tool through the real engine, pipeline and SDK against the scripted server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.protocol.events import ToolResultEvent
from tests.e2e.support import make_engine, run_prompt

DONE = {"content": [{"type": "text", "text": "done"}]}


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def skill_call(name: str, args: str | None = None, n: int = 0) -> dict[str, Any]:
    inp: dict[str, Any] = {"skill": name}
    if args is not None:
        inp["args"] = args
    return {"type": "tool_use", "id": f"toolu_skill_{n}", "name": "Skill", "input": inp}


def results(server: Any) -> list[dict[str, Any]]:
    last = server.requests[-1]["messages"]
    return [b for m in last if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


def after_results(server: Any, index: int = -1) -> list[str]:
    """The text blocks that follow the tool results in the same user message (a skill's
    instructions ride there, as Claude Code sends them)."""
    message = server.requests[index]["messages"][-1]
    return [b["text"] for b in message["content"] if b.get("type") == "text"]


async def test_skill_loads_instructions_with_its_base_directory(project: Path, api: Any) -> None:
    folder = project / ".claude" / "skills" / "release"
    write(folder / "SKILL.md", "---\ndescription: Cut a release\n---\n"
          "Release $ARGUMENTS (first: $0) from ${CLAUDE_SKILL_DIR}; run scripts/check.sh\n")
    write(folder / "scripts" / "check.sh", "echo ok\n")
    read = {"type": "tool_use", "id": "toolu_read", "name": "Read",
            "input": {"file_path": str(folder / "scripts" / "check.sh")}}
    server = api([{"content": [skill_call("release", "1.2 final")]}, {"content": [read]}, DONE])
    events = await run_prompt(make_engine(server, project), "release it")
    first = [e for e in events if isinstance(e, ToolResultEvent)]
    assert [e.is_error for e in first] == [False, False]  # the skill, then a file of its folder
    assert results(server)[0]["content"] == "Launching skill: release"
    assert after_results(server, 1) == [
        f"Base directory for this skill: {folder}\n\n"
        f"Release 1.2 final (first: 1.2) from {folder}; run scripts/check.sh\n"]
    assert "echo ok" in str(results(server)[1]["content"])


async def test_unknown_and_user_only_skills_are_refused(project: Path, api: Any) -> None:
    write(project / ".claude" / "commands" / "deploy.md",
          "---\ndescription: deploy\ndisable-model-invocation: true\n---\nDeploy!")
    write(project / ".claude" / "commands" / "review.md", "Review the diff")
    server = api([{"content": [skill_call("reveiw", n=0), skill_call("deploy", n=1),
                               skill_call("/review", n=2)]}, DONE])
    await run_prompt(make_engine(server, project), "go")
    unknown, user_only, command = results(server)
    assert unknown["is_error"] and "Unknown skill: reveiw. Did you mean review?" in \
        str(unknown["content"])
    assert user_only["is_error"] and "disable-model-invocation" in str(user_only["content"])
    assert not command.get("is_error") and command["content"] == "Launching skill: review"
    assert after_results(server) == ["Review the diff"]


async def test_skill_with_allowed_tools_asks_and_rules_decide(project: Path, api: Any) -> None:
    write(project / ".claude" / "skills" / "gitty" / "SKILL.md",
          "---\ndescription: git things\nallowed-tools: Bash(git status:*)\n---\nUse git.")
    server = api([{"content": [skill_call("gitty")]}, DONE])
    await run_prompt(make_engine(server, project), "go")  # -p style: nobody to ask
    refused = results(server)[0]
    assert refused["is_error"] and "Skill on gitty needs approval" in str(refused["content"])
    server = api([{"content": [skill_call("gitty")]}, DONE])
    await run_prompt(make_engine(server, project, allow=("Skill(gitty)",)), "go")
    assert after_results(server)[0].endswith("/gitty\n\nUse git.")
