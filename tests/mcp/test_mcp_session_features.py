"""What a session gets beyond tool calls, against the demo server over stdio: tools that change
mid-session (new ones deferred, removed ones refused cleanly), a deferred tool called before
ToolSearch, prompts as slash commands, and elicitation answered by a form, a hook or nobody."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.hooks import HookConfig, HookRunner
from claude_harness.mcp import McpManager
from claude_harness.mcp.elicitation import (
    ElicitationAnswer,
    ElicitationRequest,
    hook_answerer,
    hook_reviewer,
    sdk_answerer,
)
from claude_harness.mcp.prompts import PromptError
from claude_harness.mcp.tools import allows_direct_call
from claude_harness.tools.registry import assemble_tool_pool, find_base_tool
from tests.mcp.support import TypedAnswers, call, demo, make_ctx, permission, text_of


@pytest.fixture
async def manager(tmp_path: Path, home: Path) -> AsyncIterator[McpManager]:
    mgr = McpManager([demo("srv")], cwd=tmp_path, startup_timeout=20)
    mgr.start()
    try:
        assert await mgr.wait_ready(30)
        assert mgr.status()[0].state == "connected", mgr.status()[0].error
        yield mgr
    finally:
        await asyncio.wait_for(mgr.close(), 15)


async def wait_for(condition: Any, seconds: float = 10) -> None:
    for _ in range(int(seconds * 20)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("condition never held")


async def test_list_changed_defers_new_tools_and_refuses_removed_ones(
    manager: McpManager, tmp_path: Path
) -> None:
    perm = permission(tmp_path, allow=("mcp__srv",))
    session_tools = assemble_tool_pool(perm, mcp_tools=manager.tools())
    schemas_before = [t.api_schema() for t in session_tools]
    assert not manager.tool_changes(session_tools)
    changes_seen: list[Any] = []
    manager.add_listener(lambda m: changes_seen.append(m.tool_changes(session_tools)))
    ctx = make_ctx(perm, session_tools)
    grown = await call(ctx, "mcp__srv__grow", {})
    assert grown.content == "grown"
    await wait_for(lambda: any(changes_seen))
    changes = manager.tool_changes(session_tools)
    assert [t.name for t in changes.added] == ["mcp__srv__late"]
    assert all(t.should_defer and t.api_schema()["defer_loading"] for t in changes.added)
    assert changes.removed == ("mcp__srv__shrink",)
    # The session's own list (the cached prefix) is untouched; new tools are appended.
    assert [t.api_schema() for t in session_tools] == schemas_before
    widened = make_ctx(perm, (*session_tools, *changes.added))
    late = await call(widened, "mcp__srv__late", {"word": "hi"})
    assert late.content == "late: hi"
    gone = await call(widened, "mcp__srv__shrink", {})
    assert gone.is_error
    assert "no longer offers the tool shrink" in text_of(gone)


async def test_a_deferred_mcp_tool_counts_as_loaded_once_called(manager: McpManager,
                                                                tmp_path: Path) -> None:
    """The pipeline lets an MCP tool run before ToolSearch (`allows_direct_call`); the call
    validates against the server's schema and marks the tool loaded for later turns."""
    perm = permission(tmp_path, allow=("mcp__srv",))
    pool = tuple(t.__class__(**{**t.__dict__, "should_defer": True})
                 if t.name.startswith("mcp__") else t
                 for t in assemble_tool_pool(perm, mcp_tools=manager.tools()))
    echo = next(t for t in pool if t.name == "mcp__srv__echo")
    assert echo.should_defer and allows_direct_call(echo)
    assert not allows_direct_call(find_base_tool("Read"))  # type: ignore[arg-type]
    ctx = make_ctx(perm, pool)
    from dataclasses import replace

    ctx = replace(ctx, options=replace(ctx.options, loaded_deferred=frozenset()))
    result = await echo.call(echo.input_model.model_validate({"text": "x"}), ctx, lambda d: None)
    assert result.context_modifier is not None
    after = result.context_modifier(ctx)
    assert "mcp__srv__echo" in after.options.loaded_deferred
    again = await echo.call(echo.input_model.model_validate({"text": "y"}), after,
                            lambda d: None)
    assert again.context_modifier is None  # already loaded: nothing to change


async def test_prompts_become_slash_commands(manager: McpManager) -> None:
    (review,) = manager.prompt_commands()
    assert review.name == "mcp__srv__review"
    assert review.argument_names == ("file", "focus")
    assert review.argument_hint == "<file> [focus]"
    assert "Review one file" in review.description
    blocks = await review.render('src/app.py "error handling"')
    assert blocks == [{"type": "text",
                       "text": "Please review src/app.py, focusing on error handling."}]
    joined = await review.render("a.py naming and tests")
    assert joined[0]["text"].endswith("focusing on naming and tests.")
    with pytest.raises(PromptError, match="Missing required argument file. Usage: "
                                          "/mcp__srv__review <file> \\[focus\\]"):
        await review.render("")


