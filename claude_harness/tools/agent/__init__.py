"""The Agent tool (alias Task): a sub-agent running its own query loop."""

from claude_harness.tools.agent.tool import TOOL

__all__ = ["TOOL"]
