"""Claude Code's keybindings file as claude-harness reads it: the keystroke syntax, every
problem reported (never raised), and the load report /doctor and the start-up notice use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_harness.config.keybindings import (
    TEMPLATE,
    add_to_report,
    create_keybindings_file,
    load_keybindings,
    parse_keystroke,
)
from claude_harness.config.load_report import LoadReport
from claude_harness.session.services.config_report import keybindings_notice


@pytest.mark.parametrize(("text", "chord"), [
    ("ctrl+k", ("ctrl+k",)), ("Control+K", ("ctrl+k",)), ("K", ("shift+k",)),
    ("meta+p", ("alt+p",)), ("cmd+p", ("alt+p",)), ("opt+shift+ctrl+x", ("ctrl+alt+shift+x",)),
    ("ctrl+x ctrl+e", ("ctrl+x", "ctrl+e")), ("esc", ("escape",)), ("return", ("enter",)),
    ("shift+tab", ("shift+tab",)), ("ctrl+_", ("ctrl+_",)), ("space", ("space",)),
])
def test_keystrokes_in_claude_codes_syntax(text: str, chord: tuple[str, ...]) -> None:
    assert parse_keystroke(text) == (chord, "")


def test_bad_entries_are_reported_and_good_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / "keybindings.json"
    path.write_text("""{"bindings": [
      {"context": "Chat", "bindings": {"ctrl+e": "chat:externalEditor", "ctrl+u": null,
        "ctl+x": "chat:stash", "ctrl+c": "chat:stash", "ctrl+y": "chat:bogus",
        "ctrl+k ctrl+s": "command:compact", "K": "chat:fastMode"}},
      {"context": "Nowhere", "bindings": {}},
      {"context": "Global", "bindings": {"ctrl+t": "app:toggleTodos",
                                         "ctrl+t": "app:toggleTranscript"}}]}""")
    bindings = load_keybindings(path)
    assert bindings.actions["Chat"] == {
        ("ctrl+e",): "chat:externalEditor", ("ctrl+u",): None,
        ("ctrl+k", "ctrl+s"): "command:compact", ("shift+k",): "chat:fastMode"}
    assert bindings.actions["Global"] == {("ctrl+t",): "app:toggleTranscript"}
    messages = [p.message for p in bindings.problems]
    assert any('"ctl" is not a modifier' in m for m in messages)
    assert any("Ctrl+C interrupts" in m for m in messages)
    assert any('Unknown action "chat:bogus"' in m for m in messages)
    assert any('Unknown context "Nowhere"' in m for m in messages)
    assert any('"ctrl+t" is bound twice in Global' in m for m in messages)
    report = LoadReport()
    add_to_report(report, bindings)
    statuses = {e.name: e.status for e in report.of("keybinding")}
    assert statuses["Chat ctrl+e -> chat:externalEditor"] == "loaded"
    assert statuses["Chat shift+k -> chat:fastMode"] == "unsupported"  # Claude Code's, not ours
    notice = keybindings_notice(report)
    assert notice is not None and notice.startswith("Keybindings: 5 entries of ")
    assert "/doctor" in notice


@pytest.mark.parametrize("text", ["{not json", "[]", '{"bindings": {}}'])
def test_an_unreadable_file_is_one_error_and_no_bindings(tmp_path: Path, text: str) -> None:
    path = tmp_path / "keybindings.json"
    path.write_text(text)
    bindings = load_keybindings(path)
    assert bindings.exists and not bindings.actions and len(bindings.problems) == 1
    assert bindings.problems[0].severity == "error"


def test_the_created_file_is_claude_codes_empty_template(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "keybindings.json"
    assert create_keybindings_file(path) is True
    assert json.loads(path.read_text()) == TEMPLATE
    assert create_keybindings_file(path) is False  # an existing file is left alone
    assert load_keybindings(path).problems == []
