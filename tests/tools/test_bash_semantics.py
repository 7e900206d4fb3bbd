"""What a Bash result means: exit codes that are not errors, commands that must run alone, and
the limits users set through Claude Code's environment variables. Real /bin/bash processes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolResult
from claude_harness.tools.bash import TOOL
from claude_harness.tools.bash.background import REGISTRY
from tests.tools.bash_helpers import wait_gone

pytestmark = pytest.mark.usefixtures("no_leftover_shells")


@pytest.fixture
def ctx(session_ctx: ToolUseContext, tmp_path: Path) -> ToolUseContext:
    (tmp_path / "a.txt").write_text("alpha\nbeta\n")
    (tmp_path / "b.txt").write_text("alpha\ngamma\n")
    return session_ctx


async def run(ctx: ToolUseContext, command: str, **fields: Any) -> tuple[ToolResult, str]:
    inp = TOOL.input_model.model_validate({"command": command, **fields})
    verdict = await TOOL.validate_input(inp, ctx)
    assert verdict.ok, verdict.message
    result = await TOOL.call(inp, ctx, lambda _: None)
    return result, str(TOOL.render_result(result.data))


@pytest.mark.parametrize(("command", "meaning"), [
    ("grep nothing-here a.txt", "No matches found"),
    ("cat a.txt | grep -c nothing-here", "No matches found"),
    (f"{Path(sys.executable).parent}/rg nothing-here a.txt", "No matches found"),
    ("diff a.txt b.txt", "Files differ"),
    ("cmp -s a.txt b.txt", "Files differ"),
    ("test -f missing.txt", "Condition is false"),
    ("[ -d a.txt ]", "Condition is false"),
    ("ls >/dev/null; test -e nowhere", "Condition is false"),
])
async def test_exit_code_one_that_means_no_is_not_an_error(
        ctx: ToolUseContext, command: str, meaning: str) -> None:
    result, text = await run(ctx, command)
    assert result.data.exit_code == 1
    assert not result.is_error, text
    assert not text.startswith("Exit code")
    if not (result.data.stdout.strip() or result.data.stderr.strip()):
        assert text == f"{meaning} (exit code 1)"


@pytest.mark.parametrize("command", [
    "grep alpha missing-file.txt",  # exit 2, and stderr says why
    "grep -q alpha a.txt && false",  # the last program decides, and `false` is a failure
    "diff a.txt missing.txt",  # exit 2
    "cat a.txt | grep beta > /dev/null; exit 1",
])
async def test_real_failures_stay_errors(ctx: ToolUseContext, command: str) -> None:
    result, text = await run(ctx, command)
    assert result.is_error and text.startswith("Exit code")


@pytest.mark.parametrize(("command", "safe"), [
    ("ls", True),
    ("cat a.txt | grep alpha", True),
    ("cd /tmp && ls", False),
    ("ls && cd ..", False),
    ("(cd /tmp; ls)", False),
    ("pushd /tmp", False),
    ("echo $(cd / && pwd)", False),
])
def test_a_command_with_cd_never_runs_alongside_others(command: str, safe: bool) -> None:
    inp = TOOL.input_model.model_validate({"command": command})
    assert TOOL.is_concurrency_safe(inp) is safe


async def test_bash_default_timeout_ms_is_honoured(ctx: ToolUseContext,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASH_DEFAULT_TIMEOUT_MS", "300")
    result, text = await run(ctx, "sleep 100.301")
    assert result.data.timed_out_after_ms == 300 and "0.3s timeout" in text
    REGISTRY.kill(result.data.background_id)
    assert await wait_gone("sleep 100.301") == []


async def test_bash_max_timeout_ms_is_honoured(ctx: ToolUseContext,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASH_MAX_TIMEOUT_MS", "1000")
    inp = TOOL.input_model.model_validate({"command": "ls", "timeout": 2000})
    verdict = await TOOL.validate_input(inp, ctx)
    assert not verdict.ok and "1000" in verdict.message
    assert (await TOOL.validate_input(inp.model_copy(update={"timeout": 1000}), ctx)).ok
    # a background command's lifetime has its own, larger cap
    bg = TOOL.input_model.model_validate({"command": "ls", "timeout": 2000,
                                          "run_in_background": True})
    assert (await TOOL.validate_input(bg, ctx)).ok


async def test_bash_max_output_length_is_honoured(ctx: ToolUseContext,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASH_MAX_OUTPUT_LENGTH", "2000")
    result, text = await run(ctx, "seq 1 5000")
    saved = Path(result.data.output_path)
    assert saved.read_text() == "".join(f"{i}\n" for i in range(1, 5001))
    note, preview = text.split("\n", 1)
    assert "2,000 characters" in note and str(saved) in note
    assert len(preview) < 2_500 and preview.startswith("1\n2\n") and preview.endswith("5000")


async def test_small_output_leaves_no_file_behind(ctx: ToolUseContext, tmp_path: Path) -> None:
    result, text = await run(ctx, "echo small; echo also >&2")
    assert text == "small\nalso" and result.data.output_path is None
    tasks = tmp_path / "session" / "tool-results" / "tasks"
    assert not tasks.exists() or list(tasks.iterdir()) == []
