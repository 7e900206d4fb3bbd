"""User-defined prompt files: custom slash commands (`.claude/commands/`) and custom sub-agent
definitions (`.claude/agents/`), both Markdown with a small front matter."""

from claude_harness.commands.agents import AgentDefinition, find_agent, load_agents
from claude_harness.commands.custom import (
    CustomCommand,
    ExpandedPrompt,
    expand,
    find_command,
    load_commands,
)

__all__ = [
    "AgentDefinition",
    "CustomCommand",
    "ExpandedPrompt",
    "expand",
    "find_agent",
    "find_command",
    "load_agents",
    "load_commands",
]
