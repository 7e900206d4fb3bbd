"""The sub-agent kinds the Agent tool offers: built-in ones (general-purpose, Explore, Plan),
custom ones from `.claude/agents/`, the user's agents folder, plugins and `--agents`.

The definitions themselves live in claude_harness.commands.agents; this module is what the
Agent tool asks, through the session's catalog (see claude_harness.commands.catalog).
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.commands.agents import GENERAL_PURPOSE, AgentDefinition

__all__ = ["GENERAL_PURPOSE", "AgentDefinition", "agent_definitions", "find_agent"]


def agent_definitions(cwd: Path) -> list[AgentDefinition]:
    """Every agent type visible from `cwd`, sorted by name (built-ins included)."""
    from claude_harness.commands.catalog import catalog_for

    return catalog_for(cwd).agent_list()


def find_agent(name: str, cwd: Path) -> AgentDefinition | None:
    from claude_harness.commands.catalog import catalog_for

    return catalog_for(cwd).find_agent(name)
