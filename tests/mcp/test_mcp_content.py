"""Names fitted to the API's pattern, and MCP content blocks turned into tool_result content
(built from the SDK's own types)."""

from __future__ import annotations

import re

import mcp_types as t

from claude_harness.mcp.content import McpCallResult, call_result, cap_blocks, convert_result
from claude_harness.mcp.names import sanitize
from claude_harness.mcp.tools import mcp_tool_name

API_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")


def test_names_are_sanitised_and_capped() -> None:
    assert mcp_tool_name("my server.v2", "get/item") == "mcp__my_server_v2__get_item"
    assert sanitize("") == "_"
    long = mcp_tool_name("s" * 100, "t" * 100)
    assert len(long) == 128 and API_NAME.match(long)
    assert API_NAME.match(mcp_tool_name("ünï cödé", "tööl"))


def test_text_only_result_is_one_string() -> None:
    content = [t.TextContent(type="text", text="a"), t.TextContent(type="text", text="b")]
    assert convert_result(content) == "a\nb"
    assert convert_result([]) == "(no content)"
    assert convert_result([], {"answer": 42}) == '{"answer": 42}'


def test_other_content_kinds() -> None:
    png = t.ImageContent(type="image", data="iVBOR", mime_type="image/png")
    bmp = t.ImageContent(type="image", data="Qk0", mime_type="image/bmp")
    audio = t.AudioContent(type="audio", data="AAAA", mime_type="audio/wav")
    link = t.ResourceLink(type="resource_link", name="spec", uri="file:///spec.md",
                          description="The spec")
    text_res = t.EmbeddedResource(type="resource", resource=t.TextResourceContents(
        uri="memo://a", text="embedded text"))
    blob_res = t.EmbeddedResource(type="resource", resource=t.BlobResourceContents(
        uri="memo://b", blob="AAAA", mime_type="application/zip"))
    out = convert_result([png, bmp, audio, link, text_res, blob_res], server="docs")
    assert isinstance(out, list)
    assert out[0] == {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                  "data": "iVBOR"}}
    texts = [b["text"] for b in out[1:]]
    assert "image/bmp" in texts[0] and "not shown" in texts[0]
    assert "audio/wav" in texts[1]
    assert texts[2] == "[Resource link: spec] file:///spec.md (The spec)"
    assert texts[3] == "[Resource from docs at memo://a] embedded text"
    assert "application/zip" in texts[4] and "3 bytes" in texts[4]


def test_structured_content_and_links_are_kept_for_programs() -> None:
    """Claude Code's shapes: the model reads the text, `tool_use_result` carries
    `structuredContent` (or `resourceLinks` with their metadata) beside it."""
    weather = t.CallToolResult(content=[t.TextContent(type="text", text='{"t":3}')],
                               structured_content={"t": 3})
    done = call_result(weather, "w")
    assert done.content == '{"t":3}'
    assert done.tool_use_result() == {"content": '{"t":3}', "structuredContent": {"t": 3}}
    only = call_result(t.CallToolResult(content=[], structured_content={"t": 4}), "w")
    assert only.content == '{"t": 4}' and only.structured == {"t": 4}
    link = t.ResourceLink(type="resource_link", name="a", uri="memo://a", description="A",
                          mime_type="text/plain")
    linked = call_result(t.CallToolResult(content=[link]), "w")
    assert linked.content == "[Resource link: a] memo://a (A)"
    assert linked.tool_use_result() == {"content": linked.content, "resourceLinks": [
        {"name": "a", "uri": "memo://a", "description": "A",
         "mimeType": "text/plain"}]}
    plain = McpCallResult("x")
    assert plain.tool_use_result() == "x"


def test_text_in_mixed_results_is_capped() -> None:
    blocks = [{"type": "text", "text": "a" * 60}, {"type": "image", "source": {}},
              {"type": "text", "text": "b" * 60}]
    capped = cap_blocks(blocks, 100)
    assert capped[0]["text"] == "a" * 60 and capped[1]["type"] == "image"
    assert capped[2]["text"].startswith("b" * 40 + "\n[output truncated")
    assert len(cap_blocks(blocks + [{"type": "text", "text": "c"}], 100)) == 3
