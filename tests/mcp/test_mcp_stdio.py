"""A real MCP server over stdio (the `mcp` SDK, run with this Python): its tools in the pool after
the built-ins, called through the real 14-stage pipeline with real permission rules.

One server process is shared by the tests of this module (starting one takes a second or two).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from claude_harness.mcp import McpManager
from claude_harness.protocol.events import DenialRecorded
from claude_harness.tools.registry import assemble_tool_pool, get_all_base_tools
from tests.mcp.support import call, demo, make_ctx, permission, text_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

ALL = ("mcp__srv", "mcp__envsrv")  # allow rules for both test servers


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def manager(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[McpManager]:
    cwd = tmp_path_factory.mktemp("project")
    env_server = demo("envsrv", env={"DEMO_VALUE": "${MCP_TEST_UNSET_VAR_XYZ:-fallback}"})
    from claude_harness.mcp.config import parse_server

    # The env entry goes through the real config parser, so ${VAR:-default} is expanded there.
    raw = {"command": env_server.command, "args": list(env_server.args),
           "env": {"DEMO_VALUE": "${MCP_TEST_UNSET_VAR_XYZ:-fallback}"}}
    expanded = parse_server("envsrv", raw, scope="cli", source="test", env={})
    mgr = McpManager([demo("srv"), expanded], cwd=cwd, startup_timeout=30)
    mgr.start()
    assert await mgr.wait_ready(40)
    yield mgr
    await mgr.close()


def _names(pool: tuple) -> list[str]:
    return [t.name for t in pool]


async def test_servers_connect_and_status_lists_them(manager: McpManager) -> None:
    states = {s.name: s for s in manager.status()}
    assert states["srv"].state == "connected", states["srv"].error
    assert states["srv"].tool_count == 13 and states["srv"].has_resources
    text = manager.format_status()
    assert "srv · ✔ connected · stdio" in text and "13 tools" in text
    assert manager.init_info() == [{"name": "srv", "status": "connected"},
                                   {"name": "envsrv", "status": "connected"}]


async def test_tools_come_after_builtins_sorted_with_mcp_names(
    manager: McpManager, tmp_path: Path
) -> None:
    pool = assemble_tool_pool(permission(tmp_path), mcp_tools=manager.tools())
    names = _names(pool)
    builtin = sorted(t.name for t in get_all_base_tools() if t.is_enabled())
    assert names[: len(builtin)] == builtin
    mcp_part = names[len(builtin):]
    assert mcp_part == sorted(mcp_part)
    assert {"mcp__srv__echo", "mcp__srv__danger", "mcp__srv__crash", "mcp__envsrv__env",
            "ListMcpResourcesTool", "ReadMcpResourceTool"} <= set(mcp_part)
    echo = next(t for t in pool if t.name == "mcp__srv__echo")
    schema = echo.api_schema()["input_schema"]
    assert schema["required"] == ["text"] and schema["properties"]["times"]["type"] == "integer"
    assert echo.is_read_only(None) and echo.is_concurrency_safe(None)
    danger = next(t for t in pool if t.name == "mcp__srv__danger")
    assert not danger.is_read_only(None) and not danger.is_concurrency_safe(None)


async def test_deny_rule_removes_only_that_tool(manager: McpManager, tmp_path: Path) -> None:
    pool = assemble_tool_pool(permission(tmp_path, deny=("mcp__srv__danger",)),
                              mcp_tools=manager.tools())
    assert "mcp__srv__danger" not in _names(pool)
    assert "mcp__srv__echo" in _names(pool)
    ctx = make_ctx(permission(tmp_path, deny=("mcp__srv__danger",)), pool)
    outcome = await call(ctx, "mcp__srv__danger", {"path": str(tmp_path / "x")})
    assert outcome.is_error and "No such tool available" in text_of(outcome)
    assert not (tmp_path / "x").exists()


async def test_server_wide_deny_rule_removes_all_its_tools(
    manager: McpManager, tmp_path: Path
) -> None:
    pool = assemble_tool_pool(permission(tmp_path, deny=("mcp__srv",)), mcp_tools=manager.tools())
    assert not [n for n in _names(pool) if n.startswith("mcp__srv__")]
    assert "mcp__envsrv__env" in _names(pool)


async def test_write_tool_needs_a_rule_in_non_interactive_mode(
    manager: McpManager, tmp_path: Path
) -> None:
    marker = tmp_path / "marker.txt"
    perm = permission(tmp_path)
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    events: list[Any] = []
    denied = await call(ctx, "mcp__srv__danger", {"path": str(marker)}, events)
    assert denied.is_error and "not granted" in text_of(denied)
    assert not marker.exists()
    denials = [e for e in events if isinstance(e, DenialRecorded)]
    assert denials and denials[0].tool_name == "mcp__srv__danger"

    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    allowed = await call(ctx, "mcp__srv__danger", {"path": str(marker)})
    assert not allowed.is_error, allowed.content
    assert text_of(allowed) == f"wrote {marker}"
    assert marker.read_text() == "touched"


async def test_a_read_only_hint_is_not_consent_but_a_tool_rule_is(
    manager: McpManager, tmp_path: Path
) -> None:
    perm = permission(tmp_path)  # the server calls echo read-only; that is its claim, not ours
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    refused = await call(ctx, "mcp__srv__echo", {"text": "ab"})
    assert refused.is_error and "not granted" in text_of(refused)

    perm = permission(tmp_path, allow=("mcp__srv__echo",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    outcome = await call(ctx, "mcp__srv__echo", {"text": "ab", "times": 3})
    assert not outcome.is_error
    assert outcome.content == "srv: ababab"
    assert outcome.trace[-1] == "error_classification"  # every stage ran
    other = await call(ctx, "mcp__srv__pid", {})  # the rule names one tool only
    assert other.is_error


async def test_read_only_calls_run_in_parallel_on_one_server(
    manager: McpManager, tmp_path: Path
) -> None:
    import asyncio
    import time

    perm = permission(tmp_path, allow=ALL)
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    began = time.monotonic()
    outcomes = await asyncio.gather(*(call(ctx, "mcp__srv__sleep", {"seconds": 1}) for _ in range(3)))
    assert [o.content for o in outcomes] == ["slept"] * 3
    assert time.monotonic() - began < 2.5  # three 1 s calls overlapped


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({}, "The required parameter `text` is missing"),
        ({"text": "a", "times": "many"}, "The parameter `times` is invalid: 'many' is not of type"),
    ],
)
async def test_invalid_input_is_a_clear_error_and_never_reaches_the_server(
    manager: McpManager, tmp_path: Path, args: dict, expected: str
) -> None:
    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    outcome = await call(ctx, "mcp__srv__echo", args)
    assert outcome.is_error
    assert expected in text_of(outcome)
    assert outcome.trace[-1] == "schema_validation"


async def test_server_side_error_is_an_error_result(manager: McpManager, tmp_path: Path) -> None:
    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    outcome = await call(ctx, "mcp__srv__fail", {"reason": "disk full"})
    assert outcome.is_error
    assert "fail" in text_of(outcome)


async def test_image_content_becomes_an_image_block(manager: McpManager, tmp_path: Path) -> None:
    perm = permission(tmp_path, allow=("mcp__srv",))
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    outcome = await call(ctx, "mcp__srv__image", {})
    assert not outcome.is_error
    assert isinstance(outcome.content, list)
    assert outcome.content[0] == {"type": "text", "text": "a pixel"}
    image = outcome.content[1]
    assert image["type"] == "image" and image["source"]["media_type"] == "image/png"


async def test_output_over_the_mcp_limit_is_budgeted(
    manager: McpManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    perm = permission(tmp_path, allow=ALL)
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()),
                   session_dir=tmp_path / "session")
    outcome = await call(ctx, "mcp__srv__big", {"chars": 120_000})
    assert not outcome.is_error
    assert isinstance(outcome.content, str)
    assert outcome.content.startswith("<persisted-output>")
    saved = next((tmp_path / "session" / "tool-results").iterdir())
    assert saved.read_text() == "x" * 120_000
    small = await call(ctx, "mcp__srv__big", {"chars": 500})
    assert small.content == "x" * 500


async def test_env_default_expansion_reaches_the_server(
    manager: McpManager, tmp_path: Path
) -> None:
    perm = permission(tmp_path, allow=ALL)
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    outcome = await call(ctx, "mcp__envsrv__env", {"var": "DEMO_VALUE"})
    assert outcome.content == "fallback"


async def test_resources_are_listed_and_read_through_tools(
    manager: McpManager, tmp_path: Path
) -> None:
    perm = permission(tmp_path)
    ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))
    listed = await call(ctx, "ListMcpResourcesTool", {})
    assert not listed.is_error, listed.content
    entries = json.loads(text_of(listed))
    assert {(e["server"], e["uri"]) for e in entries} == {("srv", "memo://notes"),
                                                          ("envsrv", "memo://notes")}
    one = await call(ctx, "ListMcpResourcesTool", {"server": "srv"})
    assert [e["server"] for e in json.loads(text_of(one))] == ["srv"]
    read = await call(ctx, "ReadMcpResourceTool", {"server": "srv", "uri": "memo://notes"})
    assert read.content == "notes from srv"
    missing = await call(ctx, "ReadMcpResourceTool", {"server": "nope", "uri": "memo://notes"})
    assert missing.is_error and "No MCP server named 'nope'" in text_of(missing)


async def test_mcp_tools_never_change_builtin_schema_bytes(
    manager: McpManager, tmp_path: Path
) -> None:
    perm = permission(tmp_path)
    builtins = {t.name for t in get_all_base_tools()}

    def builtin_bytes(pool: tuple) -> dict[str, str]:
        return {t.name: json.dumps(t.api_schema()) for t in pool if t.name in builtins}

    without = assemble_tool_pool(perm)
    one_server = [t for t in manager.tools() if t.name.startswith("mcp__envsrv__")]
    with_one = assemble_tool_pool(perm, mcp_tools=one_server)
    with_all = assemble_tool_pool(perm, mcp_tools=manager.tools())
    # every built-in serialises to the same bytes whatever MCP servers are connected
    base = builtin_bytes(without)
    for pool in (with_one, with_all):
        assert {n: b for n, b in builtin_bytes(pool).items() if n in base} == base
    # adding a server keeps the whole built-in part of the tools array as a byte-identical prefix
    prefix = json.dumps([t.api_schema() for t in without])[:-1]
    for pool in (with_one, with_all):
        assert json.dumps([t.api_schema() for t in pool]).startswith(prefix + ", ")
    # the MCP tools themselves serialise the same way on every turn
    assert json.dumps([t.api_schema() for t in manager.tools()]) == json.dumps(
        [t.api_schema() for t in manager.tools()])


async def test_hooks_see_and_can_block_mcp_calls(manager: McpManager, tmp_path: Path) -> None:
    import sys
    from dataclasses import replace

    from claude_harness.hooks import HookConfig, HookRunner

    log = tmp_path / "hook-log.jsonl"
    script = tmp_path / "hook.py"
    script.write_text(
        "import json, sys\n"
        "payload = json.load(sys.stdin)\n"
        f"open({str(log)!r}, 'a').write(json.dumps(payload) + '\\n')\n"
        "if payload['hook_event_name'] == 'PreToolUse' and "
        "'blocked' in payload['tool_input'].get('path', ''):\n"
        "    sys.stderr.write('no writes to blocked paths')\n"
        "    sys.exit(2)\n",
        encoding="utf-8",
    )
    command = f"{sys.executable} {script}"
    hooks = {event: [{"matcher": "mcp__srv__.*", "hooks": [{"type": "command",
                                                            "command": command}]}]
             for event in ("PreToolUse", "PostToolUse")}
    config = HookConfig.from_sources([("userSettings", tmp_path / "settings.json", hooks)])
    runner = HookRunner(config, project_dir=tmp_path, session_id="s",
                        transcript_path=str(tmp_path / "t.jsonl"), get_permission_mode=lambda: "default")
    perm = permission(tmp_path, allow=ALL)
    ctx = replace(make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools())), hooks=runner)

    blocked = await call(ctx, "mcp__srv__danger", {"path": str(tmp_path / "blocked.txt")})
    assert blocked.is_error and "no writes to blocked paths" in text_of(blocked)
    assert not (tmp_path / "blocked.txt").exists()

    done = await call(ctx, "mcp__srv__danger", {"path": str(tmp_path / "fine.txt")})
    assert not done.is_error and (tmp_path / "fine.txt").exists()
    other = await call(ctx, "mcp__envsrv__env", {"var": "HOME"})  # not matched by the hooks
    assert not other.is_error

    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["hook_event_name"], e["tool_name"]) for e in events] == [
        ("PreToolUse", "mcp__srv__danger"), ("PreToolUse", "mcp__srv__danger"),
        ("PostToolUse", "mcp__srv__danger")]
    assert events[2]["tool_response"] == f"wrote {tmp_path / 'fine.txt'}"
