"""Claude Code's keybindings file (`~/.claude/keybindings.json`, or under $CLAUDE_CONFIG_DIR):
read and checked the way Claude Code documents it, so one file serves both programs.

The format: `{"bindings": [{"context": "Chat", "bindings": {"ctrl+e": "chat:externalEditor",
"ctrl+u": null}}]}`: each block names a context (Global, Chat, ...) and maps keystrokes to
`namespace:action` names or `command:<slash command>`, or to null to unbind a default. A
keystroke is `ctrl+k`, `shift+tab`, `meta+p` (meta, cmd and option are Alt in a terminal), a
lone capital (`K` is shift+k), or a chord of them separated by spaces (`ctrl+x ctrl+e`).

Nothing here raises on a bad file: every problem becomes a `Problem` (shown once in a notice
and by /doctor) and the entries that are fine still apply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.config.paths import user_config_dir

CONTEXTS = ("Global", "Chat", "Autocomplete", "Confirmation", "HeldMessage", "Help",
            "ProactivityMenu", "Transcript", "HistorySearch", "Task", "ThemePicker", "Settings",
            "Tabs", "Attachments", "Footer", "AbovePrompt", "AbovePromptInput",
            "AbovePromptSelect", "Pane", "PaneField", "MessageSelector", "DiffDialog",
            "DiffPanel", "FeedbackSurvey", "SessionTabs", "ModelPicker", "EffortSlider",
            "Select", "Plugin", "Scroll", "Agents", "Doctor")
_ACTIONS_BY_NAMESPACE = {
    "app": "interrupt exit toggleTodos toggleTranscript toggleBrief toggleReplTab redraw "
           "closeSession toggleTerminal openArtifact",
    "history": "search previous next",
    "chat": "cancel killAgents cycleMode cycleProactivity modelPicker increaseEffort "
            "decreaseEffort fastMode thinkingToggle submit queueSubmit sendNow newline undo "
            "externalEditor stash imagePaste clearInput clearScreen messageActions",
    "autocomplete": "accept dismiss previous next",
    "confirm": "yes no previous next nextField previousField cycleMode toggle "
               "toggleExplanation",
    "tabs": "next previous", "transcript": "toggleShowAll exit",
    "historySearch": "next accept cancel execute cycleScope", "task": "background",
    "theme": "toggleSyntaxHighlighting editCustom", "help": "dismiss",
    "attachments": "next previous remove exit",
    "footer": "up down next previous openSelected clearSelection close dismiss",
    "messageSelector": "up down top bottom select", "diff": "dismiss previousSource "
    "nextSource back previousFile nextFile viewDetails",
    "modelPicker": "decreaseEffort increaseEffort thisSessionOnly",
    "select": "next previous pageUp pageDown first last accept cancel",
    "plugin": "toggle install favorite cycleMarketplace", "permission": "toggleDebug",
    "settings": "search retry close", "voice": "pushToTalk", "doctor": "fix",
    "scroll": "pageUp pageDown lineUp lineDown top bottom halfPageUp halfPageDown "
              "fullPageUp fullPageDown",
    "selection": "copy clear extendLeft extendRight extendUp extendDown",
}
ACTIONS = frozenset(f"{ns}:{name}" for ns, names in _ACTIONS_BY_NAMESPACE.items()
                    for name in names.split())
RESERVED = {"ctrl+c": "Ctrl+C interrupts and exits; it cannot be rebound",
            "ctrl+d": "Ctrl+D exits; it cannot be rebound",
            "ctrl+m": "Ctrl+M is the same key as Enter in a terminal"}
MULTIPLEXER = {"ctrl+b": "tmux's prefix key (press it twice inside tmux)",
               "ctrl+a": "GNU screen's prefix key", "ctrl+z": "the terminal's suspend key"}
_MODIFIERS = {"ctrl": "ctrl", "control": "ctrl", "alt": "alt", "opt": "alt", "option": "alt",
              "meta": "alt", "cmd": "alt", "command": "alt", "super": "alt", "shift": "shift"}
_NAMED = {"esc": "escape", "escape": "escape", "return": "enter", "enter": "enter",
          "tab": "tab", "space": "space", "up": "up", "down": "down", "left": "left",
          "right": "right", "backspace": "backspace", "delete": "delete", "del": "delete",
          "home": "home", "end": "end", "pageup": "pageup", "pagedown": "pagedown",
          "insert": "insert", **{f"f{n}": f"f{n}" for n in range(1, 13)}}
TEMPLATE = {
    "$schema": "https://www.schemastore.org/claude-code-keybindings.json",
    "$docs": "https://code.claude.com/docs/en/keybindings",
    "bindings": [],
}
SUPPORTED = frozenset({
    "app:toggleTodos", "app:toggleTranscript", "app:redraw", "app:exit", "app:interrupt",
    "history:search", "history:previous", "history:next", "chat:cancel", "chat:cycleMode",
    "chat:modelPicker", "chat:thinkingToggle", "chat:submit", "chat:newline", "chat:undo",
    "chat:externalEditor", "chat:stash", "chat:imagePaste", "chat:clearInput", "task:background",
    "confirm:yes", "confirm:no", "confirm:previous", "confirm:next", "select:previous",
    "select:next", "select:accept", "select:cancel",
})
"""The actions claude-harness carries out (the app all of them, the REPL those it has keys
for); `command:<name>` runs that slash command as if typed, in both."""
Chord = tuple[str, ...]  # ("ctrl+x", "ctrl+e"): each keystroke as ctrl+alt+shift+key


@dataclass(frozen=True)
class Problem:
    severity: str  # "error": the entry is ignored; "warning": it applies but may misbehave
    message: str


@dataclass
class KeyBindings:
    """The user's bindings by context; `actions[context][chord]` is an action or None."""

    path: Path
    exists: bool = False
    actions: dict[str, dict[Chord, str | None]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def keybindings_path() -> Path:
    return user_config_dir() / "keybindings.json"


def file_stamp(path: Path | None = None) -> int | None:
    """The file's modification time (None when missing): a changed file is read again, as
    Claude Code applies an edited keybindings file without a restart."""
    try:
        return (path or keybindings_path()).stat().st_mtime_ns
    except OSError:
        return None


def parse_keystroke(text: str) -> tuple[Chord | None, str]:
    """A keystroke pattern as a chord of canonical keystrokes, or (None, why not)."""
    strokes: list[str] = []
    for part in text.split():
        stroke, error = _parse_stroke(part)
        if stroke is None:
            return None, error
        strokes.append(stroke)
    return (tuple(strokes), "") if strokes else (None, "an empty keystroke")


def _parse_stroke(part: str) -> tuple[str | None, str]:
    pieces = part.split("+")
    if len(pieces) > 1 and pieces[-1] == "" and pieces[-2] == "":
        pieces = [*pieces[:-2], "+"]  # ctrl++
    *mods, key = pieces
    found: set[str] = set()
    for mod in mods:
        name = _MODIFIERS.get(mod.lower())
        if name is None:
            return None, (f'"{mod}" is not a modifier (ctrl, alt, shift, meta), so "{part}" '
                          "is ignored")
        found.add(name)
    if not key:
        return None, f'"{part}" has no key'
    if key.lower() in _NAMED:
        key = _NAMED[key.lower()]
    elif len(key) == 1:
        if key.isupper() and not found:
            found.add("shift")  # a lone capital implies Shift (K is shift+k)
        key = key.lower()
    else:
        return None, f'"{key}" in "{part}" is not a key name'
    order = [m for m in ("ctrl", "alt", "shift") if m in found]
    return "+".join([*order, key]), ""


def load_keybindings(path: Path | None = None) -> KeyBindings:
    """The file as Claude Code reads it; every problem listed, nothing raised."""
    path = path or keybindings_path()
    result = KeyBindings(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return result
    except OSError as exc:
        result.exists = True
        result.problems.append(Problem("error", f"Couldn't read {path}: {exc}"))
        return result
    result.exists = True
    try:
        data = json.loads(raw, object_pairs_hook=_pairs)
    except ValueError as exc:
        result.problems.append(Problem("error", f"{path} is not valid JSON ({exc}); no custom "
                                                "bindings are used"))
        return result
    blocks = data.get("bindings") if isinstance(data, _Pairs) else None
    if not isinstance(blocks, list):
        result.problems.append(Problem("error", f'{path} must have a "bindings" array: '
                                                '{"bindings": [{"context": ..., "bindings": ...}]}'))
        return result
    for number, block in enumerate(blocks, 1):
        _read_block(result, number, block)
    return result


class _Pairs(dict):  # type: ignore[type-arg]
    """A JSON object that remembers the keys it saw twice (JSON keeps only the last)."""

    repeated: list[str]


def _pairs(items: list[tuple[str, Any]]) -> _Pairs:
    out = _Pairs(items)
    seen: set[str] = set()
    out.repeated = [k for k, _ in items if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
    return out


def _read_block(result: KeyBindings, number: int, block: Any) -> None:
    if not isinstance(block, dict):
        result.problems.append(Problem("error", f"Keybinding block {number} is not an object"))
        return
    context = block.get("context")
    if not isinstance(context, str) or context not in CONTEXTS:
        what = f'Unknown context "{context}"' if isinstance(context, str) else \
            f'Keybinding block {number} has no "context"'
        result.problems.append(Problem("error", f"{what}; valid contexts: "
                                                f"{', '.join(CONTEXTS[:8])}, ..."))
        return
    bindings = block.get("bindings")
    if not isinstance(bindings, dict):
        result.problems.append(Problem("error", f'Keybinding block {number} ({context}) has '
                                                'no "bindings" object'))
        return
    for key in getattr(bindings, "repeated", []):
        result.problems.append(Problem("warning", f'"{key}" is bound twice in {context}; the '
                                                  "last one is used"))
    table = result.actions.setdefault(context, {})
    for keystroke, action in bindings.items():
        _read_binding(result, context, table, keystroke, action)


def _read_binding(result: KeyBindings, context: str, table: dict[Chord, str | None],
                  keystroke: str, action: Any) -> None:
    chord, error = parse_keystroke(keystroke)
    if chord is None:
        result.problems.append(Problem("error", f"{error} (in {context})"))
        return
    if action is not None and not isinstance(action, str):
        result.problems.append(Problem("error", f'"{keystroke}" in {context}: the action must '
                                                "be a string or null"))
        return
    if action is not None and action not in ACTIONS and not _is_command(action):
        result.problems.append(Problem("error", f'Unknown action "{action}" for "{keystroke}" '
                                                f"in {context}; this binding is ignored"))
        return
    if chord[0] in RESERVED:
        result.problems.append(Problem("error", f'"{keystroke}" in {context}: '
                                                f"{RESERVED[chord[0]]}"))
        return
    if chord[0] in MULTIPLEXER:
        result.problems.append(Problem("warning", f'"{keystroke}" in {context} is '
                                                  f"{MULTIPLEXER[chord[0]]}"))
    if chord in table and keystroke not in getattr(table, "repeated", ()):
        result.problems.append(Problem("warning", f'"{keystroke}" is bound twice in '
                                                  f"{context}; the last one is used"))
    table[chord] = action


def _is_command(action: str) -> bool:
    name = action.removeprefix("command:")
    return action.startswith("command:") and bool(name) and all(
        c.isalnum() or c in ":-_" for c in name)


def create_keybindings_file(path: Path | None = None) -> bool:
    """/keybindings: write the starting file if there is none; True when it was created."""
    path = path or keybindings_path()
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(TEMPLATE, indent=2) + "\n", encoding="utf-8")
    return True


def add_to_report(report: Any, bindings: KeyBindings | None = None) -> None:
    """The file's bindings in the load report: /doctor lists them, the start-up notice counts
    the ones skipped (an entry that is wrong, or an action claude-harness does not have)."""
    bindings = bindings or load_keybindings()
    source = str(bindings.path)
    for problem in bindings.problems:
        report.add("keybinding", problem.message, source,
                   "skipped" if problem.severity == "error" else "warning")
    for context, table in bindings.actions.items():
        for chord, action in table.items():
            name = f"{context} {' '.join(chord)} -> {action or 'unbound'}"
            if action is None or action in SUPPORTED or _is_command(action):
                report.add("keybinding", name, source)
            else:
                report.add("keybinding", name, source, "unsupported",
                           f"{action} has no effect in claude-harness")
