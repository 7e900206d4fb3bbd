"""Starting MCP servers never holds up the caller: `start()` only schedules, the SDK is imported
off the event loop, and the loop keeps ticking while servers connect (the first paint and the
first prompt do not wait for MCP). Run in a fresh interpreter so no earlier test has imported the
SDK already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import asyncio, json, sys, time
from pathlib import Path
from claude_harness.mcp import McpManager
from tests.mcp.support import demo

async def main():
    manager = McpManager([demo("a"), demo("b")], cwd=Path(sys.argv[1]), startup_timeout=30)
    began = time.monotonic()
    manager.start()
    start_took = time.monotonic() - began
    sdk_after_start = "mcp.client.client" in sys.modules
    gaps, last = [], time.monotonic()

    async def tick():
        nonlocal last
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    ready = await manager.wait_ready(40)
    ticker.cancel()
    states = [s.state for s in manager.status()]
    await manager.close()
    print(json.dumps({"start_took": start_took, "sdk_after_start": sdk_after_start,
                      "max_gap": max(gaps), "ticks": len(gaps), "ready": ready,
                      "states": states}))

asyncio.run(main())
"""


def test_start_returns_at_once_and_the_loop_keeps_running(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=root,
                          capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ready"] and report["states"] == ["connected", "connected"]
    assert report["start_took"] < 0.05
    assert report["sdk_after_start"] is False  # imported later, in a worker thread
    assert report["ticks"] > 20
    assert report["max_gap"] < 0.5, report  # never blocked for long while servers connected
