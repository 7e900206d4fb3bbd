"""Tool calls render live and permission prompts answer the loop, against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_harness.frontends.tui.widgets.permission_prompt import PermissionPrompt
from claude_harness.frontends.tui.widgets.tool_call import ToolCallView
from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView
from tests.tui.helpers import screen_text, send, sent_texts, settle, type_text, wait_for


def bash(command: str, tid: str = "toolu_1") -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}


def tool_results(server: Any, request: int) -> list[dict[str, Any]]:
    """The tool_result blocks the app's engine sent in request number `request`."""
    last = server.requests[request]["messages"][-1]
    return [b for b in last["content"] if b.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content)
    return str(content)


async def test_tool_call_shows_progress_then_result(api: Any, make_app: Any) -> None:
    command = "for i in 1 2 3; do echo line$i; sleep 0.4; done"
    server = api([{"content": ["Running it.", bash(command)]}, "All three lines printed."])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "run the loop")
        view = await wait_for(pilot, lambda: next(iter(app.query(ToolCallView)), None),
                              what="tool widget")
        header = str(view.query_one(".tool-header").render())
        assert "Bash" in header and "for i in 1 2 3" in header
        await wait_for(pilot, lambda: view.running and "line1" in str(
            view.query_one(".tool-progress").render()), what="live progress while running")
        await wait_for(pilot, lambda: not view.running, what="tool finished")
        result = str(view.query_one(".tool-result").render())
        assert "line1" in result and "line3" in result
        assert not view.is_error
        await wait_for(pilot, lambda: "All three lines printed." in screen_text(app),
                       what="final answer")
        # the spinner timer stopped with the call: nothing ticks once the turn is over
        assert view._timer is None
    assert "line3" in result_text(tool_results(server, 1)[0])


async def test_failed_tool_is_marked_as_error(api: Any, make_app: Any) -> None:
    server = api([{"content": [bash("echo oops >&2; exit 3")]}, "It failed."])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "fail please")
        view = await wait_for(pilot, lambda: next(iter(app.query(ToolCallView)), None),
                              what="tool widget")
        await wait_for(pilot, lambda: not view.running, what="tool finished")
        assert view.is_error and view.has_class("-error")
        assert "✗" in str(view.query_one(".tool-header").render())


