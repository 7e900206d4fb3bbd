"""Side by side with Claude Code on the 5-turn spine scenario (Read → Grep+Glob → Bash → Edit →
answer, scripted API server on 127.0.0.1), runs interleaved on one machine:

  ours, first   the very first run: no warm process, no cached parser tables (as after
                installing or rebooting); it starts the warm process when it is done
  ours, warm    later runs, handed to the warm process
  ours, cold    CLAUDE_HARNESS_NO_DAEMON=1 (tables cached), as with the warm start turned off
  Claude Code   /opt/cc/node_modules/.bin/claude (or --claude PATH), same scenario, same server

Prints, each next to Claude Code's from the same run: start → first request (median; the
first run alone), whole run wall time, the Bash turn's overhead minus the Read turn's (the first
Bash check's cost), peak RSS (for a warm run: the forked child's, which counts every page it
shares with the warm process), and the per-turn overhead (mean of the four tool turns).

The warm process runs in a private runtime directory of this benchmark and is stopped at the
end; the user's own warm process (if any) is never used. Needs no farm-bench.

Usage: python scripts/bench_vs_claude_code.py [-n 7] [--claude PATH]
"""

from __future__ import annotations

import argparse
import ast
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_spine import TOOL_OF_TURN, make_project, turns  # noqa: E402

from claude_harness.testing.mock_api import MockApiServer  # noqa: E402

OURS = Path(sys.executable).with_name("claude-harness")
CLAUDE_CODE = Path("/opt/cc/node_modules/.bin/claude")
ARGS = ["-p", "tidy", "--output-format", "stream-json", "--verbose", "--allowedTools", "Edit"]


def one_run(program: list[str], extra_env: dict[str, str], stats: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        proj = make_project(workdir)
        home = workdir / "home"
        home.mkdir()
        with MockApiServer({"turns": turns(proj)}) as server:
            env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
                   "CLAUDE_HARNESS_DATA_DIR": str(home / "data"), "ANTHROPIC_API_KEY": "bench",
                   "ANTHROPIC_BASE_URL": server.url,
                   "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
                   **extra_env}
            if stats is not None:
                stats.unlink(missing_ok=True)
                env["CLAUDE_HARNESS_WARM_STATS"] = str(stats)
            with (workdir / "out").open("wb") as out, (workdir / "err").open("wb") as err:
                start = time.time()
                proc = subprocess.Popen([*program, *ARGS], cwd=proj, env=env, stdout=out,
                                        stderr=err, stdin=subprocess.DEVNULL)
                _pid, status, usage = os.wait4(proc.pid, 0)
                wall = time.time() - start
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"{program[0]} failed: {(workdir / 'err').read_text()[-2000:]}")
            log = server.log
    requests = [e for e in log if e["event"] == "request"]
    ends = [e for e in log if e["event"] == "response_end"]
    overhead = {TOOL_OF_TURN[i]: requests[i + 1]["t"] - ends[i]["t"] for i in range(4)}
    rss_kb = usage.ru_maxrss
    warm = stats is not None and stats.exists()
    if warm:
        rss_kb = ast.literal_eval(stats.read_text())["maxrss_kb"]
    return {"first_request": requests[0]["t"] - start, "overhead": overhead, "wall": wall,
            "rss_mb": rss_kb / 1024, "client_rss_mb": usage.ru_maxrss / 1024, "warm": warm}


