"""Front matter read by a YAML parser, with Claude Code's leniency (observed on 2.1.332)."""

from __future__ import annotations

from claude_harness.config.frontmatter import parse_front_matter
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
                       "model": "claude-haiku-4-5", "empty": None}
    assert fm.text("empty") == "" and fm.has("empty") is False
    assert fm.body == "Body line 1\nBody # not a comment\n"
    assert fm.warnings == [] and fm.error is None and fm.present


def test_lists_in_every_form() -> None:
    fm = parse_front_matter(
        "---\n"
        "tools:\n"
        "  - Read\n"
        "  - 'Bash(git *)'\n"
        "flow: [a, \"b, c\", d]\n"
        "next-line-flow:\n"
        "  [x, y]\n"
        "bare:\n"
        "- x\n"
        "- y\n"
        "allowed-tools: Bash(git add:*), Bash(git commit -m *) Read\n"
        "---\n"
    )
    assert fm.items("tools") == ["Read", "Bash(git *)"]
    assert fm.items("flow") == ["a", "b, c", "d"]
    assert fm.items("next-line-flow") == ["x", "y"]  # the old hand parser turned this into junk
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
    assert fm.data["literal"] == "line one\n  indented\n\nline three\n"
    assert fm.data["folded"] == "joined words\n"
    assert fm.data["long"] == "a plain value continued here"


def test_nested_mappings_are_real_mappings() -> None:
    fm = parse_front_matter("---\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\n")
    assert fm.data["hooks"] == {"PreToolUse": [{"matcher": "Bash"}]}
    assert fm.warnings == []


def test_yaml_1_2_scalars_keep_words_and_dates_as_text() -> None:
    fm = parse_front_matter("---\ndescription: yes\nwhen: 2024-01-01\non: true\n---\n")
    assert fm.data == {"description": "yes", "when": "2024-01-01", "on": True}


def test_real_lines_that_are_not_yaml_load_after_quoting() -> None:
    """What Claude Code accepts: values with `: `, brackets or quotes, as real files have."""
    fm = parse_front_matter(
        "---\n"
        "description: Review code: carefully, with care\n"
        "argument-hint: [file] [focus]\n"
        'summary: He said "hi": then\n'
        "odd: [oops\n"
        "allowed-tools:\n"
        "\t- Read\n"
        "---\nbody"
    )
    assert fm.error is None
    assert fm.data == {"description": "Review code: carefully, with care",
                       "argument-hint": "[file] [focus]", "summary": 'He said "hi": then',
                       "odd": "[oops", "allowed-tools": ["Read"]}


def test_front_matter_that_stays_broken_is_an_error_not_a_guess() -> None:
    fm = parse_front_matter('---\nname: x\ndescription: "unterminated\n---\nfirst line')
    assert fm.data == {} and fm.present
    assert fm.error is not None and "not valid YAML" in fm.error
    assert fm.body == "first line"
    examples = parse_front_matter("---\nname: a\ndescription: Use it. Examples:\n\n"
                                  "<example>\nuser: \"go\"\n</example>\n---\nx")
    assert examples.data == {} and examples.error


def test_no_front_matter_crlf_and_unclosed() -> None:
    assert parse_front_matter("just text\n").body == "just text\n"
    crlf = parse_front_matter("---\r\ndescription: x\r\n---\r\nbody\r\n")
    assert crlf.data == {"description": "x"} and crlf.body == "body\n"
    unclosed = parse_front_matter("---\ndescription: x\nbody")
    assert unclosed.data == {} and unclosed.body.startswith("---")
    assert "no closing" in unclosed.warnings[0]
    assert parse_front_matter("---\n- a\n- b\n---\n").error  # a list is not fields


def test_flags_and_split_items() -> None:
    fm = parse_front_matter("---\na: true\nb: no\nc: 'yes'\nd: false\n---\n")
    assert fm.flag("a") is True and fm.flag("b") is False and fm.flag("c") is True
    assert fm.flag("d") is False and fm.flag("zzz") is False and fm.flag("zzz", True) is True
    assert split_items(" Read,Grep ,  Glob ") == ["Read", "Grep", "Glob"]
