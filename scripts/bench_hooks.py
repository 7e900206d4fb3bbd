"""Measure what one no-op PreToolUse hook adds to a tool call.

Runs HookRunner.run over a hook that does nothing (`true`) and over a tiny sh script printing
`{}`, ~50 times each after a warm-up, and prints median / min / max in milliseconds. The budget
is 30 ms median on a 2-core machine: the hook sits on the path of every tool call.

    /work/venv/bin/python scripts/bench_hooks.py [--runs 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from claude_harness.hooks import HookConfig, HookRunner

PAYLOAD = {"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "tool_use_id": "toolu_bench"}
BUDGET_MS = 30.0


def make_runner(project: Path, command: str) -> HookRunner:
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]
    }
    config = HookConfig.from_sources([("userSettings", None, hooks)])
    return HookRunner(
        config,
        project_dir=project,
        session_id="bench",
        transcript_path=str(project / "transcript.jsonl"),
        get_permission_mode=lambda: "default",
    )


async def measure(runner: HookRunner, runs: int) -> list[float]:
    for _ in range(3):  # warm-up: first spawn pays for imports and page cache
        await runner.run("PreToolUse", PAYLOAD)
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        outcome = await runner.run("PreToolUse", PAYLOAD)
        samples.append((time.perf_counter() - started) * 1000)
        if outcome.errors or outcome.results[0].exit_code != 0:
            raise SystemExit(f"hook failed during the benchmark: {outcome.errors}")
    return samples


async def main(runs: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        script = project / "noop.sh"
        script.write_text("#!/bin/sh\necho '{}'\n")
        script.chmod(0o755)
        cases = {"true": "true", "sh script printing {}": str(script)}
        worst = 0.0
        for name, command in cases.items():
            samples = await measure(make_runner(project, command), runs)
            median = statistics.median(samples)
            worst = max(worst, median)
            print(
                f"{name:<24} runs={runs}  median={median:.2f} ms  "
                f"min={min(samples):.2f} ms  max={max(samples):.2f} ms"
            )
        verdict = "OK" if worst < BUDGET_MS else "OVER BUDGET"
        print(f"budget {BUDGET_MS:.0f} ms median: {verdict}")
        return 0 if worst < BUDGET_MS else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    raise SystemExit(asyncio.run(main(parser.parse_args().runs)))
