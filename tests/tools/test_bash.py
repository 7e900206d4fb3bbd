"""The foreground Bash tool, against real /bin/bash subprocesses in temporary directories."""

from __future__ import annotations

import asyncio
import base64
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolResult
from claude_harness.tools.bash import TOOL
from claude_harness.tools.bash.background import REGISTRY
from tests.tools.bash_helpers import procs_matching, wait_gone
from tests.tools.conftest import make_ctx

PNG_1X1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@pytest.fixture
def ctx(session_ctx: ToolUseContext) -> ToolUseContext:
    return session_ctx


@pytest.fixture
def no_background(monkeypatch: pytest.MonkeyPatch) -> None:
    """A timeout kills, as it does when background tasks are disabled."""
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS", "1")


async def run(
    ctx: ToolUseContext, command: str, events: list[Any] | None = None, **fields: Any
) -> tuple[ToolResult, Any]:
    """Validate like the pipeline does, call the tool, and render what the model would read."""
    inp = TOOL.input_model.model_validate({"command": command, **fields})
    validation = await TOOL.validate_input(inp, ctx)
    assert validation.ok, validation.message
    sink = events if events is not None else []
    result = await TOOL.call(inp, ctx, sink.append)
    return result, TOOL.render_result(result.data)


# -- output and exit codes ---------------------------------------------------------------------


async def test_stdout_comes_before_stderr(ctx: ToolUseContext) -> None:
    result, text = await run(ctx, "echo to-err >&2; echo to-out")
    assert not result.is_error
    assert text == "to-out\nto-err"


async def test_nonzero_exit_is_an_error_starting_with_the_code(ctx: ToolUseContext) -> None:
    result, text = await run(ctx, "echo partial; echo oops >&2; exit 3")
    assert result.is_error
    assert text.startswith("Exit code 3\n")
    assert "partial" in text and "oops" in text
    assert text.index("partial") < text.index("oops")


async def test_silent_success_says_so(ctx: ToolUseContext) -> None:
    result, text = await run(ctx, "true")
    assert not result.is_error
    assert text == "(no output)"


