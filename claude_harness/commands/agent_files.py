"""`/agents create` and `/agents edit`: a project agent file written from a few answers, or the
file of an existing agent, for the person's $EDITOR. The file is the usual
`.claude/agents/<name>.md` (front matter, then the system prompt), so it loads like any other,
from the next session on (the listing the model sees is fixed for a session).
"""

from __future__ import annotations

import re
from pathlib import Path

from claude_harness.fsutil import atomic_write_text

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$")
PROMPT_PLACEHOLDER = ("You are a specialised sub-agent. Describe here what you do, how you work "
                      "and what your final report must contain.")


class AgentFileError(ValueError):
    """The answers cannot make an agent file (the message says why)."""


def agent_path(cwd: Path, name: str, scope: str = "project") -> Path:
    """Where `/agents create NAME` writes: `.claude/agents/<name>.md` of the project, or of
    the user's config folder (`~/.claude/agents/`) for scope "user"; spaces become dashes."""
    from claude_harness.commands.agents import user_agents_dir

    folder = user_agents_dir() if scope == "user" else Path(cwd) / ".claude" / "agents"
    return folder / (re.sub(r"\s+", "-", name.strip()) + ".md")


def agent_text(name: str, description: str, *, tools: list[str] | None = None,
               model: str | None = None, color: str | None = None, prompt: str = "") -> str:
    """The file's text: YAML front matter written by a YAML writer (quotes where needed)."""
    fields: dict[str, object] = {"name": name, "description": description}
    if tools:
        fields["tools"] = ", ".join(tools)
    if model:
        fields["model"] = model
    if color:
        fields["color"] = color
    import yaml  # only when an agent file is written: PyYAML costs start time

    front = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{front}---\n\n{(prompt or PROMPT_PLACEHOLDER).strip()}\n"


def create_agent(cwd: Path, name: str, description: str, *, scope: str = "project",
                 **fields: object) -> Path:
    """Write a new agent (project or user scope); refuses a bad name, an empty description
    or an existing file (edit that one instead)."""
    name = name.strip()
    if not NAME.match(name):
        raise AgentFileError(f"{name!r} is not an agent name: use letters, digits, spaces, "
                             "dots, dashes or underscores (up to 64)")
    if not description.strip():
        raise AgentFileError("an agent needs a description: it tells the model when to use it")
    path = agent_path(cwd, name, scope)
    if path.exists():
        raise AgentFileError(f"{path} exists already; use /agents edit {name}")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, agent_text(name, description.strip(), **fields))  # type: ignore[arg-type]
    return path


def delete_agent(path: Path) -> None:
    """Remove an agent's file (only a project or user agent has one to remove)."""
    Path(path).unlink()


def agent_command(cwd: Path, args: str) -> tuple[str, str, Path | None]:
    """`/agents create <name> <description>` or `/agents edit <name>`: (message, level, the
    file to open in $EDITOR or None). The front end opens the editor."""
    verb, _, rest = args.strip().partition(" ")
    rest = rest.strip()
    if verb in ("create", "new"):
        name, _, description = rest.partition(" ")
        try:
            path = create_agent(cwd, name, description)
        except AgentFileError as exc:
            return f"Cannot create the agent: {exc}.", "error", None
        return (f"Created {path}: write its system prompt there. It is offered from the next "
                "session.", "info", path)
    from claude_harness.commands.catalog import catalog_for  # the session's catalog

    agent = catalog_for(cwd).find_agent(rest)
    if agent is None or agent.path is None:
        return (f"No agent {rest!r} with a file of its own (built-in and --agents ones have "
                "none).", "error", None)
    return f"Editing {agent.path}; changes apply from the next session.", "info", agent.path
