"""The sub-agent kinds the Agent tool offers: the general one and custom ones from
`.claude/agents/*.md` and the user's agents folder."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from claude_harness.commands.agents import load_agents

GENERAL_PROMPT = """\
You are a sub-agent of a coding assistant, working on one task in the user's repository. Work \
on your own with the tools you have: search, read, and (when the task asks for it) change files \
or run commands. You cannot ask questions. When you are done, answer with one final message \
that is your report: what you found or did, with file paths and line numbers, concise and \
complete. That message is all the requester will see."""


@dataclass(frozen=True)
class AgentDefinition:
    name: str
    description: str
    system_prompt: str
    tools: tuple[str, ...] | None = None  # None = every tool the parent has (minus Agent)
    model: str | None = None


GENERAL_PURPOSE = AgentDefinition(
    "general-purpose",
    "A general agent for research and multi-step tasks: searching code, reading many files, "
    "making changes across them.",
    GENERAL_PROMPT,
)


def agent_definitions(cwd: Path) -> list[AgentDefinition]:
    """The general agent, then custom ones from `.claude/agents` and the user's agents."""
    found = [GENERAL_PURPOSE]
    for custom in load_agents(cwd):
        tools = tuple(custom.tools) if getattr(custom, "tools", None) else None
        found.append(AgentDefinition(custom.name, custom.description,
                                     custom.system_prompt, tools, custom.model or None))
    return found


def find_agent(name: str, cwd: Path) -> AgentDefinition | None:
    for definition in agent_definitions(cwd):
        if definition.name == name:
            return definition
    return None


def with_agent_types(tools: tuple[Any, ...], cwd: Path) -> tuple[Any, ...]:
    """The Agent tool's description with the agent types this project offers appended (custom
    agents come from files, so the list is fixed when the session starts, like every tool)."""
    lines = [f"- {d.name}: {d.description}" for d in agent_definitions(cwd)]
    described = "\n\nAvailable agent types (subagent_type):\n" + "\n".join(lines)
    return tuple(replace(t, description=t.description + described) if t.name == "Agent" else t
                 for t in tools)
