"""Share of prompt bytes that would be cache reads over the 30-turn scripted session.

Runs the engine in-process against the scripted server (real SDK, real HTTP), with parallel
tools, a mode change and a ToolSearch load, then reads each request back from the server's log:
for request N, the bytes of the longest prefix (up to its last breakpoint) that an earlier
request wrote count as cache reads. Also prints the server-reported token split.

Usage: python scripts/bench_cache.py
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import warnings
from pathlib import Path

from claude_harness.testing.cache import segments
from claude_harness.testing.mock_api import MockApiServer
from claude_harness.testing.scenarios import make_demo_project, thirty_turn_session


def cache_read_bytes(requests: list[dict]) -> tuple[int, int]:
    """(bytes readable from cache, total prompt bytes) summed over all requests."""
    written: set[str] = set()
    read_total = prompt_total = 0
    for body in requests:
        segs = segments(body)
        joined = ""
        best = 0
        last_bp = max((i for i, (_s, bp) in enumerate(segs) if bp), default=-1)
        prefixes = []
        for i, (seg, bp) in enumerate(segs):
            joined = joined + "\n" + seg if joined else seg
            prefixes.append(joined)
            if i <= last_bp and joined in written:
                best = len(joined)
            if bp:
                written.add(joined)
        read_total += best
        prompt_total += len(prefixes[-1]) if prefixes else 0
    return read_total, prompt_total


async def run(root: Path) -> tuple[list[dict], object]:
    from claude_harness.api.client import ApiSettings
    from claude_harness.protocol.events import Busy, SessionClosed, TotalsChanged
    from claude_harness.protocol.ops import SetMode, Shutdown, UserPrompt
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.core import Session, SessionConfig
    from claude_harness.tools.registry import assemble_tool_pool

    proj = make_demo_project(root)
    prompts = thirty_turn_session(proj)
    with MockApiServer({"turns": [t for group in prompts for t in group]}) as server:
        perm = PermissionContext(mode="acceptEdits", cwd=proj, interactive=False)
        session = Session(SessionConfig(
            cwd=proj, model="claude-sonnet-5-5", permission=perm, tools=assemble_tool_pool(perm),
            system_prompt="You are a benchmark assistant.",
            api=ApiSettings(api_key="bench", auth_token=None, base_url=server.url),
            data_dir=root / "data"))
        totals: object = None
        for n, _ in enumerate(prompts):
            if n == 1:
                session.submit(SetMode("plan"))
            if n == 2:
                session.submit(SetMode("acceptEdits"))
            session.submit(UserPrompt(f"prompt {n}"))
            async for event in session.events():
                if isinstance(event, TotalsChanged):
                    totals = event
                if isinstance(event, Busy) and not event.running:
                    break
        session.submit(Shutdown())
        async for event in session.events():
            if isinstance(event, SessionClosed):
                break
        return list(server.requests), totals


def main() -> None:
    warnings.filterwarnings("ignore")
    os.environ.setdefault("CLAUDE_HARNESS_DATA_DIR", tempfile.mkdtemp())
    with tempfile.TemporaryDirectory() as tmp:
        requests, totals = asyncio.run(run(Path(tmp)))
    read, total = cache_read_bytes(requests)
    print(f"requests: {len(requests)}")
    print(f"prompt bytes that are cache reads: {100 * read / total:.1f} % "
          f"({read:,} of {total:,})")
    tokens = totals.cache_read_tokens + totals.cache_write_tokens + totals.input_tokens
    print(f"server-reported input tokens: cache read {totals.cache_read_tokens:,}, "
          f"cache write {totals.cache_write_tokens:,}, uncached {totals.input_tokens:,} "
          f"({100 * totals.cache_read_tokens / tokens:.1f} % read)")


if __name__ == "__main__":
    main()
