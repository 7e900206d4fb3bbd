"""Benchmark the Grep and Glob tools against raw ripgrep on a 50,000-file tree.

Targets: the Grep tool's wall time under 1.3x the same search run as a bare `rg` process, and
Glob `**/*.py` under 1 s. The tree is generated once and cached under /tmp (delete it to rebuild).

    python scripts/bench_search.py [--runs 5] [--tree /tmp/claude_harness_bench_tree]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.tools.glob import TOOL as GLOB
from claude_harness.tools.grep import TOOL as GREP
from claude_harness.tools.grep.args import build_rg_args
from claude_harness.tools.grep.ripgrep import find_rg

FILES = 50_000
NEEDLE = "needle_token"  # in 2,000 of the 50,000 files
BROAD = "alpha"  # on most lines of every file: 50,000 files, ~1M lines, ~54 MB of rg output
_DONE = ".bench-complete"


def build_tree(root: Path, files: int = FILES) -> None:
    """50 top dirs x 20 sub dirs x 50 files; every 25th file mentions the needle (2,000 files)."""
    if (root / _DONE).exists():
        return
    rng = random.Random(42)
    words = ["alpha", "beta", "gamma", "delta", "value", "result", "config", "handler"]
    per_dir = 50
    for index in range(files):
        top, rest = divmod(index, per_dir * 20)
        sub = rest // per_dir
        ext = ".py" if index % 2 == 0 else ".txt"
        path = root / f"pkg{top:02}" / f"mod{sub:02}" / f"file{index:05}{ext}"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [" ".join(rng.choices(words, k=8)) for _ in range(30)]
        if index % 25 == 0:
            lines[rng.randrange(30)] += f" {NEEDLE}"
        path.write_text("\n".join(lines) + "\n")
    (root / _DONE).write_text("ok\n")


def make_ctx(cwd: Path) -> ToolUseContext:
    return ToolUseContext(
        options=ToolUseOptions(),
        permission=PermissionContext(cwd=cwd),
        abort=AbortSignal(),
        read_file_state=FileStateCache(),
        shell=ShellState(cwd),
    )


@dataclass(frozen=True)
class Timing:
    median: float
    best: float


def median_times(fns: dict[str, Callable[[], Any]], runs: int) -> dict[str, Timing]:
    """Median (and best) wall time of each function, run round-robin so that load from other
    processes hits every contender alike (a busy 2-core box is noisy); one warm-up round first."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: Timing(statistics.median(ts), min(ts)) for name, ts in times.items()}


def raw_rg(args: list[str], cwd: Path) -> Callable[[], Any]:
    cmd = [find_rg(), *args]
    return lambda: subprocess.run(cmd, cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL)


def tool_runner(
    loop: asyncio.AbstractEventLoop, tool: Any, ctx: ToolUseContext, **kw: Any
) -> Callable[[], Any]:
    inp = tool.input_model.model_validate(kw)

    def run() -> Any:
        call: Awaitable[Any] = tool.call(inp, ctx, lambda _: None)
        return loop.run_until_complete(call)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path, default=Path("/tmp/claude_harness_bench_tree"))
    parser.add_argument(
        "--broad", action="store_true", help=f"also time a pattern ({BROAD!r}) matching everywhere"
    )
    opts = parser.parse_args()
    started = time.perf_counter()
    build_tree(opts.tree)
    print(f"tree: {opts.tree} ({FILES} files, ready in {time.perf_counter() - started:.1f}s)")
    ctx = make_ctx(opts.tree)
    loop = asyncio.new_event_loop()
    rows = []
    cases = [(NEEDLE, "files_with_matches"), (NEEDLE, "content")]
    if opts.broad:
        cases += [(BROAD, "files_with_matches"), (BROAD, "content")]
    for pattern, mode in cases:
        kw = {"pattern": pattern, "output_mode": mode}
        same = build_rg_args(GREP.input_model.model_validate(kw), None)
        plain = ["-l", pattern] if mode == "files_with_matches" else ["-n", pattern]
        got = median_times(
            {
                "tool": tool_runner(loop, GREP, ctx, **kw),
                "same": raw_rg(same, opts.tree),
                "plain": raw_rg(plain, opts.tree),
            },
            opts.runs,
        )
        rows.append((f"Grep {mode} {pattern}", got["tool"], got["same"], got["plain"]))
    got = median_times(
        {
            "glob": tool_runner(loop, GLOB, ctx, pattern="**/*.py"),
            "files": raw_rg(["--files", "--glob", "*.py"], opts.tree),
        },
        opts.runs,
    )
    glob_t, files_t = got["glob"], got["files"]
    loop.close()

    print(f"median of {opts.runs} runs, best run in brackets (seconds)")
    print(f"{'case':40} {'tool':>15} {'rg, same args':>15} {'ratio':>11} {'rg, plain':>15}")
    for name, tool_t, same_t, plain_t in rows:
        print(
            f"{name:40} {_pair(tool_t)} {_pair(same_t)} "
            f"{tool_t.median / same_t.median:5.2f} [{tool_t.best / same_t.best:4.2f}] "
            f"{_pair(plain_t)}"
        )
    print(f"{'Glob **/*.py':40} {_pair(glob_t)} {'':15} {'':11} {_pair(files_t)} (rg --files)")
    print("targets: Grep tool <= 1.3x raw rg; Glob < 1 s")


def _pair(t: Timing) -> str:
    return f"{t.median:6.3f} [{t.best:6.3f}]"


if __name__ == "__main__":
    main()
