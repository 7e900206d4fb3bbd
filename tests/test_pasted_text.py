"""Claude Code's rule for which pastes collapse, and the expansion on send."""

from __future__ import annotations

from pathlib import Path

from claude_harness.frontends.shared.pasted_text import PastedTexts, dropped_image, should_collapse
from tests.paste_support import write_png


def test_the_threshold_is_claude_codes() -> None:
    assert not should_collapse("a\nb\nc")  # two breaks stay as typed
    assert should_collapse("a\nb\nc\nd")  # three collapse
    assert not should_collapse("x" * 800) and should_collapse("x" * 801)
    assert should_collapse("a\nb\nc", terminal_rows=11)  # a very short terminal allows fewer


def test_placeholders_expand_and_hand_edited_ones_stay() -> None:
    pasted = PastedTexts()
    first = pasted.add("one\ntwo\nthree\nfour")
    second = pasted.add("y" * 900)
    assert (first, second) == ("[Pasted text #1 +3 lines]", "[Pasted text #2]")
    sent = pasted.expand(f"a {first} b {second} [Pasted text #9 +1 lines]")
    assert sent == f"a one\ntwo\nthree\nfour b {'y' * 900} [Pasted text #9 +1 lines]"


def test_only_an_existing_image_path_alone_is_an_image(tmp_path: Path) -> None:
    write_png(tmp_path / "a b.png")
    (tmp_path / "notes.txt").write_text("x")
    assert dropped_image(f"'{tmp_path}/a b.png' ", tmp_path) == tmp_path / "a b.png"
    assert dropped_image("a\\ b.png", tmp_path) == tmp_path / "a b.png"
    assert dropped_image(f"file://{tmp_path}/a\\ b.png", tmp_path) == tmp_path / "a b.png"
    assert dropped_image("see a\\ b.png now", tmp_path) is None
    assert dropped_image("notes.txt", tmp_path) is None
    assert dropped_image("missing.png", tmp_path) is None
