"""`@` mentions attach files, ranges, folders and images in Claude Code's shape (captured from
Claude Code 2.1.332: "Called the Read tool..." / "Result of calling the Read tool..." reminders
before the prompt), and mark the files as read so Edit can change them at once."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
from claude_harness.session.prompt.mentions import attach_mentions, find_mentions
from claude_harness.testing.validation import IssuedThinking, validate_request
from claude_harness.tools.edit import TOOL as EDIT
from claude_harness.tools.edit import EditInput
from tests.tools.conftest import make_ctx

PNG_1X1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    (tmp_path / "README.md").write_text("line one\nline two\nline three\n")
    (tmp_path / "sub dir").mkdir()
    (tmp_path / "sub dir" / "notes.txt").write_text("a\nb\n")
    (tmp_path / "pkg" / "inner").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / ".hidden").write_text("")
    (tmp_path / "dot.png").write_bytes(PNG_1X1)
    (tmp_path / ".env").write_text("SECRET=1\n")
    return tmp_path


def texts(blocks: list[dict]) -> list[str]:
    return [b["text"] if b["type"] == "text" else f"<{b['type']}>" for b in blocks]


def test_a_file_and_a_range_read_as_read_shows_them(proj: Path) -> None:
    out = attach_mentions("look at @README.md#L2-3 and @README.md", proj)
    assert texts(out.blocks) == [
        "<system-reminder>\nCalled the Read tool with the following input: "
        f'{{"file_path":"{proj}/README.md","offset":2,"limit":2}}\n</system-reminder>',
        "<system-reminder>\nResult of calling the Read tool:\n2\tline two\n3\tline three\n"
        "</system-reminder>",
        "<system-reminder>\nCalled the Read tool with the following input: "
        f'{{"file_path":"{proj}/README.md"}}\n</system-reminder>',
        "<system-reminder>\nResult of calling the Read tool:\n1\tline one\n2\tline two\n"
        "3\tline three\n</system-reminder>",
    ]
    content = out.prompt_content("look at @README.md#L2-3 and @README.md")
    assert content[-1] == {"type": "text", "text": "look at @README.md#L2-3 and @README.md"}


def test_a_folder_is_listed_as_ls_would(proj: Path) -> None:
    out = attach_mentions('see @pkg/ and @"sub dir/"', proj)
    assert texts(out.blocks) == [
        "<system-reminder>\nCalled the Bash tool with the following input: "
        f'{{"command":"ls {proj}/pkg","description":"Lists files in {proj}/pkg"}}\n'
        "</system-reminder>",
        "<system-reminder>\nResult of calling the Bash tool:\na.py\ninner\n</system-reminder>",
        "<system-reminder>\nCalled the Bash tool with the following input: "
        f'{{"command":"ls \'{proj}/sub dir\'","description":"Lists files in {proj}/sub dir"}}'
        "\n</system-reminder>",
        "<system-reminder>\nResult of calling the Bash tool:\nnotes.txt\n</system-reminder>",
    ]


def test_an_image_attaches_as_an_image_block(proj: Path) -> None:
    out = attach_mentions("what is in @dot.png?", proj)
    called, image = out.blocks
    assert '"file_path":' in called["text"] and "dot.png" in called["text"]
    assert image["type"] == "image" and image["source"]["media_type"] == "image/png"
    assert base64.b64decode(image["source"]["data"]) == PNG_1X1


@pytest.mark.parametrize(("text", "names"), [
    ('@"sub dir/notes.txt"', ["notes.txt"]),
    ("@sub\\ dir/notes.txt", ["notes.txt"]),
    ("write to me@example.com", []),
    ("@missing.txt and @README.md.", ["README.md"]),
    ("(@README.md) @README.md#L3", ["README.md", "README.md"]),
    ("@~/nowhere-at-all", []),
])
def test_what_counts_as_a_mention(proj: Path, text: str, names: list[str]) -> None:
    assert [m.path.name for m in find_mentions(text, proj)] == names


def test_reversed_and_single_line_ranges(proj: Path) -> None:
    (mention,) = find_mentions("@README.md#L3-1", proj)
    assert mention.read_input == {"file_path": str(proj / "README.md"), "offset": 1, "limit": 3}
    (single,) = find_mentions("@README.md#L2", proj)
    assert single.read_input["limit"] == 1


async def test_mentioned_files_count_as_read_for_edit(proj: Path) -> None:
    ctx = make_ctx(proj)
    out = attach_mentions("fix @README.md", proj)
    out.mark_read(ctx)
    inp = EditInput(file_path=str(proj / "README.md"), old_string="line two", new_string="2")
    await EDIT.call(inp, ctx, lambda _: None)
    assert (proj / "README.md").read_text() == "line one\n2\nline three\n"
    # a range is a partial read: it does not let Edit change the whole file unseen
    (proj / "other.txt").write_text("1\n2\n3\n")
    partial = attach_mentions("@other.txt#L1", proj)
    assert partial.read_files[0].partial


def test_deny_rules_and_unreadable_files_are_reported_not_attached(proj: Path) -> None:
    perm = PermissionContext(cwd=proj, rules=(
        PermissionRule("projectSettings", "deny", parse_rule("Read(./.env)")),))
    (proj / "blob.bin").write_bytes(b"\x00\x01binary")
    out = attach_mentions("@.env @blob.bin @README.md", proj, perm)
    assert [m.path.name for m in out.mentions] == ["README.md"]
    assert len(out.problems) == 2 and "deny rule" in out.problems[0]
    assert "SECRET" not in str(out.blocks)


def test_the_attached_prompt_is_a_valid_request(proj: Path) -> None:
    text = 'compare @README.md#L1 @"sub dir/" @dot.png'
    content = attach_mentions(text, proj).prompt_content(text)
    body = {"model": "claude-sonnet-5-5", "max_tokens": 100,
            "messages": [{"role": "user", "content": content}]}
    validate_request(body, IssuedThinking())
