"""`/agents create` and `/agents edit`: the file written loads as an agent (names with spaces,
descriptions with colons survive the YAML), bad answers are refused, edit finds the file."""

from __future__ import annotations

from pathlib import Path

from claude_harness.commands.agent_files import agent_command
from claude_harness.commands.catalog import load_catalog


def test_created_agent_loads_as_written(repo: Path) -> None:
    message, level, path = agent_command(repo, "create db-helper Helps: with SQL, carefully")
    assert level == "info" and path == repo / ".claude" / "agents" / "db-helper.md"
    agent = load_catalog(repo).find_agent("db-helper")
    assert agent is not None and agent.description == "Helps: with SQL, carefully"
    assert agent.scope == "project" and "next session" in message


def test_bad_answers_are_refused_and_nothing_is_written(repo: Path) -> None:
    for args, why in (("create ../evil desc", "not an agent name"),
                      ("create lonely", "needs a description")):
        message, level, path = agent_command(repo, args)
        assert level == "error" and why in message and path is None
    assert not (repo / ".claude").exists()
    agent_command(repo, "create twice first")
    message, level, _ = agent_command(repo, "create twice second")
    assert level == "error" and "exists already" in message


def test_edit_opens_the_agents_own_file(repo: Path) -> None:
    agent_command(repo, "create rev reviews")
    load_catalog(repo)  # the session's catalog
    _, level, path = agent_command(repo, "edit rev")
    assert level == "info" and path == repo / ".claude" / "agents" / "rev.md"
    message, level, path = agent_command(repo, "edit Explore")
    assert level == "error" and path is None and "built-in" in message
