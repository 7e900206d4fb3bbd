"""The grapheme clusters the prompt's cursor and deletion step by (terminal_graphemes)."""

from __future__ import annotations

from claude_harness.frontends.shared.terminal_graphemes import (
    clusters,
    next_boundary,
    previous_boundary,
)


def test_each_kind_of_cluster_is_one_character() -> None:
    family, accented, flags = "👩‍👩‍👧", "e\u0301", "🇫🇷🇩🇪"
    england = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    text = f"a{family}b{accented} {flags}中👍🏽❤️{england}\r\n"
    assert clusters(text) == ["a", family, "b", accented, " ", "🇫🇷", "🇩🇪", "中", "👍🏽", "❤️",
                              england, "\r\n"]
    assert "".join(clusters(text)) == text  # nothing lost or reordered


def test_boundaries_around_a_cursor_inside_and_at_the_edges() -> None:
    text = "x👩‍👩‍👧y"
    assert next_boundary(text, 1) == 1 + len("👩‍👩‍👧")
    assert previous_boundary(text, 1 + len("👩‍👩‍👧")) == 1
    assert previous_boundary(text, 0) == 0 and next_boundary(text, len(text)) == len(text)