def wait_for_server(runtime: Path, timeout: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if list(runtime.glob("*.sock")):
            return True
        time.sleep(0.1)
    return False


def stop_servers(runtime: Path) -> None:
    for lock in runtime.glob("*.lock"):
        try:
            os.kill(int(lock.read_text() or 0), signal.SIGTERM)
        except (ValueError, OSError):
            pass


def median(runs: list[dict], key: Any) -> float:
    return statistics.median(key(r) for r in runs)


def row(label: str, ours: float, theirs: float, unit: str, scale: float = 1.0) -> str:
    ratio = f"{ours / theirs:5.2f}x" if theirs else "   - "
    return f"{label:<34}{ours * scale:9.1f}{unit}   {theirs * scale:9.1f}{unit}   {ratio}"


def report(first: dict, warm: list[dict], cold: list[dict], cc: list[dict]) -> None:
    ms = 1000
    print(f"{'':<34}{'ours':>12}   {'Claude Code':>12}   ours/CC")
    print(row("start → first request, warm (med)", median(warm, lambda r: r["first_request"]),
              median(cc, lambda r: r["first_request"]), " ms", ms))
    print(row("start → first request, cold (med)", median(cold, lambda r: r["first_request"]),
              median(cc, lambda r: r["first_request"]), " ms", ms))
    print(row("start → first request, very first", first["first_request"],
              cc[0]["first_request"], " ms", ms))
    print(row("whole run, warm (median)", median(warm, lambda r: r["wall"]),
              median(cc, lambda r: r["wall"]), " ms", ms))
    print(row("whole run, cold (median)", median(cold, lambda r: r["wall"]),
              median(cc, lambda r: r["wall"]), " ms", ms))
    print(row("whole run, very first", first["wall"], cc[0]["wall"], " ms", ms))
    bash_vs_read = [lambda r: r["overhead"]["Bash"] - r["overhead"]["Read"]][0]
    print(row("Bash turn − Read turn, warm", median(warm, bash_vs_read),
              median(cc, bash_vs_read), " ms", ms))
    print(row("Bash turn − Read turn, cold", median(cold, bash_vs_read),
              median(cc, bash_vs_read), " ms", ms))
    per_turn = [lambda r: statistics.mean(r["overhead"].values())][0]
    print(row("per-turn overhead, warm (mean)", median(warm, per_turn), median(cc, per_turn),
              " ms", ms))
    print(row("per-turn overhead, cold (mean)", median(cold, per_turn), median(cc, per_turn),
              " ms", ms))
    for tool in TOOL_OF_TURN:
        print(row(f"  overhead {tool}, warm", median(warm, lambda r, t=tool: r["overhead"][t]),
                  median(cc, lambda r, t=tool: r["overhead"][t]), " ms", ms))
    print(row("peak RSS, warm child", median(warm, lambda r: r["rss_mb"]),
              median(cc, lambda r: r["rss_mb"]), " MB"))
    print(row("peak RSS, thin client", median(warm, lambda r: r["client_rss_mb"]),
              median(cc, lambda r: r["rss_mb"]), " MB"))
    print(row("peak RSS, cold", median(cold, lambda r: r["rss_mb"]),
              median(cc, lambda r: r["rss_mb"]), " MB"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=7, help="rounds (each: warm, cold, CC)")
    parser.add_argument("--claude", type=Path, default=CLAUDE_CODE)
    args = parser.parse_args()
    if not args.claude.exists():
        raise SystemExit(f"Claude Code not found at {args.claude} (see --claude)")
    with tempfile.TemporaryDirectory() as tmp:
        runtime, cache, stats = Path(tmp) / "runtime", Path(tmp) / "cache", Path(tmp) / "stats"
        runtime.mkdir(mode=0o700)
        ours_env = {"CLAUDE_HARNESS_RUNTIME_DIR": str(runtime),
                    "CLAUDE_HARNESS_CACHE_DIR": str(cache)}
        ours_env_os = {k: v for k, v in os.environ.items() if k != "CLAUDE_HARNESS_NO_DAEMON"}
        os.environ.clear()
        os.environ.update(ours_env_os)
        try:
            cc = [one_run([str(args.claude)], {})]  # Claude Code's first run, for the row
            first = one_run([str(OURS)], ours_env, stats)
            if first["warm"] or not wait_for_server(runtime):
                raise SystemExit("the first run did not start the warm process")
            warm, cold = [], []
            for _ in range(args.n):
                warm.append(one_run([str(OURS)], ours_env, stats))
                cold.append(one_run([str(OURS)], {**ours_env, "CLAUDE_HARNESS_NO_DAEMON": "1"}))
                cc.append(one_run([str(args.claude)], {}))
            if not all(r["warm"] for r in warm):
                print(f"note: {sum(not r['warm'] for r in warm)} 'warm' runs ran cold")
        finally:
            stop_servers(runtime)
    print(f"{args.n} interleaved rounds of Read → Grep+Glob → Bash → Edit → answer "
          f"(load average {os.getloadavg()[0]:.1f})")
    report(first, warm, cold, cc[1:] if len(cc) > 1 else cc)


if __name__ == "__main__":
    main()
