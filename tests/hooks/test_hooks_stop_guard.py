"""The Stop-hook guard caps consecutive continuations so a hook cannot loop the agent forever."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.hooks import StopHookGuard
from tests.hooks.hook_helpers import MakeRunner, write_script


def test_guard_caps_at_the_maximum() -> None:
    guard = StopHookGuard(max_consecutive=3)
    assert not guard.stop_hook_active
    assert [guard.register_block() for _ in range(5)] == [True, True, True, False, False]
    assert guard.stop_hook_active and guard.exhausted
    assert "3 times" in guard.cap_message()
    guard.reset()
    assert not guard.stop_hook_active and guard.register_block()


def test_default_cap_is_eight() -> None:
    guard = StopHookGuard()
    allowed = 0
    while guard.register_block():
        allowed += 1
        assert allowed <= 100
    assert allowed == 8


def test_bad_cap_is_refused() -> None:
    with pytest.raises(ValueError):
        StopHookGuard(max_consecutive=0)


async def test_loop_with_an_always_blocking_stop_hook_ends(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    """What the agent loop does: pass stop_hook_active, continue while the guard allows."""
    seen = tmp_path / "seen"
    script = write_script(
        tmp_path,
        "never_done.py",
        "import json, sys\n"
        "data = json.load(sys.stdin)\n"
        f"open({str(seen)!r}, 'a').write(str(data['stop_hook_active']) + '\\n')\n"
        "print(json.dumps({'decision': 'block', 'reason': 'keep going'}))\n",
        python=True,
    )
    runner = make_runner({"Stop": [{"hooks": [{"type": "command", "command": str(script)}]}]})
    guard = StopHookGuard(max_consecutive=3)
    turns = 0
    while True:
        turns += 1
        outcome = await runner.run("Stop", {"stop_hook_active": guard.stop_hook_active})
        if not (outcome.blocked and guard.register_block()):
            break
    assert turns == 4
    assert seen.read_text().split() == ["False", "True", "True", "True"]