async def test_runs_bash_not_the_users_shell(
    ctx: ToolUseContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHELL", "/bin/sh")
    _, text = await run(ctx, 'echo "$BASH_VERSION"; [[ 1 == 1 ]] && echo bashism')
    assert text.splitlines()[0][:1].isdigit()
    assert "bashism" in text


async def test_environment_is_inherited(
    ctx: ToolUseContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HARNESS_TEST_VALUE", "from-the-user")
    _, text = await run(ctx, 'echo "$HARNESS_TEST_VALUE"')
    assert text == "from-the-user"


async def test_stdin_is_empty(ctx: ToolUseContext) -> None:
    result, text = await run(ctx, "cat; echo after-cat", timeout=5000)
    assert not result.is_error
    assert text == "after-cat"


async def test_runs_in_its_own_process_group(ctx: ToolUseContext) -> None:
    _, text = await run(ctx, "ps -o pgid= -p $$; echo $$")
    pgid, pid = text.split()
    assert pgid == pid
    assert int(pgid) != os.getpgrp()


# -- the persistent working directory -----------------------------------------------------------


async def test_cd_carries_over_to_the_next_call(tmp_path: Path) -> None:
    (tmp_path / "sub dir").mkdir()
    ctx = make_ctx(tmp_path)
    await run(ctx, 'cd "sub dir"')
    _, text = await run(ctx, "pwd -P")
    assert text == str((tmp_path / "sub dir").resolve())
    assert ctx.shell.cwd == (tmp_path / "sub dir").resolve()


async def test_cd_survives_a_trailing_comment_and_exit(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    ctx = make_ctx(tmp_path)
    result, _ = await run(ctx, "cd a # go there")
    assert not result.is_error
    assert ctx.shell.cwd == (tmp_path / "a").resolve()
    result, text = await run(ctx, "cd .. && exit 4")
    assert text.startswith("Exit code 4")
    assert ctx.shell.cwd == tmp_path.resolve()


async def test_unterminated_heredoc_does_not_break_cwd_tracking(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    ctx = make_ctx(tmp_path)
    result, text = await run(ctx, "cd b\ncat <<EOF\nbody line")
    assert "body line" in text
    assert ctx.shell.cwd == (tmp_path / "b").resolve()


async def test_vanished_end_directory_keeps_previous_cwd_with_note(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path)
    result, text = await run(ctx, "mkdir gone && cd gone && rmdir ../gone; echo done")
    assert "done" in text
    assert ctx.shell.cwd == tmp_path
    _, text = await run(ctx, "pwd -P")
    assert text == str(tmp_path.resolve())


async def test_deleted_remembered_cwd_resets_to_project_dir(tmp_path: Path) -> None:
    (tmp_path / "tmpdir").mkdir()
    ctx = make_ctx(tmp_path)
    await run(ctx, "cd tmpdir")
    (tmp_path / "tmpdir").rmdir()
    result, text = await run(ctx, "pwd -P")
    assert not result.is_error
    assert text.splitlines()[0] == str(tmp_path.resolve())
    assert "reset to" in text
    assert ctx.shell.cwd == tmp_path.resolve()


# -- timeouts and interrupts --------------------------------------------------------------------


async def test_timeout_kills_and_keeps_the_output_so_far(ctx: ToolUseContext,
                                                        no_background: None) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    result, text = await run(ctx, "echo before; sleep 100.211; echo never", timeout=400)
    assert loop.time() - started < 3
    assert result.is_error
    assert text.startswith("Command timed out after 0.4s")
    assert "before" in text and "never" not in text
    assert await wait_gone("100.211") == []


async def test_command_that_never_ends_goes_to_the_background(ctx: ToolUseContext) -> None:
    result, text = await run(ctx, "while :; do :; done", timeout=300)
    assert not result.is_error and "moved to the background" in text
    REGISTRY.kill(result.data.background_id)


async def test_abort_kills_the_whole_process_group(ctx: ToolUseContext) -> None:
    """`sleep & sleep`: the background sleep would be orphaned by killing bash alone."""
    task = asyncio.create_task(run(ctx, "sleep 100.123 & sleep 100.124"))
    for _ in range(100):
        await asyncio.sleep(0.02)
        if len(procs_matching("sleep 100.12")) == 2:
            break
    assert len(procs_matching("sleep 100.12")) == 2
    ctx.abort.abort()
    result, text = await asyncio.wait_for(task, 5)
    assert result.is_error
    assert text.startswith("Command was interrupted")
    assert await wait_gone("sleep 100.12") == []


async def test_term_ignoring_process_is_killed_after_the_grace(ctx: ToolUseContext,
                                                               no_background: None) -> None:
    command = "trap '' TERM; sleep 100.345 & trap '' TERM; sleep 100.346"
    result, text = await run(ctx, command, timeout=300)
    assert "timed out" in text
    assert await wait_gone("sleep 100.34") == []


async def test_left_behind_background_child_is_stopped_with_a_note(ctx: ToolUseContext) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    result, text = await run(ctx, "sleep 100.456 & echo started")
    assert loop.time() - started < 4
    assert not result.is_error
    assert text.startswith("started")
    assert "run_in_background" in text
    assert await wait_gone("sleep 100.456") == []


# -- big and binary output ----------------------------------------------------------------------


async def test_50mb_of_output_is_previewed_and_saved_whole_in_bounded_memory(
    ctx: ToolUseContext,
) -> None:
    tracemalloc.start()
    try:
        result, text = await run(
            ctx, "head -c 50000000 /dev/zero | tr '\\0' a; echo; echo THE-END"
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not result.is_error
    assert peak < 8_000_000, f"peak traced memory {peak:,} bytes"
    assert len(text) < 32_000
    saved = Path(result.data.output_path)
    note, preview = text.split("\n", 1)
    assert "50,000,009 bytes" in note and f"All of it is saved to: {saved}" in note
    assert preview.startswith("aaaa")
    assert preview.rstrip().endswith("THE-END")
    assert "cut from the middle" in preview
    assert saved.stat().st_size == 50_000_009
    with saved.open("rb") as handle:
        handle.seek(-9, 2)
        assert handle.read() == b"\nTHE-END\n"


async def test_progress_events_are_coalesced_and_bounded(ctx: ToolUseContext) -> None:
    events: list[Any] = []
    await run(ctx, "for i in $(seq 1 2000); do echo line-$i; done; sleep 0.3; echo tail >&2", events)
    assert events, "no progress was reported"
    assert len(events) < 50
    assert all(len(e["stdout"]) <= 5_000 for e in events)
    seen_out = "".join(e["stdout"] for e in events)
    assert "line-2000" in seen_out
    assert any("tail" in e["stderr"] for e in events)


async def test_png_on_stdout_becomes_an_image_block(tmp_path: Path) -> None:
    (tmp_path / "dot.png").write_bytes(PNG_1X1)
    ctx = make_ctx(tmp_path)
    result, content = await run(ctx, "cat dot.png")
    assert not result.is_error
    assert isinstance(content, list)
    assert content[0]["type"] == "image"
    assert content[0]["source"]["media_type"] == "image/png"
    assert base64.b64decode(content[0]["source"]["data"]) == PNG_1X1


async def test_oversized_image_is_a_note_not_a_block(ctx: ToolUseContext) -> None:
    command = "printf '\\x89PNG\\r\\n\\x1a\\n'; head -c 4000000 /dev/zero"
    result, content = await run(ctx, command)
    assert isinstance(content, str)
    assert "image/png image" in content and "too large" in content


# -- validation and permission hooks ------------------------------------------------------------


async def test_empty_command_is_refused(ctx: ToolUseContext) -> None:
    inp = TOOL.input_model.model_validate({"command": "  \n"})
    verdict = await TOOL.validate_input(inp, ctx)
    assert not verdict.ok and "empty" in verdict.message


async def test_timeout_above_ten_minutes_is_refused(ctx: ToolUseContext) -> None:
    inp = TOOL.input_model.model_validate({"command": "ls", "timeout": 600_001})
    verdict = await TOOL.validate_input(inp, ctx)
    assert not verdict.ok and "600000" in verdict.message
    ok = TOOL.input_model.model_validate({"command": "ls", "timeout": 600_000})
    assert (await TOOL.validate_input(ok, ctx)).ok


def test_schema_is_the_contract_and_hides_the_internal_field() -> None:
    schema = TOOL.input_schema()
    assert set(schema["properties"]) == {"command", "timeout", "description", "run_in_background",
                                         "dangerouslyDisableSandbox"}  # as Claude Code's
    assert schema["required"] == ["command"]
    assert schema["additionalProperties"] is False
    assert "_simulated_sed_edit" not in str(schema)


def test_permission_subject_key_argument_and_classifier_input() -> None:
    inp = TOOL.input_model.model_validate({"command": "git status\ngit diff"})
    assert TOOL.permission_subject(inp) == "git status\ngit diff"
    assert TOOL.to_classifier_input(inp) == "git status\ngit diff"
    assert TOOL.key_argument(inp) == "git status…"
    long = TOOL.input_model.model_validate({"command": "echo " + "x" * 200})
    assert len(TOOL.key_argument(long)) <= 80


async def test_simulated_sed_edit_writes_the_approved_content(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("hello world\n")
    target.chmod(0o640)
    ctx = make_ctx(tmp_path)
    inp = TOOL.input_model.model_validate(
        {
            "command": "sed -i 's/world/there/' notes.txt; touch ran-the-shell",
            "_simulated_sed_edit": {"file_path": str(target), "new_content": "hello approved\n"},
        }
    )
    assert inp.model_dump().keys() == {"command", "timeout", "description", "run_in_background",
                                       "dangerouslyDisableSandbox"}
    assert TOOL.is_read_only(inp) is False
    result = await TOOL.call(inp, ctx, lambda _: None)
    assert not result.is_error
    assert target.read_text() == "hello approved\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert not (tmp_path / "ran-the-shell").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(
    ("command", "read_only"),
    [
        ("ls -la", True),
        ("git status", True),
        ("rm -rf build", False),
        ("echo hi > out.txt", False),
        ("ls && rm -rf build", False),
    ],
)
def test_read_only_and_concurrency_follow_the_security_module(
    command: str, read_only: bool
) -> None:
    inp = TOOL.input_model.model_validate({"command": command})
    assert TOOL.is_read_only(inp) is read_only
    assert TOOL.is_concurrency_safe(inp) is read_only


async def test_cancelled_call_leaves_no_process_behind(ctx: ToolUseContext) -> None:
    task = asyncio.create_task(run(ctx, "sleep 100.567 & sleep 100.568"))
    for _ in range(100):
        await asyncio.sleep(0.02)
        if len(procs_matching("sleep 100.56")) == 2:
            break
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_gone("sleep 100.56") == []


async def test_already_aborted_call_runs_nothing(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path)
    ctx.abort.abort()
    result, text = await run(ctx, "touch should-not-exist")
    assert result.is_error and text.startswith("Command was interrupted")
    assert not (tmp_path / "should-not-exist").exists()
