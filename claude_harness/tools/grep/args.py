"""Translate a Grep input into ripgrep arguments.

Two choices here are deliberate:
- Hidden files are searched (--hidden) but version-control metadata never is (VCS_EXCLUDES).
- A positive `--glob` in rg overrides .gitignore (a gitignored `debug.log` would be searched for
  glob `*.log`). A glob without a slash only looks at the file name, which is exactly what an rg
  *type* does, and types are applied after .gitignore. So such globs become an ad-hoc type; only
  globs with a path part (`src/**/*.ts`) and negations (`!*.min.js`) go through `--glob`.
"""

from __future__ import annotations

from typing import Literal, Protocol

from claude_harness.tools.grep.ignore_files import ignore_args
from claude_harness.tools.grep.ripgrep import VCS_EXCLUDES

OutputMode = Literal["content", "files_with_matches", "count"]
MAX_COLUMNS = 500
_GLOB_TYPE = "harnessglob"


class GrepOptions(Protocol):
    pattern: str
    glob: str | None
    type: str | None
    output_mode: OutputMode
    A: int | None
    B: int | None
    C: int | None
    context: int | None
    n: bool
    i: bool
    o: bool
    multiline: bool


def split_globs(spec: str) -> list[str]:
    """`"*.ts, *.tsx"` or `"*.ts *.tsx"` -> two globs; a brace group `*.{ts,tsx}` stays whole."""
    globs: list[str] = []
    for word in spec.split():
        if "{" in word and "}" in word:
            globs.append(word)
        else:
            globs.extend(part for part in word.split(",") if part)
    return globs


def filter_args(spec: str | None, rg_type: str | None) -> list[str]:
    args: list[str] = []
    if rg_type:
        args += ["--type", rg_type]
    name_globs: list[str] = []
    for glob in split_globs(spec or ""):
        if glob.startswith("!") or "/" in glob:
            args += ["--glob", glob]
        else:
            name_globs.append(glob)
    for glob in name_globs:
        args += ["--type-add", f"{_GLOB_TYPE}:{glob}"]
    if name_globs:
        args += ["--type", _GLOB_TYPE]
    return args


def context_args(opts: GrepOptions) -> list[str]:
    around = opts.context if opts.context is not None else opts.C
    if around is not None:
        return ["-C", str(around)]
    args: list[str] = []
    if opts.A is not None:
        args += ["-A", str(opts.A)]
    if opts.B is not None:
        args += ["-B", str(opts.B)]
    return args


def uses_context(opts: GrepOptions) -> bool:
    return any(v for v in (opts.context, opts.C, opts.A, opts.B))


def mode_args(opts: GrepOptions) -> list[str]:
    if opts.output_mode == "files_with_matches":
        return ["--files-with-matches", "--null"]
    if opts.output_mode == "count":
        return ["--count", "--null"]
    # Content: always ask for line numbers and file headings; the formatter drops the numbers
    # when -n is false. Headings let us split the output into per-file blocks without touching
    # each line, and numbers make every content line non-empty so a blank line is a separator.
    args = ["--heading", "--null", "--line-number", "--max-columns", str(MAX_COLUMNS)]
    args += ["--max-columns-preview", *context_args(opts)]
    if opts.o:
        args.append("--only-matching")
    return args


def build_rg_args(
    opts: GrepOptions, search_path: str | None, *, sort_by_path: bool = False,
    excludes: list[str] | None = None,
) -> list[str]:
    """Every argument after `rg`; `search_path` None means the cwd rg runs in.

    `sort_by_path` makes rg emit files in path order (single-threaded, so slower for a full
    scan, but a caller may stop reading as soon as it has the page it needs)."""
    args = ["--no-config", "--color", "never", "--hidden", *VCS_EXCLUDES, *ignore_args()]
    if sort_by_path:
        args += ["--sort", "path"]
    if opts.i:
        args.append("--ignore-case")
    if opts.multiline:
        args += ["--multiline", "--multiline-dotall"]
    args += mode_args(opts)
    args += filter_args(opts.glob, opts.type)
    args += excludes or []  # `--glob !name` for files the permission rules protect
    args += ["--regexp", opts.pattern]
    if search_path is not None:
        args += ["--", search_path]
    return args
