"""A Write of a 2 MB file with changes all over it: the permission prompt shows at once, the
diff is built in a thread with a deadline (its summary line when the change is too big to
show), and keys typed meanwhile echo. Before, difflib ran on the event loop and froze the app
for minutes (150 s for a 1.8 MB file)."""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from claude_harness.api.client import preload_transport
from tests.tui.helpers import send, wait_for

LINES = 45_000  # about 2 MB


def big_file(project: Path) -> tuple[Path, str]:
    path = project / "big.txt"
    lines = [f"row {i:06d} {'payload ' * 4}" for i in range(LINES)]
    path.write_text("\n".join(lines) + "\n")
    changed = [f"ROW {i:06d} edited" if i % 10 == 3 else line for i, line in enumerate(lines)]
    return path, "\n".join(changed) + "\n"


async def test_a_big_write_prompts_at_once_and_keys_echo(api: Any, make_app: Any,
                                                         project: Path) -> None:
    path, content = big_file(project)
    assert path.stat().st_size > 1_900_000
    server = api([{"content": [{"type": "tool_use", "name": "Write",
                                "input": {"file_path": str(path), "content": content}}],
                  "chunk_size": 65_536},  # big pieces: a short stream
                  "Left it alone."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        preload_transport()  # the app preloads it in the background; the clock is for the preview
        # The app's own process holds a small heap (it freezes what it loaded at start); late in
        # a full run this process holds the whole suite's leftovers, and one full collection over
        # them is a pause the app never has. Freeze them too: the heartbeat measures the app.
        gc.collect()
        gc.freeze()
        ticks: list[float] = []  # the event loop's heartbeat: a gap is a freeze
        app.set_interval(0.05, lambda: ticks.append(time.monotonic()))
        started = time.monotonic()
        await send(pilot, "rewrite big.txt")
        prompt = await wait_for(pilot, lambda: app.prompt_widget, timeout=30,
                                what="permission prompt")
        shown_after = time.monotonic() - started
        # The prompt itself needs one round trip to the scripted server; a second is plenty on
        # an idle machine, 3 s leaves room for a loaded one (it took minutes before).
        assert shown_after < 3, f"the prompt took {shown_after:.1f} s"
        body = await wait_for(pilot, lambda: next(iter(prompt.query(".perm-body")), None),
                              what="the prompt's body")
        assert isinstance(body, Static)
        await pilot.press("x")  # typed at the prompt: goes to its feedback field
        typed = time.monotonic()
        field = prompt.query_one("#perm-feedback", Input)
        await wait_for(pilot, lambda: field.value == "x", timeout=3, what="the key to echo")
        assert time.monotonic() - typed < 1.5
        await wait_for(pilot, lambda: "diff too large to show" in str(body.render()),
                       timeout=10, what="the diff summary")
        text = str(body.render())
        assert str(path) in text and "+4500 −4500 lines" in text
        beats = [t for t in ticks if t >= started]
        gaps = [b - a for a, b in zip(beats, beats[1:], strict=False)]
        assert beats and max(gaps, default=0) < 1.0, f"the app froze for {max(gaps):.1f} s"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
    gc.unfreeze()
    assert path.read_text() != content  # declined: the file is as it was
