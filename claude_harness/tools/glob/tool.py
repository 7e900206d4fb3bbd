"""The Glob tool: find files by path pattern, newest first, at most 100.

ripgrep does the walking (parallel, .gitignore-aware, VCS folders skipped) and, when the last
segment of the pattern is a plain file-name glob, the first cut by name; the full pattern is
then checked in Python with one compiled regex, and only the survivors are stat'ed for sorting.
Files a `Read` deny or ask rule protects are left out of the listing (tools/grep/protect.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
)
from claude_harness.tools.glob.pattern import basename_glob, compile_glob, split_literal_prefix
from claude_harness.tools.glob.presentation import PRESENTATION
from claude_harness.tools.grep.ignore_files import ignore_args
from claude_harness.tools.grep.paths import absolute, newest_first, rg_path_arg
from claude_harness.tools.grep.protect import protection
from claude_harness.tools.grep.ripgrep import (
    VCS_EXCLUDES,
    raise_for_failure,
    run_rg,
    timeout_note,
)

MAX_RESULTS = 100
_NAME_TYPE = "harnessglob"


class GlobInput(ToolInput):
    pattern: str = Field(
        min_length=1,
        description='Glob to match file paths against, e.g. "**/*.py", "src/**/*.{ts,tsx}", "*.md"'
    )
    path: str | None = Field(
        None,
        description="Directory to search in; defaults to the current working directory. "
        "Omit it rather than passing null or an empty string.",
    )


def _search_root(inp: GlobInput, cwd: Path) -> Path:
    """The `path` directory, checked: a missing or non-directory path is the model's mistake."""
    if "\0" in inp.pattern or (inp.path and "\0" in inp.path):
        raise ToolError("Pattern and path may not contain NUL bytes", code="invalid_input")
    root = absolute(inp.path, cwd)
    if not root.exists():
        raise ToolError(f"Directory does not exist: {root}", code="path_not_found")
    if not root.is_dir():
        raise ToolError(f"Path is not a directory: {root}", code="not_a_directory")
    return root


def effective_base(inp: GlobInput, cwd: Path) -> Path:
    """Where the search really starts: `path` joined with the pattern's literal directory part.

    This, not `path` alone, is what permission rules must see: `/etc/*.conf` or `../x/*` reach
    outside the working directory without any `path`.
    """
    base = split_literal_prefix(inp.pattern).base
    root = absolute(inp.path, cwd)
    return Path(os.path.normpath(root / base)) if base else root


def _rg_args(rest: str, path_arg: str | None, excludes: list[str]) -> list[str]:
    args = ["--no-config", "--files", "--null", "--hidden", *VCS_EXCLUDES, *ignore_args(),
            *excludes]
    name = basename_glob(rest)
    if name is not None:
        args += ["--type-add", f"{_NAME_TYPE}:{name}", "--type", _NAME_TYPE]
    if path_arg is not None:
        args += ["--", path_arg]
    return args


async def _call(inp: GlobInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    cwd = ctx.cwd
    _search_root(inp, cwd)  # the given path must exist; the pattern's own part need not
    split = split_literal_prefix(inp.pattern)
    base = effective_base(inp, cwd)
    if not base.is_dir():
        return ToolResult(data="No files found")
    path_arg = rg_path_arg(base, cwd)
    guard = protection("Glob", ctx.permission, cwd)  # files Read deny/ask rules protect
    out = await run_rg(_rg_args(split.rest, path_arg, guard.rg_globs()), cwd=cwd,
                       abort=ctx.abort)
    raise_for_failure(out)
    matches = guard.keep(_matching(out.stdout, split.rest, path_arg))
    text = _format(newest_first(matches, cwd))
    note = timeout_note(out)  # a huge tree: partial results, said so
    return ToolResult(data=f"{text}\n{note}" if note else text)


def _matching(stdout: bytes, rest: str, path_arg: str | None) -> list[str]:
    """Paths (as rg printed them) whose part below the base fullmatches the pattern."""
    prefix = "" if path_arg is None else path_arg.rstrip("/") + "/"
    cut = len(prefix)
    match = compile_glob(rest).fullmatch
    listed = stdout.decode("utf-8", "surrogateescape").split("\0")
    return [p for p in listed if p and match(p[cut:])]


def _display(path: str) -> str:
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _format(paths: list[str]) -> str:
    if not paths:
        return "No files found"
    shown = "\n".join(_display(p) for p in paths[:MAX_RESULTS])
    if len(paths) <= MAX_RESULTS:
        return shown
    return (
        f"{shown}\n(Results are truncated: showing the {MAX_RESULTS} most recently modified of "
        f"{len(paths)} matching files. Use a more specific pattern or path to see the others.)"
    )


def _backfill(inp: GlobInput, ctx: ToolUseContext) -> dict[str, Any]:
    return {"path": str(effective_base(inp, ctx.cwd))}


TOOL = build_tool(
    name="Glob",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=GlobInput,
    call=_call,
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    backfill_input=_backfill,
    permission_subject=lambda inp: inp.path or ".",
    key_argument=lambda inp: inp.pattern,
    to_classifier_input=lambda inp: f"{inp.pattern} in {inp.path or '.'}",
    search_hint="find files by name pattern glob",
)
