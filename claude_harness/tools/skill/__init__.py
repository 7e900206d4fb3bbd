"""The Skill tool: the model loads a skill's (or custom command's) instructions by name."""

from claude_harness.tools.skill.tool import TOOL

__all__ = ["TOOL"]
