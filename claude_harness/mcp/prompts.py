"""MCP prompts as slash commands: `/mcp__<server>__<prompt> ARG ARG ...`.

Each prompt a connected server lists becomes an `McpPromptCommand`: its name, description and
argument names for the command registry and completion, and `render(args)` that asks the server
for the prompt (`prompts/get`) and returns the content to submit as the user's message.

Arguments are positional, as in Claude Code: `/mcp__github__review 42 "be strict"` gives the
prompt's first argument "42" and its second "be strict" (quotes group words; words past the
last argument join the last one). A missing required argument is a clear error before anything
is sent.
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from claude_harness.mcp.connection import ServerGone
from claude_harness.mcp.content import convert_block
from claude_harness.mcp.names import mcp_name

Blocks = list[dict[str, Any]]


class PromptError(Exception):
    """The command cannot run: a missing argument, a server that refused or went away."""


@dataclass(frozen=True)
class PromptArgument:
    name: str
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class McpPromptCommand:
    """One server prompt as a command. `render` is bound to the server's connection."""

    name: str  # mcp__server__prompt (no slash)
    server: str
    prompt: str  # the server's own prompt name
    description: str
    arguments: tuple[PromptArgument, ...]
    fetch: Callable[[str, dict[str, str]], Awaitable[Any]]  # (prompt, args) -> GetPromptResult

    @property
    def argument_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.arguments)

    @property
    def argument_hint(self) -> str:
        """`<city> [state]`: required arguments in angle brackets, optional in square."""
        return " ".join(f"<{a.name}>" if a.required else f"[{a.name}]" for a in self.arguments)

    def bind(self, text: str) -> dict[str, str]:
        """The argument dict for the words typed after the command."""
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        names = self.argument_names
        if names and len(words) > len(names):
            words = [*words[: len(names) - 1], " ".join(words[len(names) - 1:])]
        values = dict(zip(names, words, strict=False))
        missing = [a.name for a in self.arguments if a.required and not values.get(a.name)]
        if missing:
            usage = f"/{self.name} {self.argument_hint}".strip()
            raise PromptError(f"Missing required argument{'s' if len(missing) > 1 else ''} "
                              f"{', '.join(missing)}. Usage: {usage}")
        return values

    async def render(self, text: str = "") -> Blocks:
        """Ask the server for the prompt; the content blocks to send as the user's message."""
        from mcp.shared.exceptions import MCPError

        args = self.bind(text)
        try:
            result = await self.fetch(self.prompt, args)
        except ServerGone as exc:
            raise PromptError(str(exc)) from exc
        except MCPError as exc:
            raise PromptError(f"MCP server '{self.server}' refused prompt {self.prompt}: "
                              f"{exc.message}") from exc
        return prompt_blocks(result, self.server)


def prompt_blocks(result: Any, server: str) -> Blocks:
    """Every message of a GetPromptResult, in order, as Messages API content blocks."""
    blocks: Blocks = []
    for message in result.messages:
        blocks.append(convert_block(message.content, server))
    return blocks or [{"type": "text", "text": "(the prompt is empty)"}]


def prompt_command_name(server: str, prompt: str) -> str:
    return mcp_name(server, prompt)


def build_prompt_commands(server: str, prompts: list[Any],
                          fetch: Callable[[str, dict[str, str]], Awaitable[Any]]
                          ) -> list[McpPromptCommand]:
    """Commands for the prompts a server listed (mcp_types.Prompt)."""
    commands = []
    for listed in prompts:
        arguments = tuple(PromptArgument(a.name, a.description or "", bool(a.required))
                          for a in (listed.arguments or []))
        description = (listed.description or getattr(listed, "title", None)
                       or f"Prompt {listed.name} from MCP server {server}")
        commands.append(McpPromptCommand(
            name=prompt_command_name(server, listed.name), server=server, prompt=listed.name,
            description=f"{description} (MCP)", arguments=arguments, fetch=fetch))
    return commands
