"""The prompt's vim mode (`/vim`, `editorMode: "vim"`): NORMAL and INSERT as Claude Code
documents them: motions (h j k l w b e W B E 0 ^ $ gg G f F t T ; ,), operators with counts
(d c y > < with a motion, a text object or doubled), x X D C Y s S p P J r ~ u, the insert
keys (i a I A o O) and `.` to repeat the last change.

A state machine over (text, cursor offset) with no Textual in it: the prompt widget feeds it
the characters typed in NORMAL mode and applies the `Edit` it returns; INSERT mode is the
widget's own typing, so keystroke echo costs nothing more than before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from claude_harness.frontends.tui.widgets import vim_text as vt

INSERT, NORMAL = "INSERT", "NORMAL"
_COUNT = r"(?:[1-9]\d*)?"
_MOTION = r"(?:[hjklwbeWBE0$^G;,_ ]|gg|[fFtT].)"
_COMMAND = re.compile(
    rf"^(?P<count>{_COUNT})(?:(?P<op>[dcy<>])(?P<count2>{_COUNT})"
    rf"(?P<target>{_MOTION}|[dcy<>]|[ia][wW\"'`()bB{{}}\[\]<>])"
    rf"|(?P<motion>{_MOTION})|(?P<cmd>[xXDCYsSpPuiaIAoOJ~.]|r.))$", re.S)
_PARTIAL = re.compile(rf"^{_COUNT}(?:[dcy<>]{_COUNT}[iafFtTg]?|[fFtTgr])?$")
CHANGES = frozenset("dc<>xXDCsSpPJr~")  # what `.` repeats (y and motions change nothing)
INSERTS = frozenset("iaIAoO")


@dataclass
class Edit:
    """What a key did: the new text and cursor, and whether the mode changed."""

    text: str
    cursor: int


@dataclass
class VimKeys:
    mode: str = INSERT  # Claude Code starts the vim input in INSERT
    pending: str = ""  # keys of an unfinished command: "d", "2", "g", "f"...
    register: str = ""
    linewise: bool = False
    undo_stack: list[tuple[str, int]] = field(default_factory=list)
    last_change: tuple[str, str] | None = None  # (keys, text typed in the INSERT it opened)
    last_find: tuple[str, str] | None = None  # (f/F/t/T, char) for ; and ,
    _insert_from: tuple[str, int, str] | None = None  # (text, cursor, keys) at INSERT start
    remaps: frozenset[str] = frozenset()  # vimInsertModeRemaps: "jj" leaves INSERT
    typed_at: int = -1  # where the last INSERT character went in (the first of a remap)

    # ── mode changes ────────────────────────────────────────────────────────────────────────

    def escape(self, text: str, cursor: int) -> Edit:
        """Esc in INSERT: back to NORMAL, the cursor one character left (as vim puts it)."""
        self.mode = NORMAL
        self.pending = ""
        if self._insert_from is not None:
            before, start, keys = self._insert_from
            self._insert_from = None
            typed = _typed_between(before, text, start)
            if keys or typed:
                self.last_change = (keys or "i", typed)
            if text == before and self.undo_stack and self.undo_stack[-1][0] == before:
                self.undo_stack.pop()  # an INSERT that typed nothing is no change to undo
        at_start = cursor == vt.line_start(text, cursor)
        return Edit(text, cursor if at_start else vt.cell_left(text, cursor))

    def start_insert(self, text: str, cursor: int, keys: str = "") -> None:
        self._snapshot(text, cursor)
        self.mode = INSERT
        self._insert_from = (text, cursor, keys)

    # ── NORMAL-mode keys ────────────────────────────────────────────────────────────────────

    def key(self, char: str, text: str, cursor: int) -> Edit | None:
        """One character typed in NORMAL mode; None while a command is still incomplete."""
        self.pending += char
        match = _COMMAND.match(self.pending)
        if match is not None and _zero_in_count(match):
            return None  # "10": a count still being typed, not 1 then the `0` motion
        if match is None:
            if not _PARTIAL.match(self.pending):
                self.pending = ""
                return Edit(text, cursor)
            return None
        keys, self.pending = self.pending, ""
        return self._run(match, keys, text, cursor)

    def _run(self, match: re.Match[str], keys: str, text: str, cursor: int) -> Edit:
        count = int(match["count"] or 1)
        if match["motion"]:
            target = self._motion(match["motion"], text, cursor, count, operator=False)
            return Edit(text, vt.clamp_normal(text, cursor if target is None else target[0]))
        if match["op"]:
            count *= int(match["count2"] or 1)
            edit = self._operator(match["op"], match["target"], text, cursor, count)
        else:
            edit = self._command(match["cmd"], match, text, cursor, count)
        if (match["op"] or match["cmd"] or "")[:1] in CHANGES and match["op"] != "y" \
                and match["cmd"] != ".":
            self.last_change = (keys, "")
        if self.mode == INSERT and self._insert_from is not None and match["cmd"] != ".":
            self._insert_from = (*self._insert_from[:2], keys)
        return edit

    # ── motions ─────────────────────────────────────────────────────────────────────────────

    def _motion(self, key: str, text: str, cursor: int, count: int,
                operator: bool) -> tuple[int, bool, bool] | None:
        """Where `key` moves the cursor: (offset, inclusive, linewise), or None."""
        if key in ("l", " "):
            return vt.cell_right(text, cursor, count, past_end=operator), False, False
        if key == "h":
            return vt.cell_left(text, cursor, count), False, False
        if key in "jk":
            cells = vt.column_cells(text, cursor)
            return vt.line_down(text, cursor, count if key == "j" else -count, cells), False, True
        if key in "wW":
            return vt.word_forward(text, cursor, count, key == "W"), False, False
        if key in "eE":
            return vt.word_end(text, cursor, count, key == "E"), True, False
        if key in "bB":
            return vt.word_back(text, cursor, count, key == "B"), False, False
        if key == "0":
            return vt.line_start(text, cursor), False, False
        if key in "^_":
            return vt.first_non_blank(text, cursor), False, key == "_"
        if key == "$":
            end = vt.line_end(text, cursor)
            return (end, False, False) if operator else (vt.last_cell(text, cursor), True, False)
        if key == "gg":
            return vt.first_non_blank(text, 0), False, True
        if key == "G":
            return vt.first_non_blank(text, vt.line_start(text, len(text))), False, True
        if key in ";,":
            return self._repeat_find(key, text, cursor, count)
        if key[0] in "fFtT":
            self.last_find = (key[0], key[1:])
            hit = vt.find_in_line(text, cursor, key[0], key[1:], count)
            return None if hit is None else (hit, key[0] in "ft", False)
        return None

    def _repeat_find(self, key: str, text: str, cursor: int,
                     count: int) -> tuple[int, bool, bool] | None:
        if self.last_find is None:
            return None
        kind, char = self.last_find
        if key == ",":
            kind = kind.swapcase()
        hit = vt.find_in_line(text, cursor, kind, char, count)
        return None if hit is None else (hit, kind in "ft", False)

    # ── operators ───────────────────────────────────────────────────────────────────────────

    def _operator(self, op: str, target: str, text: str, cursor: int, count: int) -> Edit:
        span = self._span(op, target, text, cursor, count)
        if span is None:
            return Edit(text, cursor)
        start, end, linewise = span
        if op == "y":
            self.register, self.linewise = text[start:end], linewise
            return Edit(text, vt.clamp_normal(text, min(start, cursor) if not linewise else cursor))
        if op in "<>":
            return self._shift(op, text, start, end)
        self._snapshot(text, cursor)
        self.register, self.linewise = text[start:end], linewise
        if op == "c" and linewise:  # cc keeps the (now empty) line to type on
            start, end = vt.line_start(text, start), vt.line_end(text, max(start, end - 1))
        new = text[:start] + text[end:]
        if op == "c":
            self.mode = INSERT
            self._insert_from = (new, start, "")
            return Edit(new, start)
        landing = vt.first_non_blank(new, min(start, len(new))) if linewise else start
        return Edit(new, vt.clamp_normal(new, landing))

    def _span(self, op: str, target: str, text: str, cursor: int,
              count: int) -> tuple[int, int, bool] | None:
        """The (start, end, linewise) range an operator covers."""
        if target == op:  # dd, cc, yy, >>, <<
            start, end = vt.line_range(text, cursor, count)
            return start, end, True
        if target[0] in "ia" and len(target) == 2:
            found = vt.text_object(text, cursor, target[0] == "a", target[1])
            return None if found is None else (*found, False)
        if op == "c" and target in "wW" and vt.cluster_class(text[cursor:cursor + 1] or " ",
                                                            target == "W") != vt.BLANK:
            target = "e" if target == "w" else "E"  # cw changes to the end of the word
        moved = self._motion(target, text, cursor, count, operator=True)
        if moved is None:
            return None
        dest, inclusive, linewise = moved
        if linewise:
            first, last = sorted((cursor, dest))
            start, _ = vt.line_range(text, first)
            _, end = vt.line_range(text, last)
            return start, end, True
        if target in "wW" and dest > vt.line_end(text, cursor):
            dest = vt.line_end(text, cursor)  # dw on a line's last word keeps the newline
        start, end = sorted((cursor, dest))
        if inclusive:
            end = vt.cell_right(text, end, past_end=True)
        return start, end, False

    def _shift(self, op: str, text: str, start: int, end: int) -> Edit:
        self._snapshot(text, start)
        lines = text[start:end].split("\n")
        shifted = [("  " + line if line else line) if op == ">"
                   else line[min(2, len(line) - len(line.lstrip(" "))):] for line in lines]
        new = text[:start] + "\n".join(shifted) + text[end:]
        return Edit(new, vt.first_non_blank(new, min(start, len(new))))

    # ── single commands ─────────────────────────────────────────────────────────────────────

    def _command(self, cmd: str, match: re.Match[str], text: str, cursor: int,
                 count: int) -> Edit:
        if cmd in INSERTS:
            return self._insert_key(cmd, text, cursor)
        if cmd == "u":
            return self._undo(text, cursor)
        if cmd == ".":
            return self._repeat(text, cursor, match["count"])
        if cmd in ("p", "P"):
            return self._put(cmd, text, cursor, count)
        if cmd[0] == "r":
            return self._replace_chars(cmd[1:], text, cursor, count)
        if cmd == "~":
            return self._toggle_case(text, cursor, count)
        if cmd == "J":
            return self._join(text, cursor, max(count, 2))
        alias = {"x": ("d", "l"), "X": ("d", "h"), "D": ("d", "$"), "C": ("c", "$"),
                 "Y": ("y", "y"), "s": ("c", "l"), "S": ("c", "c")}[cmd]
        if cmd in "xX" and not text[vt.line_start(text, cursor):vt.line_end(text, cursor)]:
            return Edit(text, cursor)  # x on an empty line does not join it to the next
        return self._operator(alias[0], alias[1], text, cursor, count)

    def _insert_key(self, cmd: str, text: str, cursor: int) -> Edit:
        if cmd == "a":
            cursor = vt.cell_right(text, cursor, past_end=True)
        elif cmd == "A":
            cursor = vt.line_end(text, cursor)
        elif cmd == "I":
            cursor = vt.first_non_blank(text, cursor)
            if text[cursor:cursor + 1] not in ("", "\n") and text[cursor].isspace():
                cursor = vt.line_end(text, cursor)
        elif cmd in "oO":
            self._snapshot(text, cursor)
            at = vt.line_end(text, cursor) if cmd == "o" else vt.line_start(text, cursor)
            text = text[:at] + "\n" + text[at:]
            cursor = at + 1 if cmd == "o" else at
        self.start_insert(text, cursor, cmd)
        return Edit(text, cursor)

    def _put(self, cmd: str, text: str, cursor: int, count: int) -> Edit:
        if not self.register:
            return Edit(text, cursor)
        self._snapshot(text, cursor)
        chunk = self.register * count
        if self.linewise:
            body = chunk.strip("\n")
            if cmd == "p":
                at = vt.line_end(text, cursor)
                new = text[:at] + "\n" + body + text[at:]
                return Edit(new, vt.first_non_blank(new, at + 1))
            at = vt.line_start(text, cursor)
            new = text[:at] + body + "\n" + text[at:]
            return Edit(new, vt.first_non_blank(new, at))
        at = vt.cell_right(text, cursor, past_end=True) if cmd == "p" and text else cursor
        new = text[:at] + chunk + text[at:]
        return Edit(new, vt.clamp_normal(new, max(at, at + len(chunk) - 1)))

    def _replace_chars(self, char: str, text: str, cursor: int, count: int) -> Edit:
        end = vt.cell_right(text, cursor, count, past_end=True)
        if end == cursor or len(vt.line_edges(text, cursor)) - 1 < count:
            return Edit(text, cursor)
        self._snapshot(text, cursor)
        cells = vt.column_cells(text, end) - vt.column_cells(text, cursor)
        new = text[:cursor] + char * cells + text[end:]
        return Edit(new, vt.clamp_normal(new, cursor + len(char) * (cells - 1)))

    def _toggle_case(self, text: str, cursor: int, count: int) -> Edit:
        end = vt.cell_right(text, cursor, count, past_end=True)
        self._snapshot(text, cursor)
        new = text[:cursor] + text[cursor:end].swapcase() + text[end:]
        return Edit(new, vt.clamp_normal(new, end))

    def _join(self, text: str, cursor: int, lines: int) -> Edit:
        self._snapshot(text, cursor)
        new, at = text, cursor
        for _ in range(lines - 1):
            end = vt.line_end(new, at)
            if end >= len(new):
                break
            rest = new[end + 1:]
            stripped = rest.lstrip(" \t")
            joiner = "" if not stripped or stripped.startswith("\n") else " "
            new = new[:end].rstrip(" \t") + joiner + stripped
            at = len(new[:end].rstrip(" \t"))
        return Edit(new, vt.clamp_normal(new, at))

    # ── undo and repeat ─────────────────────────────────────────────────────────────────────

    def _snapshot(self, text: str, cursor: int) -> None:
        if not self.undo_stack or self.undo_stack[-1][0] != text:
            self.undo_stack.append((text, cursor))
            del self.undo_stack[:-100]

    def _undo(self, text: str, cursor: int) -> Edit:
        while self.undo_stack:
            before, at = self.undo_stack.pop()
            if before != text:
                return Edit(before, vt.clamp_normal(before, at))
        return Edit(text, cursor)

    def _repeat(self, text: str, cursor: int, count: str) -> Edit:
        if self.last_change is None:
            return Edit(text, cursor)
        keys, typed = self.last_change
        if count:  # a new count replaces the old one
            keys = re.sub(r"^[1-9]\d*", "", keys)
            keys = count + keys
        saved = self.last_change
        edit = Edit(text, cursor)
        for char in keys:
            if self.mode == INSERT:
                break
            edit = self.key(char, edit.text, edit.cursor) or edit
        if self.mode == INSERT:
            at = edit.cursor
            new = edit.text[:at] + typed + edit.text[at:]
            self._insert_from = None
            edit = self.escape(new, at + len(typed))
        self.last_change = saved
        return edit


def _zero_in_count(match: re.Match[str]) -> bool:
    return (match["motion"] == "0" and bool(match["count"])) or \
        (match["target"] == "0" and bool(match["count2"]))


def _typed_between(before: str, after: str, start: int) -> str:
    """The text an INSERT added at `start` (empty when it did more than type there)."""
    tail = len(before) - start
    if after.startswith(before[:start]) and after.endswith(before[start:]) \
            and len(after) >= len(before):
        return after[start:len(after) - tail]
    return ""
