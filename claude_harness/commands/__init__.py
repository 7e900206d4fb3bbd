"""User-defined prompt files: custom slash commands (`.claude/commands/`), skills
(`.claude/skills/<name>/SKILL.md`) and sub-agent definitions (`.claude/agents/`), all Markdown
with a YAML front matter, plus the ones plugins bring. `load_catalog()` loads them all at once
with a report of what was skipped."""

from claude_harness.commands.agents import AgentDefinition, find_agent, load_agents
from claude_harness.commands.catalog import Catalog, catalog_for, load_catalog
from claude_harness.commands.custom import CustomCommand, find_command, load_commands
from claude_harness.commands.expansion import ExpandedPrompt, expand, run_inline_commands

__all__ = [
    "AgentDefinition",
    "Catalog",
    "CustomCommand",
    "ExpandedPrompt",
    "catalog_for",
    "expand",
    "find_agent",
    "find_command",
    "load_agents",
    "load_catalog",
    "load_commands",
    "run_inline_commands",
]
