"""Custom sub-agent definitions from `.claude/agents/` and the user's agents folder."""

from __future__ import annotations

from pathlib import Path

from claude_harness.commands import find_agent, load_agents
from tests.commands.conftest import write

REVIEWER = """---
name: code-reviewer
description: Reviews a diff for bugs; use after writing code.
tools: Read, Grep, Glob
model: haiku
color: blue
maxTurns: 12
---

You are a careful reviewer.
Report only real problems.
"""


def test_project_agent_is_parsed(repo: Path) -> None:
    write(repo / ".claude" / "agents" / "reviewer.md", REVIEWER)
    agents = load_agents(repo)
    assert len(agents) == 1
    agent = agents[0]
    assert agent.name == "code-reviewer" and agent.scope == "project"
    assert agent.description == "Reviews a diff for bugs; use after writing code."
    assert agent.tools == ("Read", "Grep", "Glob")
    assert agent.model == "haiku" and agent.color == "blue" and agent.max_turns == 12
    assert agent.system_prompt == "You are a careful reviewer.\nReport only real problems."


def test_tools_as_yaml_list_inherit_and_star(repo: Path, user_dir: Path) -> None:
    write(repo / ".claude" / "agents" / "listed.md",
          "---\nname: listed\ndescription: d\ntools:\n  - Read\n  - Bash(git *)\n"
          "disallowedTools: Write, Edit\nmodel: inherit\n---\nprompt")
    write(repo / ".claude" / "agents" / "sub" / "all.md",
          "---\nname: all-tools\ndescription: d\n---\nprompt")
    write(user_dir / "agents" / "star.md", "---\nname: star\ndescription: d\ntools: '*'\n---\np")
    agents = {a.name: a for a in load_agents(repo)}
    assert agents["listed"].tools == ("Read", "Bash")  # the tool, limited by its rule:
    assert agents["listed"].tool_rules == ("Bash(git *)",)
    assert agents["listed"].disallowed_tools == ("Write", "Edit")
    assert agents["listed"].model is None
    assert agents["all-tools"].tools is None  # omitted: inherit every tool
    assert agents["star"].tools is None and agents["star"].scope == "user"


def test_project_agent_hides_a_user_agent_of_the_same_name(repo: Path, user_dir: Path) -> None:
    write(repo / ".claude" / "agents" / "r.md", REVIEWER)
    write(user_dir / "agents" / "r.md", REVIEWER.replace("careful", "user's"))
    agents = load_agents(repo)
    assert len(agents) == 1 and "careful" in agents[0].system_prompt
    assert find_agent(agents, "code-reviewer") is agents[0]
    assert find_agent(agents, "nope") is None


def test_unusable_definitions_are_skipped_with_a_reason(repo: Path) -> None:
    folder = repo / ".claude" / "agents"
    write(folder / "noname.md", "---\ndescription: d\n---\nx")
    write(folder / "nodesc.md", "---\nname: nodesc\n---\nx")
    write(folder / "spaced.md", "---\nname: Code Reviewer.v2\ndescription: d\n---\nx")
    write(folder / "plain.md", "no front matter at all")
    write(folder / "ok.md", "---\nname: ok\ndescription: fine\n---\nx")
    warnings: list[str] = []
    agents = load_agents(repo, warnings)
    assert [a.name for a in agents] == ["Code Reviewer.v2", "ok"]  # names load as written
    text = "\n".join(warnings)
    assert "noname.md: missing `name`" in text
    assert "nodesc.md: missing `description`" in text
    assert "plain.md: missing `name`" in text


def test_duplicate_names_in_one_folder_keep_the_first_and_warn(repo: Path) -> None:
    write(repo / ".claude" / "agents" / "a.md", "---\nname: dup\ndescription: first\n---\nx")
    write(repo / ".claude" / "agents" / "b.md", "---\nname: dup\ndescription: second\n---\nx")
    warnings: list[str] = []
    agents = load_agents(repo, warnings)
    assert [a.description for a in agents] == ["first"]
    assert "also defined" in warnings[0]
