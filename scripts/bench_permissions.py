"""Benchmark the Bash permission decision: every corpus command through the resolver, as the
product decides it (`resolve_permission` with the real Bash tool, a ToolUseContext, settings
rules and a mode), in a fixture project that is a real git repository.

Prints, per configuration and overall, the number of decisions and the median, p90 and max
time of one decision (each command timed --repeat times, its fastest run kept, so a stray
scheduler pause on a shared machine does not count as the checker's cost).

The target: median under 2 ms.

Usage: python scripts/bench_permissions.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the corpora live in the test tree (tests/permissions/corpus): make the repository importable
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claude_harness.permissions.resolver import resolve_permission  # noqa: E402
from claude_harness.protocol.context import (  # noqa: E402
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext  # noqa: E402
from claude_harness.tools.bash import TOOL as BASH  # noqa: E402
from tests.permissions.corpus.catalog import ADVERSARIAL, EVERYDAY  # noqa: E402
from tests.permissions.perm_helpers import BROAD, make_project, rules  # noqa: E402

CONFIGS = {
    "default, no rules": dict(mode="default"),
    "default, broad allow rules": dict(mode="default", allow=BROAD),
    "default, deny rules": dict(mode="default", allow=BROAD,
                                deny=("Read(./.env)", "Read(~/.ssh/**)", "Bash(rm *)",
                                      "Bash(git push *)")),
    "bypassPermissions": dict(mode="bypassPermissions"),
}


def build_project(root: Path) -> Path:
    proj = make_project(root / "proj").resolve()
    (proj / ".env").write_text("SECRET=1\n")
    for i in range(200):
        (proj / "src" / f"mod{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    git = ["git", "-C", str(proj), "-c", "user.email=b@b", "-c", "user.name=b"]
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    subprocess.run([*git, "add", "src", "tests", "docs", "README.md"], check=True)
    subprocess.run([*git, "commit", "-qm", "bench"], check=True)
    return proj


def context(proj: Path, mode: str, allow: tuple[str, ...] = (),
            deny: tuple[str, ...] = ()) -> ToolUseContext:
    perm = PermissionContext(mode=mode, rules=rules("allow", *allow) + rules("deny", *deny),
                             cwd=proj)
    return ToolUseContext(options=ToolUseOptions(), permission=perm, abort=AbortSignal(),
                          read_file_state=FileStateCache(), shell=ShellState(proj))


async def decide_timed(command: str, ctx: ToolUseContext, repeat: int) -> float:
    inp = BASH.input_model.model_validate({"command": command})
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        await resolve_permission(BASH, inp, ctx)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"{label:32} n={len(times):5}  median {statistics.median(ordered):6.3f} ms  "
            f"p90 {p90:6.3f} ms  max {ordered[-1]:7.3f} ms")


async def main(repeat: int) -> None:
    commands = sorted({step for attack in ADVERSARIAL for step in attack.steps} | set(EVERYDAY))
    with tempfile.TemporaryDirectory(prefix="bench-perm-") as tmp:
        home = Path(tmp) / "home"
        (home / ".ssh").mkdir(parents=True)
        os.environ["HOME"] = str(home)
        proj = build_project(Path(tmp))
        everything: list[float] = []
        print(f"{len(commands)} distinct commands (adversarial corpus + everyday list)")
        for label, config in CONFIGS.items():
            ctx = context(proj, **config)  # type: ignore[arg-type]
            times = [await decide_timed(c, ctx, repeat) for c in commands]
            everything.extend(times)
            print(summary(label, times))
        print(summary("all configurations", everything))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    asyncio.run(main(parser.parse_args().repeat))
