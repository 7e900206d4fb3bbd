"""Custom slash commands: Markdown prompt files the user types as `/name args`.

Where they come from (a name found in several places: the first wins):
  project  `.claude/commands/` in the cwd, then in each parent up to the repository root
  user     `$CLAUDE_CONFIG_DIR/commands/` or `~/.claude/commands/`
A file in a subfolder is namespaced by it: `.claude/commands/frontend/component.md` is
`/frontend:component`.

Front matter: `description` (else the body's first line), `argument-hint`, `allowed-tools`
(rules pre-approved while this command's prompt runs), `model`, `arguments` (names for positional
arguments), `disable-model-invocation`.

Substitutions in the body, as in Claude Code 2.1 (arguments split shell-style, 0-based):
  $ARGUMENTS            everything typed after the command name
  $ARGUMENTS[N], $N     the N-th argument (0 = the first); one that was not given stays as written
  $name                 a positional argument named in `arguments:`
  ${CLAUDE_SESSION_ID}, ${CLAUDE_PROJECT_DIR}
When the body uses none of the argument forms and arguments were given, they are appended as
`ARGUMENTS: ...` so they are never silently lost.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from claude_harness.commands.frontmatter import parse_front_matter

Scope = Literal["project", "user"]
DESCRIPTION_MAX = 100


@dataclass(frozen=True)
class CustomCommand:
    name: str  # "review" or "frontend:component" (typed as /name)
    path: Path
    scope: Scope
    description: str
    body: str
    argument_hint: str = ""
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    argument_names: tuple[str, ...] = ()
    disable_model_invocation: bool = False
    warnings: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class ExpandedPrompt:
    """What to send as the user's turn, and what the command pre-approves for it."""

    text: str
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None


def user_commands_dir() -> Path:
    from claude_harness.config.paths import user_config_dir

    return user_config_dir() / "commands"


def project_roots(cwd: Path) -> list[Path]:
    """cwd and its parents up to the repository root (nearest first); only cwd outside a repo."""
    cwd = Path(cwd)
    chain = [cwd, *cwd.parents]
    for index, folder in enumerate(chain):
        if (folder / ".git").exists():
            return chain[: index + 1]
    return [cwd]


def command_dirs(cwd: Path) -> list[tuple[Path, Scope]]:
    dirs: list[tuple[Path, Scope]] = [(r / ".claude" / "commands", "project")
                                      for r in project_roots(cwd)]
    dirs.append((user_commands_dir(), "user"))
    return dirs


def command_name(path: Path, folder: Path) -> str:
    return ":".join(path.relative_to(folder).with_suffix("").parts)


def parse_command(path: Path, name: str, scope: Scope) -> CustomCommand:
    """One command file; unreadable files raise OSError/UnicodeDecodeError for the caller."""
    fm = parse_front_matter(path.read_text(encoding="utf-8"))
    description = fm.text("description").strip() or _first_line(fm.body)
    return CustomCommand(
        name=name,
        path=path,
        scope=scope,
        description=description,
        body=fm.body,
        argument_hint=fm.text("argument-hint").strip(),
        allowed_tools=tuple(fm.items("allowed-tools") or ()),
        model=fm.text("model").strip() or None,
        argument_names=tuple(fm.items("arguments") or ()),
        disable_model_invocation=fm.flag("disable-model-invocation"),
        warnings=tuple(f"{path}: {w}" for w in fm.warnings),
    )


def _first_line(body: str) -> str:
    for line in body.splitlines():
        text = line.strip().lstrip("#").strip()
        if text:
            return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1] + "…"
    return ""


def load_commands(cwd: Path, warnings: list[str] | None = None) -> list[CustomCommand]:
    """Every custom command visible from `cwd`, sorted by name. Problems with single files
    (unreadable, not UTF-8, odd front matter) go to `warnings` and skip only that file."""
    found: dict[str, CustomCommand] = {}
    notes: list[str] = []
    for folder, scope in command_dirs(Path(cwd)):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.md")):
            if not path.is_file():
                continue
            name = command_name(path, folder)
            if name in found:
                continue  # a nearer project folder (or the project over the user) wins
            try:
                command = parse_command(path, name, scope)
            except (OSError, UnicodeDecodeError) as exc:
                notes.append(f"Could not read command {path}: {exc}")
                continue
            notes.extend(command.warnings)
            found[name] = command
    if warnings is not None:
        warnings.extend(notes)
    return [found[n] for n in sorted(found)]


def find_command(commands: Iterable[CustomCommand], name: str) -> CustomCommand | None:
    return next((c for c in commands if c.name == name), None)


def split_arguments(args: str) -> list[str]:
    """Shell-style split (quotes group words); unbalanced quotes fall back to white space."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


_PLACEHOLDER = re.compile(
    r"\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)|\$\{(CLAUDE_SESSION_ID|CLAUDE_PROJECT_DIR)\}"
    r"|\$([A-Za-z_][A-Za-z0-9_-]*)"
)


def expand(
    command: CustomCommand,
    args: str = "",
    *,
    session_id: str = "",
    project_dir: Path | None = None,
) -> ExpandedPrompt:
    """The command's prompt with the arguments substituted (in one pass: text that came from
    an argument is never expanded again)."""
    args = args.strip()
    words = split_arguments(args)
    named = {n: i for i, n in enumerate(command.argument_names)}
    used = False

    def positional(index: int, written: str) -> str:
        return words[index] if index < len(words) else written

    def sub(match: re.Match[str]) -> str:
        nonlocal used
        index, digits, env_name, word = match.groups()
        if index is not None:
            used = True
            return positional(int(index), match.group(0))
        if digits is not None:
            used = True
            return positional(int(digits), match.group(0))
        if env_name == "CLAUDE_SESSION_ID":
            return session_id
        if env_name == "CLAUDE_PROJECT_DIR":
            return str(project_dir or Path.cwd())
        if word is not None:
            if word in named:
                used = True
                return positional(named[word], match.group(0))
            return match.group(0)
        used = True  # $ARGUMENTS
        return args

    text = _PLACEHOLDER.sub(sub, command.body)
    if args and not used:
        text = f"{text.rstrip()}\n\nARGUMENTS: {args}"
    return ExpandedPrompt(text=text, allowed_tools=command.allowed_tools, model=command.model)
