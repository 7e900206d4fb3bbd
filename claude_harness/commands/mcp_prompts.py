"""MCP prompts as slash commands, as the front ends list them.

A connected server's prompt `review` on server `github` is the command
`/mcp__github__review ARGS`. The session knows the prompts (it reports them as
`McpPromptsChanged`; a front end keeps them in its SessionView) and runs the command: typed, it
reaches the session as `RunCommand`, like any name the built-in table does not have. This
module gives /help and completion their rows.
"""

from __future__ import annotations

from collections.abc import Iterable

from claude_harness.protocol.events import McpPromptInfo


def prompt_rows(prompts: Iterable[McpPromptInfo], prefix: str = "") -> list[tuple[str, str]]:
    """(`/name`, description) of the prompts whose name starts with `prefix`."""
    return [(f"/{p.name}", p.description) for p in prompts if p.name.startswith(prefix)]


def prompt_help_lines(prompts: Iterable[McpPromptInfo]) -> list[str]:
    """`/mcp__srv__review <file> [focus] — description`, one per prompt."""
    lines = []
    for prompt in prompts:
        usage = f"/{prompt.name} {prompt.argument_hint}".rstrip()
        lines.append(f"{usage} — {prompt.description}")
    return lines
