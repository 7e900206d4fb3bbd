"""A program decides about tool calls: `can_use_tool` answers the permission prompt (allow with
a rewritten input, deny with a message, deny and interrupt), and a PreToolUse hook callback
blocks a call even in bypassPermissions mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import (
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionUpdate,
    ResultMessage,
    ToolPermissionContext,
    UserMessage,
    query,
)
from claude_agent_sdk.types import PermissionRuleValue

from tests.sdk.sdk_helpers import Cli, main_requests, options, result_text, tool_results, tool_use


async def run(prompt: str, opts: Any) -> list[Any]:
    """Stream the prompt (hooks and can_use_tool need the streaming input) and collect."""
    async def one_prompt() -> Any:
        yield {"type": "user", "message": {"role": "user", "content": prompt},
               "parent_tool_use_id": None, "session_id": "default"}

    return [message async for message in query(prompt=one_prompt(), options=opts)]


async def test_can_use_tool_allows_with_an_updated_input(cli: Cli, project: Path,
                                                         scripted: Any) -> None:
    note = project / "note.txt"
    server = scripted([tool_use("Write", {"file_path": str(note), "content": "from the model\n"},
                                "toolu_write_1"), "Saved."])
    asked: list[tuple[str, dict[str, Any], ToolPermissionContext]] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any],
                           context: ToolPermissionContext) -> Any:
        asked.append((name, tool_input, context))
        return PermissionResultAllow(updated_input={**tool_input, "content": "from the host\n"})

    messages = await run("save a note", options(cli, project, can_use_tool=can_use_tool))

    assert note.read_text() == "from the host\n"
    [(name, tool_input, context)] = asked
    assert (name, tool_input["content"]) == ("Write", "from the model\n")
    assert context.tool_use_id == "toolu_write_1"
    [result] = tool_results(main_requests(server)[-1])
    assert not result.get("is_error")
    assert messages[-1].subtype == "success" and messages[-1].permission_denials == []


async def test_can_use_tool_denies_with_a_message(cli: Cli, project: Path,
                                                  scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "touch denied.txt", "description": "touch"},
                                "toolu_bash_1"), "Understood."])

    async def can_use_tool(name: str, tool_input: dict[str, Any],
                           context: ToolPermissionContext) -> Any:
        return PermissionResultDeny(message="Not in this test.")

    messages = await run("touch it", options(cli, project, can_use_tool=can_use_tool))

    assert not (project / "denied.txt").exists()
    [result] = tool_results(main_requests(server)[-1])
    assert result["is_error"] is True and "Not in this test." in result_text(result)
    final = messages[-1]
    assert isinstance(final, ResultMessage) and final.result == "Understood."
    assert [(d["tool_name"], d["tool_use_id"]) for d in final.permission_denials] == [
        ("Bash", "toolu_bash_1")]
    [user] = [m for m in messages if isinstance(m, UserMessage) and m.tool_use_result]
    assert "Not in this test." in str(user.tool_use_result)


async def test_can_use_tool_deny_with_interrupt_ends_the_turn(cli: Cli, project: Path,
                                                              scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "touch stop.txt", "description": "touch"},
                                "toolu_bash_2"), "Never sent.", "After the stop."])

    async def can_use_tool(name: str, tool_input: dict[str, Any],
                           context: ToolPermissionContext) -> Any:
        return PermissionResultDeny(message="Stop everything.", interrupt=True)

    async with ClaudeSDKClient(options(cli, project, can_use_tool=can_use_tool)) as client:
        await client.query("touch it")
        first = [m async for m in client.receive_response()]
        await client.query("and now?")
        second = [m async for m in client.receive_response()]

    assert not (project / "stop.txt").exists()
    assert isinstance(first[-1], ResultMessage) and first[-1].is_error
    assert second[-1].result == "Never sent."
    assert len(main_requests(server)) == 2


async def test_pre_tool_use_hook_callback_blocks_the_call(cli: Cli, project: Path,
                                                          scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "touch hooked.txt", "description": "touch"},
                                "toolu_bash_3"), "Blocked, fine."])
    seen: list[tuple[dict[str, Any], str | None]] = []

    async def guard(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> Any:
        seen.append((input_data, tool_use_id))
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": "deny",
                                       "permissionDecisionReason": "The guard said no."}}

    hooks = {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[guard])]}
    messages = await run("touch it", options(cli, project, hooks=hooks,
                                             permission_mode="bypassPermissions"))

    assert not (project / "hooked.txt").exists()
    [(payload, tool_use_id)] = seen
    assert tool_use_id == "toolu_bash_3"
    assert payload["hook_event_name"] == "PreToolUse" and payload["tool_name"] == "Bash"
    assert payload["tool_input"]["command"] == "touch hooked.txt"
    assert payload["session_id"] == messages[-1].session_id and payload["cwd"] == str(project)
    [result] = tool_results(main_requests(server)[-1])
    assert result["is_error"] is True and "The guard said no." in result_text(result)
    assert messages[-1].result == "Blocked, fine."


async def test_a_rewritten_input_is_checked_against_the_deny_rules(
        cli: Cli, project: Path, scripted: Any, request: pytest.FixtureRequest) -> None:
    """The program allows the call but rewrites it into one a deny rule forbids: the rewrite
    is judged like the model's own call would be, and never runs."""
    request.applymarker(pytest.mark.xfail(
        cli.name == "claude-code", strict=True,
        reason="Claude Code 2.1.332 runs a rewritten input without checking the deny rules"))
    server = scripted([tool_use("Bash", {"command": "touch allowed.txt", "description": "t"},
                                "toolu_bash_4"), "Done."])

    async def can_use_tool(name: str, tool_input: dict[str, Any],
                           context: ToolPermissionContext) -> Any:
        return PermissionResultAllow(updated_input={**tool_input,
                                                    "command": "touch forbidden.txt"})

    messages = await run("touch it", options(cli, project, can_use_tool=can_use_tool,
                                             disallowed_tools=["Bash(touch forbidden.txt)"]))

    assert not (project / "forbidden.txt").exists() and not (project / "allowed.txt").exists()
    [result] = tool_results(main_requests(server)[-1])
    assert result["is_error"] is True
    assert messages[-1].result == "Done."


