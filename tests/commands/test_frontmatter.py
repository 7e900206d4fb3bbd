"""The front matter subset command and agent files use."""

from __future__ import annotations

from claude_harness.commands.frontmatter import parse_front_matter
from claude_harness.permissions.rule_lists import split_rule_list as split_items


def test_scalars_quotes_comments_and_body() -> None:
    fm = parse_front_matter(
        "---\n"
        "description: Review the diff   # trailing comment\n"
        'argument-hint: "[file] [focus]"\n'
        "model: 'claude-haiku-4-5'\n"
        "empty:\n"
        "# a comment line\n"
        "---\n"
        "\n"
        "Body line 1\n"
        "Body # not a comment\n"
    )
    assert fm.data == {"description": "Review the diff", "argument-hint": "[file] [focus]",
                       "model": "claude-haiku-4-5", "empty": ""}
    assert fm.body == "Body line 1\nBody # not a comment\n"
    assert fm.warnings == []


def test_lists_in_every_form() -> None:
    fm = parse_front_matter(
        "---\n"
        "tools:\n"
        "  - Read\n"
        "  - 'Bash(git *)'\n"
        "flow: [a, \"b, c\", d]\n"
        "bare:\n"
        "- x\n"
        "- y\n"
        "allowed-tools: Bash(git add:*), Bash(git commit -m *) Read\n"
        "---\n"
    )
    assert fm.items("tools") == ["Read", "Bash(git *)"]
    assert fm.items("flow") == ["a", "b, c", "d"]
    assert fm.items("bare") == ["x", "y"]
    assert fm.items("allowed-tools") == ["Bash(git add:*)", "Bash(git commit -m *)", "Read"]
    assert fm.items("missing") is None


def test_block_scalars_and_continued_lines() -> None:
    fm = parse_front_matter(
        "---\n"
        "literal: |\n"
        "  line one\n"
        "    indented\n"
        "\n"
        "  line three\n"
        "folded: >\n"
        "  joined\n"
        "  words\n"
        "long: a plain value\n"
        "  continued here\n"
        "---\nbody"
    )
    assert fm.data["literal"] == "line one\n  indented\n\nline three"
    assert fm.data["folded"] == "joined words"
    assert fm.data["long"] == "a plain value continued here"


def test_no_front_matter_crlf_and_unclosed() -> None:
    assert parse_front_matter("just text\n").body == "just text\n"
    crlf = parse_front_matter("---\r\ndescription: x\r\n---\r\nbody\r\n")
    assert crlf.data == {"description": "x"} and crlf.body == "body\n"
    unclosed = parse_front_matter("---\ndescription: x\nbody")
    assert unclosed.data == {} and unclosed.body.startswith("---")
    assert "no closing" in unclosed.warnings[0]


def test_nested_mapping_is_kept_as_text_with_a_warning() -> None:
    fm = parse_front_matter("---\nhooks:\n  PreToolUse: x\n---\n")
    assert fm.data["hooks"] == "PreToolUse: x"
    assert "nested values are not supported" in fm.warnings[0]


def test_flags_and_split_items() -> None:
    fm = parse_front_matter("---\na: true\nb: no\n---\n")
    assert fm.flag("a") is True and fm.flag("b") is False and fm.flag("c") is False
    assert split_items(" Read,Grep ,  Glob ") == ["Read", "Grep", "Glob"]