async def test_elicitation_by_form_by_hook_and_by_nobody(manager: McpManager,
                                                        tmp_path: Path) -> None:
    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    user = TypedAnswers({"name": "Grace"})
    manager.elicitation.front_end = user
    assert (await call(ctx, "mcp__srv__ask", {})).content == "accept: Grace (30)"  # default age
    (asked,) = user.requests
    assert asked.message == "Who are you?" and [f.name for f in asked.fields()] == ["name", "age"]

    seen: list[ElicitationRequest] = []

    async def hook(request: ElicitationRequest) -> ElicitationAnswer | None:
        seen.append(request)
        return ElicitationAnswer.accept({"name": "Hook", "age": 41})

    manager.elicitation.answerers.append(hook)
    assert (await call(ctx, "mcp__srv__ask", {})).content == "accept: Hook (41)"
    assert len(user.requests) == 1 and seen[0].hook_payload()["mcp_server_name"] == "srv"
    manager.elicitation.answerers.clear()

    manager.elicitation.front_end = None  # -p without hooks or an SDK callback
    assert (await call(ctx, "mcp__srv__ask", {})).content == "cancel"
    manager.elicitation.front_end = TypedAnswers(action="decline")
    assert (await call(ctx, "mcp__srv__ask", {})).content == "decline"



def hook_runner(tmp_path: Path, hooks: dict[str, Any]) -> HookRunner:
    config = HookConfig.from_sources([("userSettings", tmp_path / "settings.json", hooks)])
    assert config.warnings == (), config.warnings
    return HookRunner(config, project_dir=tmp_path, session_id="s", transcript_path="",
                      get_permission_mode=lambda: "default")


def command_hook(tmp_path: Path, name: str, body: str, matcher: str = "srv") -> dict[str, Any]:
    script = tmp_path / name
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return {"matcher": matcher, "hooks": [{"type": "command", "command": str(script)}]}


async def test_elicitation_hooks_answer_decline_and_review(manager: McpManager,
                                                           tmp_path: Path) -> None:
    """Claude Code's `Elicitation` / `ElicitationResult` hook events, run by the real runner
    with real scripts: a hook answers (the form never shows), exit 2 declines, and a result
    hook rewrites what the user typed."""
    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    seen = tmp_path / "seen.json"
    answering = hook_runner(tmp_path, {"Elicitation": [command_hook(
        tmp_path, "answer.sh",
        f"cat > {seen}\n"
        'echo \'{"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept", '
        '"content": {"name": "Scripted", "age": 5}}}\'\n')]})
    user = TypedAnswers({"name": "Typed"})
    manager.elicitation.front_end = user
    manager.elicitation.answerers.append(hook_answerer(answering))
    assert (await call(ctx, "mcp__srv__ask", {})).content == "accept: Scripted (5)"
    assert not user.requests
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "Elicitation"
    assert payload["mcp_server_name"] == "srv" and payload["message"] == "Who are you?"
    assert payload["requested_schema"]["properties"]["name"]["type"] == "string"

    refusing = hook_runner(tmp_path, {"Elicitation": [command_hook(
        tmp_path, "no.sh", "echo 'not from scripts' >&2; exit 2\n")]})
    manager.elicitation.answerers[:] = [hook_answerer(refusing)]
    assert (await call(ctx, "mcp__srv__ask", {})).content == "decline"

    other_server = hook_runner(tmp_path, {"Elicitation": [command_hook(
        tmp_path, "other.sh", "exit 2\n", matcher="github")]})
    manager.elicitation.answerers[:] = [hook_answerer(other_server)]
    assert (await call(ctx, "mcp__srv__ask", {})).content == "accept: Typed (30)"

    reviewing = hook_runner(tmp_path, {"ElicitationResult": [command_hook(
        tmp_path, "review.sh",
        'echo \'{"hookSpecificOutput": {"hookEventName": "ElicitationResult", '
        '"action": "accept", "content": {"name": "Reviewed"}}}\'\n')]})
    manager.elicitation.answerers.clear()
    manager.elicitation.reviewers.append(hook_reviewer(reviewing))
    assert (await call(ctx, "mcp__srv__ask", {})).content == "accept: Reviewed (30)"


async def test_an_sdk_program_answers_through_a_control_request(manager: McpManager,
                                                               tmp_path: Path) -> None:
    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    sent: list[dict[str, Any]] = []

    async def send(body: dict[str, Any]) -> Any:
        sent.append(body)
        return {"action": "accept", "content": {"name": "From SDK"}}

    manager.elicitation.answerers.append(sdk_answerer(send))
    assert (await call(ctx, "mcp__srv__ask", {})).content == "accept: From SDK (30)"
    assert sent[0]["subtype"] == "elicitation" and sent[0]["mcp_server_name"] == "srv"
    assert sent[0]["property_order"] == ["name", "age"]

    async def broken(body: dict[str, Any]) -> Any:
        raise ConnectionError("the SDK went away")

    manager.elicitation.answerers[:] = [sdk_answerer(broken)]
    assert (await call(ctx, "mcp__srv__ask", {})).content == "cancel"
