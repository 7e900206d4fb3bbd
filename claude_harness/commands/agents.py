"""Custom sub-agent definitions: `.claude/agents/**/*.md` files offered as `subagent_type`.

    ---
    name: code-reviewer                    required: lowercase letters, digits, `-`, `_`
    description: Reviews diffs for bugs    required: tells the model when to delegate
    tools: Read, Grep, Glob                optional allowlist (string or YAML list);
                                           omitted or `*` = every tool the parent has
    disallowedTools: Bash                  optional denylist
    model: haiku                           sonnet / opus / haiku / an id; `inherit` or omitted
                                           = the parent's model
    ---
    You are a careful reviewer...          the body is the agent's system prompt

Where they come from (a name found in several places: the first wins): `.claude/agents/` in the
cwd and each parent up to the repository root (nearest first), then `$CLAUDE_CONFIG_DIR/agents`
or `~/.claude/agents`. A file that lacks a name or description is skipped with a warning rather
than guessed at: the description is what the model delegates by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from claude_harness.commands.custom import project_roots
from claude_harness.commands.frontmatter import parse_front_matter

Scope = Literal["project", "user"]
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class AgentDefinition:
    name: str
    description: str
    system_prompt: str
    path: Path
    scope: Scope
    tools: tuple[str, ...] | None = None  # None = inherit the parent's tools
    disallowed_tools: tuple[str, ...] = ()
    model: str | None = None  # None = inherit the parent's model
    permission_mode: str | None = None
    max_turns: int | None = None
    color: str | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)


def user_agents_dir() -> Path:
    from claude_harness.config.paths import user_config_dir

    return user_config_dir() / "agents"


def agent_dirs(cwd: Path) -> list[tuple[Path, Scope]]:
    dirs: list[tuple[Path, Scope]] = [(r / ".claude" / "agents", "project")
                                      for r in project_roots(Path(cwd))]
    dirs.append((user_agents_dir(), "user"))
    return dirs


class AgentFileError(ValueError):
    """A definition that cannot be used (the message says why)."""


def parse_agent(path: Path, scope: Scope) -> AgentDefinition:
    fm = parse_front_matter(path.read_text(encoding="utf-8"))
    name = fm.text("name").strip()
    description = fm.text("description").strip()
    if not name:
        raise AgentFileError(f"{path}: missing `name` in the front matter")
    if not _NAME.match(name):
        raise AgentFileError(f"{path}: agent name {name!r} must be lowercase letters, digits, "
                             "`-` or `_`")
    if not description:
        raise AgentFileError(f"{path}: missing `description` in the front matter")
    tools = fm.items("tools")
    if tools is not None and (not tools or tools == ["*"]):
        tools = None
    model = fm.text("model").strip() or None
    if model == "inherit":
        model = None
    return AgentDefinition(
        name=name,
        description=description,
        system_prompt=fm.body.strip(),
        path=path,
        scope=scope,
        tools=tuple(tools) if tools is not None else None,
        disallowed_tools=tuple(fm.items("disallowedTools") or ()),
        model=model,
        permission_mode=fm.text("permissionMode").strip() or None,
        max_turns=_int(fm.text("maxTurns")),
        color=fm.text("color").strip() or None,
        warnings=tuple(f"{path}: {w}" for w in fm.warnings),
    )


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def load_agents(cwd: Path, warnings: list[str] | None = None) -> list[AgentDefinition]:
    """Every custom agent visible from `cwd`, sorted by name; unusable files are skipped and
    described in `warnings`."""
    found: dict[str, AgentDefinition] = {}
    notes: list[str] = []
    for folder, scope in agent_dirs(Path(cwd)):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.md")):
            if not path.is_file():
                continue
            try:
                agent = parse_agent(path, scope)
            except (OSError, UnicodeDecodeError, AgentFileError) as exc:
                notes.append(str(exc) if isinstance(exc, AgentFileError)
                             else f"Could not read agent {path}: {exc}")
                continue
            notes.extend(agent.warnings)
            if agent.name in found:
                if found[agent.name].path.parent.is_relative_to(folder):
                    notes.append(f"{path}: agent {agent.name!r} is also defined in "
                                 f"{found[agent.name].path}; that one is used")
                continue
            found[agent.name] = agent
    if warnings is not None:
        warnings.extend(notes)
    return [found[n] for n in sorted(found)]


def find_agent(agents: list[AgentDefinition], name: str) -> AgentDefinition | None:
    return next((a for a in agents if a.name == name), None)
