"""The system prompt: who the assistant is, how to use the tools, the environment, memory.

Rendered once per session and kept byte-identical afterwards: it sits at the front of the prompt
cache, so nothing here may change per turn (no clock times, no random ids). Modes and reminders
travel as messages instead.
"""

from __future__ import annotations

import platform
from pathlib import Path

BASE_PROMPT = """\
You are an interactive coding agent running in the user's terminal, in their repository. You \
help with software engineering work: reading and explaining code, fixing bugs, adding features, \
refactoring, running tests and commands.

How to work:
- Use the dedicated tools rather than shell equivalents: Read to read files (not cat/head), Grep \
to search contents (not grep/rg), Glob to find files by name (not find/ls), Edit to change a \
file (not sed), Write only to create a file or replace one wholesale. Use Bash for builds, \
tests, git and other commands.
- Read a file before you edit it. Make the smallest change that does the job and keep the \
file's style.
- When several independent lookups are needed, call the tools in parallel in one response.
- A tool result marked as an error explains what went wrong: read it and adapt rather than \
repeating the same call.
- Permission to run a tool may be refused. Then do not try to get around the refusal; ask the \
user or choose another way.
- Be concise. Report what you did and what you found; say plainly when something failed.
"""


def environment_section(cwd: Path, model: str, additional_dirs: tuple[Path, ...] = ()) -> str:
    is_git = any((p / ".git").exists() for p in (cwd, *cwd.parents))
    lines = [
        "<env>",
        f"Working directory: {cwd}",
        f"Is the directory a git repository: {'yes' if is_git else 'no'}",
        f"Platform: {platform.system().lower()}",
        f"Model: {model}",
    ]
    if additional_dirs:
        lines.append("Additional working directories: " + ", ".join(map(str, additional_dirs)))
    lines.append("</env>")
    return "\n".join(lines)


GIT_INSTRUCTIONS = """\
Working with git:
- Commit, push or open a pull request only when the user asks for it. On the repository's \
default branch, create a branch first.
- Before committing, look at `git status` and `git diff` and write a message that says why \
the change was made, in the repository's own style. Stage files by name rather than `git add -A`.
- Never commit files that likely hold secrets (.env, credentials, .claude/settings.local.json); \
warn the user if they ask for it.
- Interactive git commands (`git rebase -i`, `git add -i`) cannot be used here. Use the `gh` \
command for GitHub work (pull requests, issues).
- Never change the git configuration, skip hooks (--no-verify) or force-push unless the user \
asks for exactly that."""


def language_section(language: str | None) -> str:
    """The `language` setting: the model answers in that language (Claude Code adds a section
    to its system prompt)."""
    if not language or not language.strip():
        return ""
    name = " ".join(language.split())
    return (f"# Language\nAlways respond in {name}. Use {name} for all explanations, comments "
            "and messages to the user; technical terms and code identifiers stay as they are. "
            f"Write {name} with its full orthography, accents and special characters included.")


def render_system_prompt(
    cwd: Path,
    model: str,
    *,
    memory: str = "",
    override: str | None = None,
    append: str | None = None,
    additional_dirs: tuple[Path, ...] = (),
    git_snapshot: str | None = None,
    git_instructions: bool = False,
    language: str | None = None,
) -> str:
    """The system prompt, in a fixed order: base (or --system-prompt), git instructions, the
    environment and the git snapshot, the language, memory, then what is appended."""
    parts = [override if override is not None else BASE_PROMPT,
             GIT_INSTRUCTIONS if git_instructions and override is None else "",
             environment_section(cwd, model, additional_dirs),
             git_snapshot or "", language_section(language)]
    if memory:
        parts.append(
            "Instructions from the user's memory files (CLAUDE.md). Follow them; they override "
            "default behaviour:\n" + memory
        )
    if append:
        parts.append(append)
    return "\n\n".join(p.strip() for p in parts if p and p.strip())
