"""Benchmark whether a turn costs more as the session grows: a 2,000-turn scripted session.

The real binary (`-p --output-format stream-json`) runs a script of N tool turns (Read of a small
file and Bash `echo`, alternating) against the scripted API server in this process, then a final
answer. Per-turn harness overhead is measured from the server's side: the moment it finished
streaming one answer to the moment the next request's headers arrived (the harness has by then
run the tool, written the transcript, built and serialised the next request). The server keeps
no request bodies (`keep_bodies=False`) and does its parsing after the arrival is stamped, so
its own costs do not count; its prompt-cache accounting reuses what the previous request had,
so a 2,000-turn run takes minutes, not hours.

Each answer reports a small prompt size (unless --compaction), so auto-compaction never resets the
history: the point is to see what a turn costs as the history grows.

Prints the median and mean overhead of the first and last 100 turns and their ratio (target:
within 1.5x), every 250th turn's window, and the harness's peak RSS. With --profile, the harness
runs under cProfile and the functions with the most cumulative time are listed.

Usage: python scripts/bench_long_session.py [--turns 2000] [--profile] [--top 40] [--sort tottime]
"""

from __future__ import annotations

import argparse
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from claude_harness.testing import mock_api
from claude_harness.testing.mock_api import MockApiServer

WINDOW = 100


def make_turns(proj: Path, count: int, compaction: bool) -> list[dict[str, Any]]:
    """The script; unless `compaction`, each answer reports a small prompt size, so the history
    keeps growing instead of being compacted away at 85 % of the context window."""
    notes = str(proj / "notes.txt")
    small = {"input_tokens": 2_000, "cache_read_input_tokens": 0,
             "cache_creation_input_tokens": 0, "output_tokens": 50}
    usage = {} if compaction else {"usage": small}
    turns: list[dict[str, Any]] = []
    for i in range(count):
        if i % 2:
            call = {"type": "tool_use", "name": "Bash",
                    "input": {"command": f"echo turn {i}", "description": "Print a marker"}}
        else:
            call = {"type": "tool_use", "name": "Read", "input": {"file_path": notes}}
        turns.append({"content": [{"type": "text", "text": f"Step {i}."}, call], **usage})
    turns.append({"content": [{"type": "text", "text": "All done."}]})
    return turns


def instrument_server(arrivals: dict[int, float]) -> None:
    """Stamp each request when its headers arrive (before the server reads the body)."""
    original_post = mock_api._Handler.do_POST

    def do_post(handler: Any) -> None:
        arrivals[len(arrivals)] = time.time()
        original_post(handler)

    mock_api._Handler.do_POST = do_post  # type: ignore[method-assign]


def run(turn_count: int, profile_path: Path | None, compaction: bool
        ) -> tuple[list[float], float, float]:
    arrivals: dict[int, float] = {}
    instrument_server(arrivals)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        proj = root / "proj"
        proj.mkdir()
        (proj / "notes.txt").write_text("".join(f"line {i} of the notes\n" for i in range(20)))
        home = root / "home"
        home.mkdir()
        with MockApiServer({"turns": make_turns(proj, turn_count, compaction)},
                           keep_bodies=False) as server:
            env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
                   "CLAUDE_HARNESS_DATA_DIR": str(home / "data"), "ANTHROPIC_API_KEY": "bench",
                   "ANTHROPIC_BASE_URL": server.url,
                   # a cold start, as this benchmark has always measured: with the warm start
                   # a second run would be served warm and leave a warm process behind
                   "CLAUDE_HARNESS_NO_DAEMON": "1"}
            profiler = ["-m", "cProfile", "-o", str(profile_path)] if profile_path else []
            command = [sys.executable, *profiler, "-m", "claude_harness", "-p", "work",
                       "--output-format", "stream-json", "--verbose",
                       "--max-turns", str(turn_count + 5),
                       "--allowedTools", "Bash(echo *)", "Read"]
            with (root / "out.jsonl").open("wb") as out, (root / "err.txt").open("wb") as err:
                proc = subprocess.Popen(command, cwd=proj, env=env, stdout=out, stderr=err,
                                        stdin=subprocess.DEVNULL)
                _pid, status, usage = os.wait4(proc.pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"harness failed: {(root / 'err.txt').read_text()[-2000:]}")
            ends = sorted(e["t"] for e in server.log if e["event"] == "response_end")
            history_mb = sum(p.stat().st_size for p in (home / "data").rglob("*.jsonl")) / 2**20
    overheads = [arrivals[i + 1] - ends[i] for i in range(len(ends) - 1) if i + 1 in arrivals]
    return overheads, usage.ru_maxrss / 1024, history_mb


def summarize(overheads: list[float], rss_mb: float, history_mb: float) -> None:
    first, last = overheads[:WINDOW], overheads[-WINDOW:]
    print(f"long-session benchmark: {len(overheads)} turns measured")
    for label, window in (("first 100", first), ("last 100", last)):
        print(f"  {label:<10} median {1000 * statistics.median(window):7.1f} ms   "
              f"mean {1000 * statistics.fmean(window):7.1f} ms")
    ratio = statistics.median(last) / statistics.median(first)
    print(f"  last/first median ratio: {ratio:.2f} (target <= 1.5)")
    for start in range(0, len(overheads), 250):
        window = overheads[start:start + WINDOW]
        if window:
            print(f"  turns {start:>5}-{start + len(window) - 1:<5} median "
                  f"{1000 * statistics.median(window):7.1f} ms")
    print(f"  peak RSS of the harness: {rss_mb:.0f} MB (the history's transcript: "
          f"{history_mb:.1f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="run the harness under cProfile")
    parser.add_argument("--top", type=int, default=40, help="functions listed with --profile")
    parser.add_argument("--sort", default="cumulative",
                        help="profile order: cumulative, tottime... (with --profile)")
    parser.add_argument("--compaction", action="store_true",
                        help="let the server report real prompt sizes (auto-compaction runs)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        profile_path = Path(tmp) / "harness.prof" if args.profile else None
        overheads, rss_mb, history_mb = run(args.turns, profile_path, args.compaction)
        summarize(overheads, rss_mb, history_mb)
        if profile_path is not None:
            pstats.Stats(str(profile_path)).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
