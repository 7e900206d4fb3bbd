"""The status line command: real shell scripts fed Claude Code's JSON, debounced, timed out,
never blocking the event loop, the last good line kept."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from claude_harness.session.services.status_line_command import (
    SessionState,
    StatusLineConfig,
    StatusLineOutput,
    StatusLineRunner,
    display_name,
)
from tests.tools.bash_helpers import procs_matching, wait_gone


def state(tmp_path: Path, **kw) -> SessionState:
    args = dict(session_id="s-1", transcript_path=str(tmp_path / "s-1.jsonl"), cwd=tmp_path,
                project_dir=tmp_path, model="claude-opus-5-5", version="0.1.0",
                cost_usd=0.147853, input_tokens=15_869, output_tokens=8,
                context_window=1_000_000,
                last_usage={"input_tokens": 338, "output_tokens": 8,
                            "cache_creation_input_tokens": 15_531, "cache_read_input_tokens": 0})
    args.update(kw)
    return SessionState(**args)


def runner(tmp_path: Path, command: str, updates: list[StatusLineOutput], **kw
           ) -> StatusLineRunner:
    kw.setdefault("debounce", 0.05)
    return StatusLineRunner(StatusLineConfig(command), tmp_path, updates.append, **kw)


async def settle(r: StatusLineRunner, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if r._task is None or r._task.done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the status line never settled")


def test_settings_value_is_read_as_claude_code_writes_it() -> None:
    assert StatusLineConfig.from_settings(
        {"type": "command", "command": "~/.claude/statusline.sh", "padding": 2}
    ) == StatusLineConfig("~/.claude/statusline.sh", 2)
    assert StatusLineConfig.from_settings({"type": "command", "command": "x"}).padding == 0
    for bad in (None, "x", {"type": "static", "command": "x"}, {"type": "command"},
                {"type": "command", "command": "  "}):
        assert StatusLineConfig.from_settings(bad) is None


def test_model_display_names() -> None:
    assert display_name("claude-opus-5-5") == "Opus 5.5"
    assert display_name("claude-sonnet-4-5-20250929") == "Sonnet 4.5"
    assert display_name("claude-haiku-5-5") == "Haiku 5.5"


async def test_the_script_gets_claude_codes_json_and_its_colours_are_kept(
        tmp_path: Path) -> None:
    updates: list[StatusLineOutput] = []
    r = runner(tmp_path, "cat > seen.json; printf '\\033[31mRED\\033[0m line\\nsecond\\n'",
               updates)
    r.request(state(tmp_path).payload())
    await settle(r)
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen["model"] == {"id": "claude-opus-5-5", "display_name": "Opus 5.5"}
    assert seen["workspace"] == {"current_dir": str(tmp_path), "project_dir": str(tmp_path),
                                 "added_dirs": []}
    assert seen["context_window"]["used_percentage"] == 2
    assert seen["context_window"]["current_usage"]["cache_creation_input_tokens"] == 15_531
    assert seen["cost"]["total_cost_usd"] == 0.147853 and seen["output_style"]["name"] == "default"
    assert {"session_id", "transcript_path", "cwd", "version", "exceeds_200k_tokens"} <= set(seen)
    (output,) = updates
    assert output.first_line == "\x1b[31mRED\x1b[0m line" and output.lines[1] == "second"
    text = output.rich_line()
    assert text.plain == "RED line"
    assert text.spans[0].end == 3 and text.spans[0].style.color.number == 1  # ANSI red


async def test_a_burst_of_changes_runs_the_script_once_with_the_latest_state(
        tmp_path: Path) -> None:
    updates: list[StatusLineOutput] = []
    r = runner(tmp_path, "cat >> seen.jsonl; echo >> seen.jsonl; echo ok", updates,
               debounce=0.2)
    for cost in range(10):
        r.request(state(tmp_path, cost_usd=float(cost)).payload())
    await settle(r)
    runs = (tmp_path / "seen.jsonl").read_text().splitlines()
    assert len(runs) == 1 and json.loads(runs[0])["cost"]["total_cost_usd"] == 9.0
    assert r.runs == 1 and len(updates) == 1


async def test_a_slow_script_never_blocks_and_the_last_good_line_stays(tmp_path: Path) -> None:
    updates: list[StatusLineOutput] = []
    flag = tmp_path / "slow"
    r = runner(tmp_path, f"if [ -e {flag} ]; then sleep 100.401; fi; echo good", updates,
               timeout=0.5)
    r.request(state(tmp_path).payload())
    await settle(r)
    assert r.current is not None and r.current.first_line == "good"
    flag.touch()
    loop = asyncio.get_running_loop()
    r.request(state(tmp_path).payload())
    gaps, last = [], loop.time()
    while not procs_matching("sleep 100.401"):  # the loop keeps ticking while it runs
        await asyncio.sleep(0.01)
        gaps.append(loop.time() - last)
        last = loop.time()
    await settle(r)
    assert max(gaps) < 0.2
    assert "longer than 0.5 s" in r.last_error
    assert r.current.first_line == "good" and len(updates) == 1
    assert await wait_gone("sleep 100.401") == []


async def test_a_failing_script_keeps_the_last_line_and_empty_output_clears_it(
        tmp_path: Path) -> None:
    updates: list[StatusLineOutput] = []
    mode = tmp_path / "mode"
    mode.write_text("ok")
    r = runner(tmp_path, 'm=$(cat mode); [ "$m" = fail ] && { echo broke >&2; exit 3; }; '
                         '[ "$m" = empty ] && exit 0; echo fine', updates)
    for step in ("ok", "fail", "empty"):
        mode.write_text(step)
        r.request(state(tmp_path).payload())
        await settle(r)
        if step == "fail":
            assert r.current.first_line == "fine" and "exited with 3: broke" in r.last_error
    assert r.current == StatusLineOutput(()) and [u.first_line for u in updates] == ["fine", ""]


@pytest.mark.parametrize("command", ["exit 0", "true"])
async def test_a_script_that_prints_nothing_shows_nothing(tmp_path: Path, command: str) -> None:
    updates: list[StatusLineOutput] = []
    r = runner(tmp_path, command, updates)
    r.request(state(tmp_path).payload())
    await settle(r)
    assert updates == [StatusLineOutput(())]
    await r.aclose()
