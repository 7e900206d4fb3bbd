"""The pure pieces of the ACP front end: how tool calls, prompts, MCP servers, a replayed
conversation and a malformed line translate (fast, no process)."""

from __future__ import annotations

import json

import pytest
from acp import RequestError
from acp.schema import (
    AudioContentBlock,
    EmbeddedResourceContentBlock,
    HttpMcpServer,
    ImageContentBlock,
    McpServerStdio,
    ResourceContentBlock,
    SseMcpServer,
    TextContentBlock,
    TextResourceContents,
)

from claude_harness.frontends.acp import tool_calls
from claude_harness.frontends.acp.mcp_servers import mcp_config_value
from claude_harness.frontends.acp.prompt import to_prompt
from claude_harness.frontends.acp.replay import replay_updates
from claude_harness.frontends.acp.transport import problem


@pytest.mark.parametrize(("name", "tool_input", "kind", "title"), [
    ("Read", {"file_path": "/p/a.py", "offset": 10, "limit": 5}, "read",
     "Read /p/a.py (lines 10-14)"),
    ("Edit", {"file_path": "/p/a.py", "old_string": "a", "new_string": "b"}, "edit",
     "Edit /p/a.py"),
    ("Write", {"file_path": "/p/new.py", "content": "x"}, "edit", "Write /p/new.py"),
    ("Bash", {"command": "ls -la\necho more"}, "execute", "`ls -la`"),
    ("Grep", {"pattern": "TODO", "path": "/p"}, "search", "grep TODO in /p"),
    ("Glob", {"pattern": "**/*.py"}, "search", "Find **/*.py"),
    ("WebFetch", {"url": "https://x.test"}, "fetch", "Fetch https://x.test"),
    ("TodoWrite", {"todos": []}, "think", "Update the plan"),
    ("ExitPlanMode", {"plan": "p"}, "switch_mode", "Ready to code?"),
    ("mcp__demo__echo", {"text": "hi"}, "other", "echo (demo)"),
])
def test_tool_kinds_and_titles(name: str, tool_input: dict, kind: str, title: str) -> None:
    assert tool_calls.kind(name) == kind
    assert tool_calls.title(name, tool_input) == title


def test_locations_and_diffs() -> None:
    [read] = tool_calls.locations("Read", {"file_path": "/p/a.py", "offset": 7})
    assert (read.path, read.line) == ("/p/a.py", 7)
    [edit_diff] = tool_calls.start_content("Edit", {"file_path": "/p/a.py", "old_string": "old",
                                                    "new_string": "new"})
    dumped = edit_diff.model_dump(by_alias=True)
    assert dumped == {"type": "diff", "path": "/p/a.py", "oldText": "old", "newText": "new",
                      "_meta": None}
    [write_diff] = tool_calls.start_content("Write", {"file_path": "/p/n.py", "content": "x\n"})
    assert (write_diff.old_text, write_diff.new_text) == (None, "x\n")
    assert tool_calls.locations("Bash", {"command": "ls"}) == []


def test_result_content_keeps_an_edits_diff_and_shows_a_commands_output() -> None:
    assert tool_calls.result_content("Edit", "edited", False) is None
    [failed] = tool_calls.result_content("Edit", "old_string not found", True)
    assert failed.content.text == "old_string not found"
    [out] = tool_calls.result_content("Bash", "hello\n", False)
    assert out.content.text == "```console\nhello\n\n```"
    [big] = tool_calls.result_content("Read", "x" * 50_000, False)
    assert len(big.content.text) < 41_000 and "more characters" in big.content.text


def test_text_and_file_links_become_a_prompt_with_mentions() -> None:
    prompt = to_prompt([TextContentBlock(type="text", text="look at"),
                        ResourceContentBlock(type="resource_link", uri="file:///p/my%20file.py",
                                             name="my file.py"),
                        ResourceContentBlock(type="resource_link", uri="https://x.test/a",
                                             name="a")])
    assert prompt == 'look at @"/p/my file.py" [@a](https://x.test/a)'


def test_buffers_and_images_become_blocks() -> None:
    blocks = to_prompt([
        TextContentBlock(type="text", text="see"),
        EmbeddedResourceContentBlock(type="resource", resource=TextResourceContents(
            uri="file:///p/a.py", text="A = 1")),
        ImageContentBlock(type="image", mime_type="image/png", data="AAAA")])
    assert isinstance(blocks, tuple)
    assert blocks[0] == {"type": "text", "text": "see"}
    assert blocks[2]["source"] == {"type": "base64", "media_type": "image/png", "data": "AAAA"}
    assert blocks[-1]["text"] == '\n<context ref="file:///p/a.py">\nA = 1\n</context>'
    with pytest.raises(RequestError, match="audio content is not supported"):
        to_prompt([AudioContentBlock(type="audio", mime_type="audio/wav", data="AAAA")])


def test_the_clients_mcp_servers_as_our_config() -> None:
    value = mcp_config_value([
        McpServerStdio(name="local", command="/bin/srv", args=["-v"],
                       env=[{"name": "TOKEN", "value": "t"}]),
        HttpMcpServer(type="http", name="remote", url="https://m.test/mcp",
                      headers=[{"name": "Authorization", "value": "Bearer x"}]),
        SseMcpServer(type="sse", name="old", url="https://m.test/sse", headers=[])])
    servers = json.loads(value or "")["mcpServers"]
    assert servers["local"] == {"type": "stdio", "command": "/bin/srv", "args": ["-v"],
                                "env": {"TOKEN": "t"}}
    assert servers["remote"] == {"type": "http", "url": "https://m.test/mcp",
                                 "headers": {"Authorization": "Bearer x"}}
    assert servers["old"]["type"] == "sse"
    assert mcp_config_value([]) is None


def test_a_conversation_replays_in_order_without_what_we_added() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "fix it"},
                                     {"type": "text", "text": "<system-reminder>x</system-reminder>"}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "hmm", "signature": "s"},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                      "content": "boom", "is_error": True}]},
        {"role": "assistant", "content": [{"type": "text", "text": "It failed."}]},
    ]
    updates = list(replay_updates(messages))
    assert [u.session_update for u in updates] == [
        "user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update",
        "agent_message_chunk"]
    assert updates[0].content.text == "fix it"
    assert (updates[2].kind, updates[3].status) == ("execute", "failed")


@pytest.mark.parametrize(("line", "code"), [
    (b"not json", -32700), (b"[1]", -32600), (b'{"id": {"a": 1}, "method": "x"}', -32600),
    (b'{"id": 1, "method": 5}', -32600), (b'{"jsonrpc": "2.0"}', -32600)])
def test_a_malformed_line_is_its_json_rpc_error(line: bytes, code: int) -> None:
    message, error = problem(line)
    assert message is None and error is not None and error["error"]["code"] == code


def test_a_well_formed_line_passes() -> None:
    message, error = problem(b'{"jsonrpc": "2.0", "id": 1, "method": "initialize"}')
    assert error is None and message is not None and message["method"] == "initialize"
