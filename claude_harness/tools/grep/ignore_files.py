"""`respectGitignore` (Claude Code's setting, default true): whether Grep and Glob leave out
what .gitignore (and git's other exclude files) ignore. `.ignore` and `.rgignore` files are
always honoured, as Claude Code documents. Set once per session by bootstrap.
"""

from __future__ import annotations

_state = {"respect_gitignore": True}


def configure(respect_gitignore: bool) -> None:
    _state["respect_gitignore"] = respect_gitignore


def ignore_args() -> tuple[str, ...]:
    """Extra ripgrep arguments: `--no-ignore-vcs` when .gitignore is not to be respected."""
    return () if _state["respect_gitignore"] else ("--no-ignore-vcs",)


def respects_gitignore() -> bool:
    return _state["respect_gitignore"]
