"""Turn a command or skill plus what the person typed into the prompt sent to the model.

Substitutions, as Claude Code 2.1.332 fills them (observed by running it):
  $ARGUMENTS            everything typed after the name, as typed
  $N, $ARGUMENTS[N]     the N-th argument, 0-based (`$0` is the first); arguments split
                        shell-style, so "two three" is one; one not given stays as written
  $name                 a positional argument named in `arguments:`
  ${CLAUDE_SESSION_ID}  the session id; ${CLAUDE_PROJECT_DIR} the project folder
  ${CLAUDE_SKILL_DIR}   a skill's folder (left as written in a command)
When the body uses no argument form and arguments were given, `\\n\\nARGUMENTS: <args>` is
appended so they are never lost. A skill's text starts with `Base directory for this skill: DIR`.

Then, for the session to do (each through its own callback, so permissions stay the session's):
  !`cmd`   run through the Bash permission chain with the command's allowed-tools; the output
           replaces the span (`run_inline_commands`)
  @path    an existing file attached as if the model had read it (`mentions.attach_mentions`,
           the same reader as a person's `@` mentions)
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claude_harness.commands.custom import CustomCommand

SKILL_HEADER = "Base directory for this skill: {dir}\n\n"


@dataclass(frozen=True)
class ExpandedPrompt:
    """What to send as the person's turn, and what the command pre-approves for it."""

    text: str
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    name: str = ""
    args: str = ""

    def blocks(self) -> list[dict[str, Any]]:
        """The user message content as Claude Code sends it: a `<command-name>` block naming the
        command and its arguments, then the expanded text."""
        tag = (f"<command-message>{self.name}</command-message>\n"
               f"<command-name>/{self.name}</command-name>\n")
        if self.args:
            tag += f"<command-args>{self.args}</command-args>\n"
        return [{"type": "text", "text": tag}, {"type": "text", "text": self.text}]


def split_arguments(args: str) -> list[str]:
    """Shell-style split (quotes group words); unbalanced quotes fall back to white space."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


_PLACEHOLDER = re.compile(
    r"\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)"
    r"|\$\{(CLAUDE_SESSION_ID|CLAUDE_PROJECT_DIR|CLAUDE_SKILL_DIR)\}"
    r"|\$([A-Za-z_][A-Za-z0-9_-]*)"
)


def substitute(
    body: str,
    args: str,
    *,
    argument_names: tuple[str, ...] = (),
    session_id: str = "",
    project_dir: Path | None = None,
    skill_dir: Path | None = None,
) -> str:
    """The body with the arguments substituted in one pass (an argument's text is never
    expanded again)."""
    words = split_arguments(args)
    named = {n: i for i, n in enumerate(argument_names)}
    used = False

    def positional(index: int, written: str) -> str:
        return words[index] if index < len(words) else written

    def sub(match: re.Match[str]) -> str:
        nonlocal used
        index, digits, env_name, word = match.groups()
        if index is not None or digits is not None:
            used = True
            return positional(int(index if index is not None else digits), match.group(0))
        if env_name == "CLAUDE_SESSION_ID":
            return session_id
        if env_name == "CLAUDE_PROJECT_DIR":
            return str(project_dir or Path.cwd())
        if env_name == "CLAUDE_SKILL_DIR":
            return str(skill_dir) if skill_dir is not None else match.group(0)
        if word is not None:
            if word in named:
                used = True
                return positional(named[word], match.group(0))
            return match.group(0)
        used = True  # $ARGUMENTS
        return args

    text = _PLACEHOLDER.sub(sub, body)
    if args and not used:
        text = f"{text}\n\nARGUMENTS: {args}"
    return text


def expand(
    command: CustomCommand,
    args: str = "",
    *,
    session_id: str = "",
    project_dir: Path | None = None,
) -> ExpandedPrompt:
    """The command's (or skill's) prompt for `/name args`; `!` and `@` are the session's."""
    args = args.strip()
    text = substitute(command.body, args, argument_names=command.argument_names,
                      session_id=session_id, project_dir=project_dir,
                      skill_dir=command.base_dir)
    if command.kind == "skill" and command.base_dir is not None:
        text = SKILL_HEADER.format(dir=command.base_dir) + text
    return ExpandedPrompt(text=text, allowed_tools=command.allowed_tools, model=command.model,
                          name=command.name, args=args)


# ------------------------------------------------------------------ !`cmd`

_INLINE = re.compile(r"!`([^`\n]+)`")

InlineRunner = Callable[[str], Awaitable[str]]


def inline_commands(text: str) -> list[str]:
    """The `!`cmd`` spans of a prompt, in order."""
    return [m.group(1).strip() for m in _INLINE.finditer(text)]


async def run_inline_commands(text: str, run: InlineRunner) -> str:
    """Replace each !`cmd` by what `run(cmd)` returns.

    `run` is the session's: it must put the command through the Bash permission chain with the
    command's `allowed-tools` pre-approved and return the output (or the refusal as text), so a
    prompt file can never run what the person's rules would not allow.
    """
    parts: list[str] = []
    last = 0
    for match in _INLINE.finditer(text):
        parts.append(text[last:match.start()])
        parts.append(await run(match.group(1).strip()))
        last = match.end()
    parts.append(text[last:])
    return "".join(parts)
