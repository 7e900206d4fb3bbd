"""The sub-agent kinds the Agent tool offers: built-in ones (general-purpose, Explore, Plan),
custom ones from `.claude/agents/`, the user's agents folder, plugins and `--agents`.

The definitions themselves live in claude_harness.commands.agents; this module is what the
Agent tool asks, through the session's catalog (see claude_harness.commands.catalog).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from claude_harness.commands.agents import GENERAL_PURPOSE, AgentDefinition

__all__ = ["GENERAL_PURPOSE", "AgentDefinition", "agent_definitions", "find_agent",
           "with_agent_types"]


def agent_definitions(cwd: Path) -> list[AgentDefinition]:
    """Every agent type visible from `cwd`, sorted by name (built-ins included)."""
    from claude_harness.commands.catalog import catalog_for

    return catalog_for(cwd).agent_list()


def find_agent(name: str, cwd: Path) -> AgentDefinition | None:
    from claude_harness.commands.catalog import catalog_for

    return catalog_for(cwd).find_agent(name)


def with_agent_types(tools: tuple[Any, ...], cwd: Path) -> tuple[Any, ...]:
    """The Agent tool's description with the agent types this project offers appended (custom
    agents come from files, so the list is fixed when the session starts, like every tool)."""
    from claude_harness.commands.catalog import catalog_for

    listing = catalog_for(cwd).agent_listing()
    return tuple(replace(t, description=t.description + "\n\n" + listing)
                 if t.name == "Agent" else t for t in tools)