async def test_ctrl_o_expands_a_long_result(api: Any, make_app: Any) -> None:
    server = api([{"content": [bash("seq 1 40")]}, "Counted."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "count")
        view = await wait_for(pilot, lambda: next(iter(app.query(ToolCallView)), None),
                              what="tool widget")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        preview = str(view.query_one(".tool-result").render())
        assert "+35 lines (ctrl+o to expand)" in preview and "\n  40" not in preview
        await pilot.press("ctrl+o")
        expanded = str(view.query_one(".tool-result").render())
        assert "40" in expanded.splitlines()[-1]
        assert '"command": "seq 1 40"' in str(view.query_one(".tool-details").render())


async def _prompt_for_touch(pilot: Any, app: Any) -> PermissionPrompt:
    await wait_for(pilot, lambda: app.ready, what="engine ready")
    await send(pilot, "make the file")
    prompt = await wait_for(pilot, lambda: app.prompt_widget, what="permission prompt")
    assert not app.prompt.display  # the prompt replaces the input
    text = screen_text(app)
    assert "touch made.txt" in text
    assert "Do you want to proceed?" in text
    return prompt


async def test_permission_yes_runs_the_command_once(api: Any, make_app: Any,
                                                    project: Path) -> None:
    server = api([{"content": [bash("touch made.txt")]}, "Created."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await _prompt_for_touch(pilot, app)
        await pilot.press("1")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        assert app.prompt_widget is None and app.prompt.display
    assert (project / "made.txt").exists()
    assert not (project / ".claude" / "settings.local.json").exists()


async def test_permission_always_saves_the_rule(api: Any, make_app: Any, project: Path) -> None:
    server = api([{"content": [bash("touch made.txt")]}, "Created."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = await _prompt_for_touch(pilot, app)
        suggestion = prompt.request.suggestion
        assert suggestion and f"don't ask again for {suggestion}" in screen_text(app)
        await pilot.press("2")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
    assert (project / "made.txt").exists()
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert suggestion in settings["permissions"]["allow"]


@pytest.mark.parametrize("key", ["3", "escape"])
async def test_permission_no_leaves_the_file_uncreated(api: Any, make_app: Any, project: Path,
                                                       key: str) -> None:
    server = api([{"content": [bash("touch made.txt")]}, "Understood."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await _prompt_for_touch(pilot, app)
        await pilot.press(key)
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        assert "Understood." in screen_text(app)
    assert not (project / "made.txt").exists()
    block = tool_results(server, 1)[0]
    assert block["is_error"] and "declined" in result_text(block)


async def test_permission_arrows_and_feedback_text(api: Any, make_app: Any,
                                                   project: Path) -> None:
    server = api([{"content": [bash("touch made.txt")]}, {"content": [bash("touch b.txt", "t2")]},
                  "ok"])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await _prompt_for_touch(pilot, app)
        await type_text(pilot, "use the Write tool")  # typing goes to the feedback field
        await pilot.press("enter")
        second = await wait_for(pilot, lambda: app.prompt_widget, what="second prompt")
        assert second.request.input["command"] == "touch b.txt"
        await pilot.press("down", "up", "enter")  # arrows + Enter: back on "Yes"
        await wait_for(pilot, lambda: not app.busy, what="turn end")
    assert "use the Write tool" in result_text(tool_results(server, 1)[0])
    assert not (project / "made.txt").exists()
    assert (project / "b.txt").exists()


async def test_parallel_permission_requests_queue(api: Any, make_app: Any, home: Path) -> None:
    """Two concurrent reads outside the project both ask; the prompts queue, one at a time."""
    (home / "a.txt").write_text("alpha\n")
    (home / "b.txt").write_text("beta\n")
    reads = [{"type": "tool_use", "id": f"t{i}", "name": "Read",
              "input": {"file_path": str(home / name)}} for i, name in ((1, "a.txt"), (2, "b.txt"))]
    server = api([{"content": reads}, "done"])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "read both")
        first = await wait_for(pilot, lambda: app.prompt_widget, what="first prompt")
        await wait_for(pilot, lambda: len(app.permission_queue) == 1, what="second queued")
        await wait_for(pilot, lambda: "1 more request(s) waiting" in screen_text(app),
                       what="queue count shown")
        await pilot.press("1")
        second = await wait_for(pilot, lambda: app.prompt_widget is not first and app.prompt_widget,
                                what="second prompt")
        assert second.request.input["file_path"] != first.request.input["file_path"]
        await pilot.press("3")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
    results = {b["tool_use_id"]: b for b in tool_results(server, 1)}
    allowed = first.request.tool_use_id
    denied = second.request.tool_use_id
    assert not results[allowed].get("is_error")
    assert results[denied]["is_error"] and "declined" in result_text(results[denied])


async def test_escape_interrupts_a_long_command_and_the_next_prompt_works(
        api: Any, make_app: Any) -> None:
    server = api([{"content": [bash("sleep 30")]}, "Second answer."])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "wait a long time")
        view = await wait_for(pilot, lambda: next(iter(app.query(ToolCallView)), None),
                              what="tool widget")
        await wait_for(pilot, lambda: view.running, what="command running")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.busy, timeout=20, what="turn aborted")
        assert not view.running and view.is_error
        assert "Interrupted" in screen_text(app)
        await send(pilot, "next one")
        await wait_for(pilot, lambda: "Second answer." in screen_text(app), what="next answer")
    # the history the API saw stayed valid: the aborted tool_use got its result
    last = server.requests[-1]["messages"]
    assert "next one" in sent_texts(last[-1])


async def test_message_typed_while_working_is_queued_then_steers_the_same_turn(
        api: Any, make_app: Any) -> None:
    server = api([{"content": [bash("sleep 2")]}, "Both done."])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "first")
        await wait_for(pilot, lambda: app.busy, what="busy")
        await send(pilot, "second")
        await wait_for(pilot, lambda: app.queued == ["second"], what="queued in the session")
        queued = [v for v in app.query(UserPromptView) if v.has_class("-queued")]
        assert len(queued) == 1  # shown dimmed while it waits for the tool batch to end
        await wait_for(pilot, lambda: "Both done." in screen_text(app), what="the answer")
        assert not any(v.has_class("-queued") for v in app.query(UserPromptView))
    assert len(server.requests) == 2  # injected after the tool batch, inside the same turn
    last = server.requests[1]["messages"][-1]
    assert last["content"][0]["type"] == "tool_result"
    assert "second" in sent_texts(last)[0]


async def test_edit_prompt_shows_the_diff_and_the_result_preview(api: Any, make_app: Any,
                                                                 project: Path) -> None:
    target = str(project / "src" / "app.py")
    server = api([
        {"content": [{"type": "tool_use", "id": "r1", "name": "Read",
                      "input": {"file_path": target}}]},
        {"content": [{"type": "tool_use", "id": "e1", "name": "Edit",
                      "input": {"file_path": target, "old_string": "'hello ' + name",
                                "new_string": "'hi ' + name"}}]},
        "Changed the greeting.",
    ])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "shorter greeting")
        prompt = await wait_for(pilot, lambda: app.prompt_widget, what="edit prompt")
        body = str(prompt.query_one(".perm-body").render())
        assert target in body
        assert "-    return 'hello ' + name" in body and "+    return 'hi ' + name" in body
        await pilot.press("1")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        edit_view = app.renderer.tools["e1"]
        preview = str(edit_view.query_one(".tool-result").render())
        assert "+    return 'hi ' + name" in preview
    assert "'hi ' + name" in (project / "src" / "app.py").read_text()


async def test_interrupt_returns_queued_prompts_to_the_input(api: Any, make_app: Any) -> None:
    server = api([{"content": [bash("sleep 30")]}])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "first")
        await wait_for(pilot, lambda: app.busy and app.renderer.tools, what="tool running")
        await send(pilot, "then this")
        await wait_for(pilot, lambda: app.queued == ["then this"], what="queued in the session")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.busy, timeout=20, what="interrupted")
        await wait_for(pilot, lambda: app.prompt.text == "then this", what="prompt returned")
        await settle(pilot, app)  # had the session sent it on its own, its events came first
        assert app.prompt.text == "then this" and app.queued == []
        assert len(server.requests) == 1  # nothing was sent on its own after the interrupt
