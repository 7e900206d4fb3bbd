"""The Bash tool: shell commands in a fresh /bin/bash per call, with a persistent cwd."""

from claude_harness.tools.bash.tool import TOOL

__all__ = ["TOOL"]
