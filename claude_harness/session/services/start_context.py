"""What the start of a session takes from Claude Code's flags and settings, beyond the basics:
the git snapshot and instructions (`includeGitInstructions`), `language`, `claudeMdExcludes`,
`--max-thinking-tokens`, `--agent`, `--betas` and `-n/--name`.

bootstrap.build_session calls these; each is small so the start-up path stays readable.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from claude_harness.agent.git_context import GitSnapshot, git_instructions_enabled, start_snapshot
from claude_harness.api.models import THINKING_ALWAYS_ON, spec_for


@dataclass(frozen=True)
class PromptContext:
    """The system prompt's parts that come from the settings."""

    git_instructions: bool
    language: str | None
    claude_md_excludes: tuple[str, ...]


def prompt_context(loaded: Any) -> PromptContext:
    language = loaded.value("language")
    return PromptContext(
        git_instructions=git_instructions_enabled(loaded.value("includeGitInstructions")),
        language=language if isinstance(language, str) and language.strip() else None,
        claude_md_excludes=claude_md_excludes(loaded),
    )


def claude_md_excludes(loaded: Any) -> tuple[str, ...]:
    """`claudeMdExcludes` of every settings source together (an array setting adds up)."""
    patterns: list[str] = []
    for src in getattr(loaded, "sources", ()):
        value = src.settings.model_dump(exclude_unset=True).get("claudeMdExcludes")
        if isinstance(value, list):
            patterns += [p for p in value if isinstance(p, str) and p.strip()]
    return tuple(dict.fromkeys(patterns))


def begin_git_snapshot(cwd: Path, context: PromptContext) -> GitSnapshot | None:
    """Started before the slow parts of start-up, so it is ready when the prompt is drawn."""
    return start_snapshot(cwd, context.git_instructions)


def with_thinking_flag(settings: Any, tokens: int | None, model: str) -> Any:
    """`--max-thinking-tokens N`: the budget for models that take one; 0 turns thinking off,
    except on the models whose thinking cannot be turned off (Claude Code 2.1.332 then still
    sends adaptive thinking). The flag outranks MAX_THINKING_TOKENS and the settings."""
    if tokens is None:
        return settings
    if tokens == 0 and spec_for(model).family in THINKING_ALWAYS_ON:
        return replace(settings, thinking=True, thinking_budget=None)
    if tokens == 0:
        return replace(settings, thinking=False, thinking_budget=None)
    return replace(settings, thinking=True, thinking_budget=tokens)


class UnknownAgent(ValueError):
    """`--agent NAME` names no agent the catalog knows."""


def main_agent(catalog: Any, name: str | None) -> Any:
    """The agent definition `--agent NAME` starts the session as (None without the flag)."""
    if not name:
        return None
    agent = catalog.find_agent(name)
    if agent is None:
        known = ", ".join(a.name for a in catalog.agent_list())
        raise UnknownAgent(f"--agent '{name}' not found. Available agents: {known}")
    return agent


def agent_tools(tools: tuple[Any, ...], agent: Any) -> tuple[Any, ...]:
    """The built-in pool narrowed to what the agent's definition allows."""
    if agent is None:
        return tools
    return tuple(t for t in tools if agent.allows_tool(t.name))


def agent_model(agent: Any, flag_model: str | None) -> str | None:
    """The agent's `model` (unless `inherit`); `--model` still wins."""
    if agent is None or flag_model or not agent.model or agent.model == "inherit":
        return None
    return str(agent.model)


def name_session(session: Any, title: str | None) -> None:
    """`-n/--name`: the session's title, written as /rename writes it (Claude Code's
    `custom-title` line), so /resume and `-r` show and find it."""
    transcript = getattr(session, "transcript", None)
    if title and transcript is not None:
        transcript.append_metadata("custom-title", customTitle=title)
