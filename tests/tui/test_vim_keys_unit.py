"""vim_keys.py on its own: each documented command on a small text, grapheme-aware."""

from __future__ import annotations

import pytest

from claude_harness.frontends.tui.widgets.vim_keys import INSERT, NORMAL, VimKeys

FAMILY = "👩\u200d👩\u200d👧"


def run(text: str, cursor: int, keys: str) -> tuple[str, int, str]:
    """Type `keys` in NORMAL mode (INSERT typing inserts; \\x1b is Esc)."""
    vim = VimKeys(mode=NORMAL)
    for key in keys:
        if vim.mode == INSERT:
            if key == "\x1b":
                edit = vim.escape(text, cursor)
                text, cursor = edit.text, edit.cursor
            else:
                text, cursor = text[:cursor] + key + text[cursor:], cursor + 1
            continue
        edit = vim.key(key, text, cursor)
        if edit is not None:
            text, cursor = edit.text, edit.cursor
    return text, cursor, vim.mode


@pytest.mark.parametrize(("text", "cursor", "keys", "expected"), [
    ("hello world foo", 0, "dw", "world foo"),
    ("hello world foo", 0, "2dw", "foo"),
    ("hello world foo", 0, "d2w", "foo"),
    ("hello world foo", 0, "cwbye\x1b", "bye world foo"),
    ("hello world foo", 0, "cwbye\x1bw.", "bye bye foo"),
    ("hello world", 0, "ex", "hell world"),
    ("hello world", 0, "D", ""),
    ("hello world", 6, "0C!\x1b", "!"),
    ("a\nb\nc", 0, "jdd", "a\nc"),
    ("a\nb\nc", 4, "dd", "a\nb"),
    ("a\nb\nc", 0, "yyp", "a\na\nb\nc"),
    ("a\nb\nc", 0, "2yyjp", "a\nb\na\nb\nc"),
    ("one two", 0, "wiX\x1b", "one Xtwo"),
    ("one two", 0, "Aend\x1b", "one twoend"),
    ("  one", 4, "Ibeg\x1b", "  begone"),
    ("one\ntwo", 0, "onew\x1b", "one\nnew\ntwo"),
    ("one\ntwo", 4, "Onew\x1b", "one\nnew\ntwo"),
    ("one two three", 0, "dwu", "one two three"),
    ("a b c d e", 0, "x...", "c d e"),
    ("one\ntwo\nthree", 0, "Gx", "one\ntwo\nhree"),
    ("one\ntwo\nthree", 10, "ggx", "ne\ntwo\nthree"),
    ("say (hello there) ok", 7, "ci(x\x1b", "say (x) ok"),
    ('say "hi there" ok', 6, 'di"', 'say "" ok'),
    ("a,b,c", 0, "fbx", "a,,c"),
    ("a,b,c", 0, "f,;x", "a,bc"),
    ("one two", 0, "3x", " two"),
    ("abcdefghijklm", 0, "10x", "klm"),
    ("a b c d e f g h i j k l", 0, "d10w", "k l"),
    ("abc", 2, "0x", "bc"),
    ("one two", 0, "cc\x1b", ""),
    ("one\ntwo", 0, "J", "one two"),
    ("abc", 1, "rZ", "aZc"),
    ("abc", 0, "~~", "ABc"),
    ("one", 0, ">>", "  one"),
    ("one two", 1, "yiwP", "oneone two"),
    (f"x{FAMILY}y", 0, "lx", "xy"),
    (f"{FAMILY}{FAMILY}", 0, "x", FAMILY),
    (f"a {FAMILY} b", 0, "wdw", "a b"),
])
def test_normal_mode_commands(text: str, cursor: int, keys: str, expected: str) -> None:
    assert run(text, cursor, keys)[0] == expected


def test_motions_land_by_grapheme_and_stay_on_the_last_character() -> None:
    assert run(f"x{FAMILY}y", 0, "l")[1] == 1
    assert run(f"x{FAMILY}y", 0, "ll")[1] == 1 + len(FAMILY)
    assert run(f"x{FAMILY}y", 0, "$")[1] == 1 + len(FAMILY)
    assert run("hello", 0, "9l")[1] == 4  # never past the last character in NORMAL
    assert run("  hi there", 8, "^")[1] == 2
    assert run("ab\ncdef", 5, "k")[1] == 1  # the column, clamped to the shorter line
    assert run("one two", 0, "e")[1] == 2
    assert run("one two", 6, "b")[1] == 4


def test_escape_leaves_insert_one_character_left_and_counts_wait() -> None:
    vim = VimKeys()
    assert vim.mode == INSERT  # the vim input starts in INSERT, as Claude Code's does
    edit = vim.escape("abc", 3)
    assert (vim.mode, edit.cursor) == (NORMAL, 2)
    assert vim.key("2", "abc", 2) is None and vim.key("d", "abc", 2) is None
    assert vim.key("d", "a\nb\nc", 0).text == "c"  # type: ignore[union-attr]
