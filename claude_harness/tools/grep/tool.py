"""The Grep tool: ripgrep content search with three output modes and head_limit/offset paging."""

from __future__ import annotations

import time
from typing import Any

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import Progress, ToolInput, ToolResult, build_tool, load_prompt
from claude_harness.tools.grep import format as fmt
from claude_harness.tools.grep.args import OutputMode, build_rg_args, uses_context
from claude_harness.tools.grep.paths import (
    absolute,
    existing_search_root,
    newest_first,
    rg_path_arg,
)
from claude_harness.tools.grep.presentation import PRESENTATION
from claude_harness.tools.grep.protect import Protection, protection
from claude_harness.tools.grep.ripgrep import (
    RgOutput,
    StopAt,
    raise_for_failure,
    run_rg,
    search_timeout_seconds,
    timeout_note,
)


class GrepInput(ToolInput):
    pattern: str = Field(description="Regular expression (ripgrep / Rust regex syntax) to search for")
    path: str | None = Field(
        None, description="File or directory to search in; defaults to the current working directory"
    )
    glob: str | None = Field(
        None,
        description='Only search files matching this glob, e.g. "*.py" or "*.{ts,tsx}"; '
        "several globs may be separated by commas or spaces",
    )
    type: str | None = Field(
        None, description='ripgrep file type to search, e.g. "py", "js", "rust" (rg --type)'
    )
    output_mode: OutputMode = Field(
        "files_with_matches",
        description='"files_with_matches" (default): paths of matching files, newest first; '
        '"content": matching lines; "count": matches per file',
    )
    A: int | None = Field(None, alias="-A", ge=0, description="Lines after each match (content mode)")
    B: int | None = Field(None, alias="-B", ge=0, description="Lines before each match (content mode)")
    C: int | None = Field(
        None, alias="-C", ge=0, description="Lines before and after each match (content mode)"
    )
    context: int | None = Field(None, ge=0, description="Same as -C")
    n: bool = Field(True, alias="-n", description="Show line numbers (content mode); default true")
    i: bool = Field(False, alias="-i", description="Case-insensitive search")
    o: bool = Field(False, alias="-o", description="Show only the matched part of lines (content mode)")
    head_limit: int | None = Field(
        None,
        ge=0,
        description="Show at most this many entries (lines, files or count rows); "
        "default 250, 0 means no limit",
    )
    offset: int = Field(0, ge=0, description="Skip this many entries first (use with head_limit to page)")
    multiline: bool = Field(
        False, description="Let patterns span lines; `.` also matches newlines (rg -U --multiline-dotall)"
    )


# Content output beyond this many bytes is far more than anyone pages through: instead of
# collecting (and sorting) all of it, search again in path order and stop at the page.
FULL_READ_MAX_BYTES = 4 << 20


async def _call(inp: GrepInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    cwd = ctx.cwd
    path_arg = rg_path_arg(existing_search_root(inp.path, cwd), cwd)
    guard = protection("Grep", ctx.permission, cwd)
    if inp.output_mode == "content":
        return ToolResult(data=await _content(inp, ctx, path_arg, progress, guard))
    out = await run_rg(
        build_rg_args(inp, path_arg, excludes=guard.rg_globs()),
        cwd=cwd,
        abort=ctx.abort,
        on_lines=lambda n: progress({"matches": n}),
        count_byte=b"\0" if inp.output_mode == "files_with_matches" else b"\n",
    )
    raise_for_failure(out)
    if inp.output_mode == "files_with_matches":
        paths = newest_first(guard.keep(fmt.split_null(out.stdout)), cwd)
        text = fmt.format_files(paths, fmt.paginate(len(paths), inp.head_limit, inp.offset))
    else:
        counts = [c for c in fmt.parse_counts(out.stdout) if not guard.rules
                  or not guard.excludes(c[0])]
        text = fmt.format_counts(counts, fmt.paginate(len(counts), inp.head_limit, inp.offset))
    return ToolResult(data=_with_timeout_note(text, out))


def _with_timeout_note(text: str, out: RgOutput) -> str:
    note = timeout_note(out)
    return f"{text}\n{note}" if note else text


async def _content(
    inp: GrepInput, ctx: ToolUseContext, path_arg: str | None, progress: Progress,
    guard: Protection,
) -> str:
    """Content mode in up to two passes.

    Pass 1 runs rg at full (parallel) speed and sorts the per-file blocks by path. If the output
    grows past FULL_READ_MAX_BYTES, pass 2 reruns rg in path order and stops as soon as the
    requested page is covered: a broad pattern on a big tree then costs milliseconds, not the
    seconds (and memory) of collecting everything. Which pass serves a query does not depend on
    offset or head_limit, so the pages of one query always come from the same ordering.
    """
    limit = fmt.applied_limit(inp.head_limit)
    deadline = time.monotonic() + search_timeout_seconds()  # both passes share one budget
    first = await run_rg(
        build_rg_args(inp, path_arg, excludes=guard.rg_globs()),
        cwd=ctx.cwd,
        abort=ctx.abort,
        on_lines=lambda n: progress({"matches": n}),
        stop=None if limit is None else StopAt(max_bytes=FULL_READ_MAX_BYTES),
        timeout=deadline - time.monotonic(),
    )
    if first.complete:
        raise_for_failure(first)
        return _format_content(inp, guard.keep_blocks(fmt.split_blocks(first.stdout)),
                               complete=True)
    if first.timed_out:  # a second pass would time out again: show this
        text = _format_content(inp, guard.keep_blocks(fmt.split_blocks(first.stdout)),
                               complete=False)
        return _with_timeout_note(text, first)
    # Every output line costs at least one newline, every block at most one more: twice the
    # lines needed (one past the page, to know whether more exist) always covers the page.
    assert limit is not None
    needed = inp.offset + limit + 1
    second = await run_rg(
        build_rg_args(inp, path_arg, sort_by_path=True, excludes=guard.rg_globs()),
        cwd=ctx.cwd,
        abort=ctx.abort,
        stop=StopAt(max_newlines=2 * needed),
        timeout=max(0.1, deadline - time.monotonic()),
    )
    raise_for_failure(second)
    blocks = guard.keep_blocks(fmt.split_blocks(second.stdout, presorted=True))
    return _with_timeout_note(_format_content(inp, blocks, complete=second.complete), second)


def _format_content(inp: GrepInput, blocks: list[bytes], *, complete: bool) -> str:
    separate = uses_context(inp)
    total = fmt.total_content_lines(blocks, separate)
    page = fmt.paginate(total, inp.head_limit, inp.offset, more=not complete)
    return fmt.format_content(blocks, page, numbers=inp.n, separate_files=separate)


def _backfill(inp: GrepInput, ctx: ToolUseContext) -> dict[str, Any]:
    return {"path": str(absolute(inp.path, ctx.cwd))}


TOOL = build_tool(
    name="Grep",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=GrepInput,
    call=_call,
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    backfill_input=_backfill,
    permission_subject=lambda inp: inp.path or ".",
    key_argument=lambda inp: inp.pattern,
    to_classifier_input=lambda inp: f"{inp.pattern} in {inp.path or '.'}",
    search_hint="search file contents regex ripgrep",
    max_result_size_chars=20_000,
)