async def test_hook_callbacks_for_prompts_and_results(cli: Cli, project: Path,
                                                     scripted: Any) -> None:
    """UserPromptSubmit adds context the model sees; PostToolUse sees the call and its result."""
    server = scripted([tool_use("Bash", {"command": "echo from-bash", "description": "echo"},
                                "toolu_bash_5"), "Seen."])
    fired: list[tuple[str, dict[str, Any]]] = []

    async def on_prompt(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        fired.append(("prompt", input_data))
        return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                       "additionalContext": "The secret word is xyzzy."}}

    async def after_tool(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        fired.append(("tool", input_data))
        return {}

    hooks = {"UserPromptSubmit": [HookMatcher(hooks=[on_prompt])],
             "PostToolUse": [HookMatcher(matcher="Bash", hooks=[after_tool])]}
    messages = await run("run it", options(cli, project, hooks=hooks,
                                           permission_mode="bypassPermissions"))

    assert [kind for kind, _ in fired] == ["prompt", "tool"]
    assert fired[0][1]["prompt"] == "run it"
    assert fired[1][1]["tool_name"] == "Bash" and fired[1][1]["tool_use_id"] == "toolu_bash_5"
    assert "from-bash" in str(fired[1][1]["tool_response"])
    assert "xyzzy" in str(main_requests(server)[0]["messages"])
    assert messages[-1].result == "Seen."


async def test_updated_permissions_of_an_allow_apply_to_later_calls(cli: Cli, project: Path,
                                                                    scripted: Any) -> None:
    """An allow that adds a session rule: the next matching call is not asked about."""
    scripted([tool_use("Bash", {"command": "touch one.txt", "description": "t"}, "toolu_p1"),
              tool_use("Bash", {"command": "touch two.txt", "description": "t"}, "toolu_p2"),
              "Both made."])
    asked: list[str] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any],
                           context: ToolPermissionContext) -> Any:
        asked.append(tool_input["command"])
        rule = PermissionRuleValue(tool_name="Bash", rule_content="touch:*")
        return PermissionResultAllow(updated_permissions=[PermissionUpdate(
            type="addRules", rules=[rule], behavior="allow", destination="session")])

    messages = await run("make two files", options(cli, project, can_use_tool=can_use_tool))

    assert (project / "one.txt").exists() and (project / "two.txt").exists()
    assert asked == ["touch one.txt"]
    assert messages[-1].result == "Both made."
    assert not (project / ".claude" / "settings.local.json").exists()  # a session rule
