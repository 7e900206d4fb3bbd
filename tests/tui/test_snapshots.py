"""Snapshots of the main screens in every theme at 80x24 and 120x40.

Time is pinned (spinner frames and elapsed labels come from `claude_harness.frontends.tui.clock`), the
cwd label is fixed, the answers come from the scripted server, and each test waits until the
app has applied every session event before pinning the footer and snapping (`settle`), so a
snapshot changes only when the rendering does, however loaded the machine. Update with `pytest tests/tui/test_snapshots.py --snapshot-update`
after looking at the new SVGs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_harness.frontends.tui import clock
from claude_harness.protocol.ops import SetMode
from tests.tui.helpers import send, settle, wait_for

THEMES = ["dark", "light", "high-contrast"]
SIZES = [(80, 24), (120, 40)]
ANSWER = ("The helper lives in `src/app.py`:\n\n```python\ndef greet(name):\n"
          "    return 'hello ' + name\n```\n\n- it takes **one** argument\n- it returns a string")


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "now", lambda: 1000.0)


def pin_cwd(app: Any) -> None:
    """The cwd, the cost and the context use depend on tmp paths and on the size of the tool
    descriptions other modules own; pin them so only rendering changes move a snapshot."""
    app.status.set_state(cwd=Path("/work/demo"), cost=0.0123, context_percent=3.0)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("theme", THEMES)
def test_conversation_screen(snap_compare: Any, api: Any, make_app: Any, theme: str,
                             size: tuple[int, int]) -> None:
    server = api([{"content": ["Let me look.", {"type": "tool_use", "name": "Bash",
                                                "input": {"command": "echo hi; echo there"}}]},
                  ANSWER])
    app = make_app(server, theme=theme, mode="bypassPermissions", bypass=True)

    async def run_before(pilot: Any) -> None:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "where is greet?")
        await wait_for(pilot, lambda: not app.busy and len(app.view.messages) == 4,
                       what="turn end")
        app.submit(SetMode("acceptEdits"))
        await wait_for(pilot, lambda: app.view.mode == "acceptEdits", what="mode")
        await settle(pilot, app)
        app.refresh_status()
        pin_cwd(app)
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("theme", THEMES)
def test_permission_screen(snap_compare: Any, api: Any, make_app: Any, theme: str,
                           size: tuple[int, int]) -> None:
    server = api([{"content": [{"type": "tool_use", "name": "Bash",
                                "input": {"command": "touch notes.txt"}}]}])
    app = make_app(server, theme=theme)

    async def run_before(pilot: Any) -> None:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "make a notes file")
        await wait_for(pilot, lambda: app.prompt_widget, what="permission prompt")
        await settle(pilot, app)
        pin_cwd(app)
        await pilot.press("down")
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("theme", THEMES)
def test_first_start_without_a_key(snap_compare: Any, project: Path, theme: str,
                                   size: tuple[int, int]) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from tests.tui.conftest import make_engine

    app = HarnessApp(cwd=project, session_factory=lambda: make_engine(None, project, key=None),
                     theme=theme, preload_transport=False)

    async def run_before(pilot: Any) -> None:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await settle(pilot, app)  # the controls event after SessionStarted repaints the footer
        pin_cwd(app)
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
