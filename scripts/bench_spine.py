"""Benchmark the spine: the scripted Read → Grep+Glob → Bash → Edit → answer session, run N times
through the real binary (`-p --output-format stream-json`) against the scripted API server.

Prints median and min-max of:
  start → first request   process spawn to the server receiving the first request
  per-turn overhead       server wrote message_stop → the next request arrived, per tool
  total wall              spawn to exit
  peak RSS                of the harness process (ru_maxrss via wait4)

Usage: python scripts/bench_spine.py [-n 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from claude_harness.testing.mock_api import MockApiServer

TOOL_OF_TURN = ["Read", "Grep+Glob", "Bash", "Edit"]


def make_project(root: Path) -> Path:
    proj = root / "proj"
    (proj / "src").mkdir(parents=True)
    for i in range(20):
        (proj / "src" / f"mod{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n" * 20)
    (proj / "src" / "app.py").write_text("def greet(name):\n    return 'hello ' + name\n")
    return proj


def turns(proj: Path) -> list[dict]:
    app = str(proj / "src" / "app.py")
    return [
        {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": app}}]},
        {"content": [{"type": "tool_use", "name": "Grep", "input": {"pattern": "return"}},
                     {"type": "tool_use", "name": "Glob", "input": {"pattern": "**/*.py"}}]},
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "ls src | wc -l"}}]},
        {"content": [{"type": "tool_use", "name": "Edit",
                      "input": {"file_path": app, "old_string": "'hello ' + name",
                                "new_string": "f'hello {name}'"}}]},
        {"content": [{"type": "text", "text": "Done."}]},
    ]


def one_run(workdir: Path) -> dict:
    proj = make_project(workdir)
    home = workdir / "home"
    home.mkdir()
    with MockApiServer({"turns": turns(proj)}) as server:
        env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
               "CLAUDE_HARNESS_DATA_DIR": str(home / "data"), "ANTHROPIC_API_KEY": "bench",
               "ANTHROPIC_BASE_URL": server.url,
               # a cold start every run, as this benchmark has always measured (the warm
               # start is measured by bench_vs_claude_code.py)
               "CLAUDE_HARNESS_NO_DAEMON": "1"}
        out_path, err_path = workdir / "out.txt", workdir / "err.txt"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            start = time.time()
            proc = subprocess.Popen(
                [sys.executable, "-m", "claude_harness", "-p", "tidy", "--output-format",
                 "stream-json", "--allowedTools", "Edit"],
                cwd=proj, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
            )
            _pid, status, usage = os.wait4(proc.pid, 0)  # reap ourselves: we want its rusage
            proc.returncode = os.waitstatus_to_exitcode(status)
            wall = time.time() - start
        if proc.returncode != 0:
            raise SystemExit(f"run failed: {err_path.read_text()[-2000:]}")
        log = server.log
    requests = [e for e in log if e["event"] == "request"]
    ends = [e for e in log if e["event"] == "response_end"]
    overhead = {TOOL_OF_TURN[i]: requests[i + 1]["t"] - ends[i]["t"] for i in range(4)}
    return {"first_request": requests[0]["t"] - start, "overhead": overhead, "wall": wall,
            "rss_mb": usage.ru_maxrss / 1024}


def fmt(values: list[float], scale: float = 1.0, unit: str = "") -> str:
    vals = [v * scale for v in values]
    return (f"median {statistics.median(vals):8.1f}{unit}   "
            f"min {min(vals):8.1f}{unit}   max {max(vals):8.1f}{unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=7)
    args = parser.parse_args()
    runs = []
    for i in range(args.n + 1):  # one warm-up run (page cache, .pyc)
        with tempfile.TemporaryDirectory() as tmp:
            result = one_run(Path(tmp))
        if i:
            runs.append(result)
    print(f"spine benchmark: {args.n} runs of Read → Grep+Glob → Bash → Edit → answer")
    print(f"start → first request : {fmt([r['first_request'] for r in runs], 1000, ' ms')}")
    per_tool: dict[str, list[float]] = defaultdict(list)
    for r in runs:
        for tool, value in r["overhead"].items():
            per_tool[tool].append(value)
    for tool, values in per_tool.items():
        print(f"overhead {tool:<13}: {fmt(values, 1000, ' ms')}")
    print(f"total wall            : {fmt([r['wall'] for r in runs], 1000, ' ms')}")
    print(f"peak RSS              : {fmt([r['rss_mb'] for r in runs], 1, ' MB')}")


if __name__ == "__main__":
    main()
