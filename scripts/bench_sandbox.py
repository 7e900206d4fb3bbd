"""Benchmark what the sandbox adds to one Bash command: bubblewrap start-up (and the network relay).

Runs `true` N times through the real spawning path (ShellProcess, the guardian) four ways and
prints the median and p90 wall time from spawn to exit:
  plain           no sandbox
  sandboxed       bwrap: read-only root, project writable, protected paths, PID/net namespaces
  sandboxed+net   the same with allowed domains: the proxy relay (socat) starts and is waited for
The sandbox's own cost is the difference with `plain` (budget: under 15 ms per command).

Usage: python scripts/bench_sandbox.py [-n 40]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from claude_harness.guardian import client as guardian
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.sandbox.availability import check_availability
from claude_harness.sandbox.runtime import SandboxRuntime
from claude_harness.sandbox.settings import SandboxSettings
from claude_harness.tools.bash.capture import StreamCapture
from claude_harness.tools.bash.process import ShellProcess


def time_command(project: Path, prefix: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = ShellProcess("true", project, StreamCapture(), StreamCapture(), argv_prefix=prefix)
        if not proc.wait_finished(30):
            raise SystemExit("a command did not finish")
        times.append(time.perf_counter() - start)
    return times


def prefix_for(runtime: SandboxRuntime | None, project: Path) -> tuple[list[str], float]:
    """The wrapper and how long computing it took (stat calls for protected paths)."""
    if runtime is None:
        return [], 0.0
    runtime.wrap(PermissionContext(cwd=project), project)  # once: bwrap's trial run, the proxy
    start = time.perf_counter()
    prefix, _ = runtime.wrap(PermissionContext(cwd=project), project)
    return prefix, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=40)
    args = parser.parse_args()
    available = check_availability()
    if not available.available:
        raise SystemExit(f"no sandbox here: {available.reason}")
    guardian.start_guarded()
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "proj"
        (project / "src").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        temp = Path(tmp) / "sandbox-tmp"
        temp.mkdir()
        cases = {
            "plain": None,
            "sandboxed": SandboxRuntime(SandboxSettings(enabled=True), temp),
            "sandboxed+net": SandboxRuntime(SandboxSettings(enabled=True,
                                                            allowed_domains=["localhost"]), temp),
        }
        results = {}
        for name, runtime in cases.items():
            prefix, planning = prefix_for(runtime, project)
            time_command(project, prefix, 3)  # warm-up: page cache, the proxy's first start
            times = time_command(project, prefix, args.n)
            results[name] = (times, planning)
            if runtime is not None:
                runtime.close()
    base = statistics.median(results["plain"][0])
    print(f"sandbox benchmark: {args.n} runs of `true` per case (spawn to exit)")
    for name, (times, planning) in results.items():
        median = statistics.median(times)
        p90 = sorted(times)[int(len(times) * 0.9) - 1]
        extra = "" if name == "plain" else f"   sandbox cost {1000 * (median - base):6.1f} ms"
        print(f"{name:<14} median {1000 * median:6.1f} ms   p90 {1000 * p90:6.1f} ms"
              f"   wrapper built in {1000 * planning:5.2f} ms{extra}")


if __name__ == "__main__":
    main()
