"""Benchmark: the Read tool on a 200 MB text file must be fast and use bounded memory.

Read's result is exempt from the result budget, so it must limit itself at the source by
streaming; this script shows that it does. It writes a 200 MB file (in chunks, so writing it
does not inflate the memory figures), then runs Read's call directly (plain asyncio, no
server) and prints wall time, the peak-RSS increase during the call, and the result size.

Scenarios: a default whole-file read (the target: under 1 s, memory bounded), a read far into
the file with offset, and a file that is one 200 MB line.

Usage: python scripts/bench_read.py [--size-mb 200] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.tools.read import TOOL, ReadInput

LINE = "the quick brown fox jumps over the lazy dog; " * 2  # 90 chars + line number


def make_ctx(cwd: Path) -> ToolUseContext:
    return ToolUseContext(
        options=ToolUseOptions(),
        permission=PermissionContext(cwd=cwd),
        abort=AbortSignal(),
        read_file_state=FileStateCache(),
        shell=ShellState(cwd),
    )


def write_lines_file(path: Path, size: int) -> int:
    """~size bytes of numbered text lines; returns the line count."""
    written = lines = 0
    with open(path, "w", encoding="utf-8") as handle:
        while written < size:
            block = "".join(f"{lines + i + 1:08d} {LINE}\n" for i in range(10_000))
            handle.write(block)
            written += len(block)
            lines += 10_000
    return lines


def write_one_line_file(path: Path, size: int) -> None:
    chunk = b"x" * (1 << 20)
    with open(path, "wb") as handle:
        for _ in range(size >> 20):
            handle.write(chunk)


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for row in status:
                if row.startswith(field + ":"):
                    return int(row.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    """Reset the kernel's peak-RSS mark (VmHWM) so the next peak is the call's own."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def measure(ctx: ToolUseContext, **kw: object) -> tuple[float, int, str | list]:
    """Wall seconds, peak-RSS increase in KB, and the result of one Read call."""
    before = _status_kb("VmRSS") or 0
    precise = _reset_peak()
    start_maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    result = asyncio.run(TOOL.call(ReadInput(**kw), ctx, lambda _: None))
    elapsed = time.perf_counter() - t0
    if precise:
        delta = (_status_kb("VmHWM") or before) - before
    else:
        delta = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start_maxrss
    return elapsed, max(delta, 0), result.data


def report(name: str, elapsed: float, delta_kb: int, data: str | list) -> None:
    size = len(data) if isinstance(data, str) else sum(len(str(b)) for b in data)
    tail = data.rsplit("\n", 1)[-1] if isinstance(data, str) else ""
    print(f"{name}")
    print(f"  wall time        {elapsed * 1000:8.1f} ms")
    print(f"  peak RSS delta   {delta_kb / 1024:8.1f} MB")
    print(f"  result size      {size:8d} chars")
    print(f"  result ends with {tail[:110]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size-mb", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep the temporary files")
    args = parser.parse_args()
    size = args.size_mb << 20
    workdir = Path(tempfile.mkdtemp(prefix="bench_read_"))
    try:
        ctx = make_ctx(workdir)
        lines_file = workdir / "big.txt"
        lines = write_lines_file(lines_file, size)
        actual = lines_file.stat().st_size
        print(f"file: {lines_file} ({actual / (1 << 20):.0f} MB, {lines} lines)")

        report("default read (no offset/limit)", *measure(ctx, file_path=str(lines_file)))
        report(
            "read near the end (offset, limit=50)",
            *measure(ctx, file_path=str(lines_file), offset=lines - 100, limit=50),
        )
        lines_file.unlink()

        one_line = workdir / "oneline.txt"
        write_one_line_file(one_line, size)
        report("single 200 MB line", *measure(ctx, file_path=str(one_line)))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"kept {workdir}")
    print(f"python {sys.version.split()[0]}, pid {os.getpid()}")


if __name__ == "__main__":
    main()
