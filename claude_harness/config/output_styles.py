"""Output styles: how the assistant talks (Claude Code's built-ins and the user's own).

Built-ins (Claude Code 2.1.332's set): default, Proactive, Concise, Explanatory, Learning. Custom
styles are Markdown files with front matter, in `~/.claude/output-styles/` (user) and
`.claude/output-styles/` (project; a project style wins over a user style of the same name):

    ---
    name: Reviewer                       # default: the file name
    description: Terse code-review voice
    keep-coding-instructions: true       # keep the default coding guidance (default: false)
    ---
    Instructions for the assistant...

The chosen style is the settings key `outputStyle` (`/output-style NAME` writes it to
`.claude/settings.local.json`).

How a style reaches the model without breaking the prompt cache: the system prompt is built once
per session with `prompt_section()` in it (and without the coding guidance when the style does
not keep it). A change in the middle of a session does not touch the system prompt, whose bytes
are the cache prefix: `style_change_message()` is appended to the conversation instead, as a
`role: system` message (what Claude Code 2.1.332 sends), so everything already cached stays
valid and the new style applies from that point on. A new session (or /clear) builds the system
prompt with the new style.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.config.frontmatter import parse_front_matter
from claude_harness.config.paths import user_config_dir

DEFAULT_STYLE = "default"
STYLE_FOLDER = "output-styles"


@dataclass(frozen=True)
class OutputStyle:
    name: str
    description: str
    instructions: str  # "" for the default style: the system prompt as it is
    keep_coding_instructions: bool = True
    source: str = "built-in"  # "built-in", "user", "project"
    path: Path | None = None

    @property
    def is_default(self) -> bool:
        return self.name == DEFAULT_STYLE

    def prompt_section(self) -> str:
        """The text to add to the system prompt ("" for the default style)."""
        if self.is_default or not self.instructions.strip():
            return ""
        return f"# Output Style: {self.name}\n{self.instructions.strip()}\n"


def style_change_message(style: OutputStyle) -> dict[str, Any]:
    """The message that switches styles mid-session, leaving the cached system prompt alone."""
    if style.is_default:
        text = ("# Output Style: default\nThe output style is back to the default: drop the "
                "instructions of the previous output style and answer as you normally would.")
    else:
        text = style.prompt_section().rstrip("\n") + (
            f"\n\n{style.name} output style is active from here on; it replaces any earlier "
            "output style.")
    return {"role": "system", "content": [{"type": "text", "text": text}]}


BUILT_IN: tuple[OutputStyle, ...] = (
    OutputStyle(DEFAULT_STYLE, "The standard voice: efficient, focused on the task", ""),
    OutputStyle(
        "Proactive", "Acts at once, asks little, and prefers doing over planning",
        "Act on the request directly. When the next step is clear, take it instead of "
        "describing it or asking whether to proceed; ask the user only for decisions that are "
        "genuinely theirs (scope, product choices, anything destructive or irreversible). Keep "
        "plans short and move to the work; report what you did and what remains."),
    OutputStyle(
        "Concise", "Terse answers that lead with the result, without preamble or narration",
        "Be brief. Lead with the result or the answer; leave out preamble, restating the "
        "request, narrating your steps and closing summaries. Use short sentences and lists "
        "only where they help. Give detail only when the user asks for it or when leaving it "
        "out would mislead."),
    OutputStyle(
        "Explanatory", "Explains its implementation choices and the codebase's patterns",
        "While you work, teach. Before and after writing code, add a short insight block:\n\n"
        "`★ Insight ─────────────────────────────────────`\n"
        "[2-3 points about why this approach, what pattern the codebase uses here, or a "
        "trade-off worth knowing]\n"
        "`─────────────────────────────────────────────────`\n\n"
        "Keep insights specific to this codebase and this change rather than general "
        "programming facts, and put them in the conversation, never in the code. Finishing the "
        "task still comes first."),
    OutputStyle(
        "Learning", "Pauses to ask you to write small pieces of code yourself, for practice",
        "Help the user learn by doing. Build the scaffolding yourself, but for small, meaningful "
        "pieces (a function body of 2-10 lines, a condition, a design choice) stop and ask the "
        "user to write them: add a `TODO(human)` marker where the code goes, then explain what "
        "is needed, why it matters and what to consider, and wait for them. Share short "
        "insights about the codebase as you go (`★ Insight` blocks, as in the Explanatory "
        "style). Never ask for more than one piece at a time, and review what they write."),
)


def _load_folder(folder: Path, source: str) -> tuple[list[OutputStyle], list[str]]:
    styles: list[OutputStyle] = []
    problems: list[str] = []
    if not folder.is_dir():
        return styles, problems
    for path in sorted(folder.glob("*.md")):
        try:
            parsed = parse_front_matter(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path}: {exc}")
            continue
        problems += [f"{path}: {w}" for w in parsed.warnings]
        keep = parsed.text("keep-coding-instructions", "false").strip().lower() == "true"
        styles.append(OutputStyle(
            name=parsed.text("name") or path.stem,
            description=parsed.text("description") or f"Custom style from {path.name}",
            instructions=parsed.body.strip(),
            keep_coding_instructions=keep,
            source=source, path=path))
    return styles, problems


@dataclass(frozen=True)
class StyleCatalog:
    styles: tuple[OutputStyle, ...]
    problems: tuple[str, ...] = ()

    def find(self, name: str) -> OutputStyle | None:
        """A style by name, case-insensitively (`/output-style explanatory`)."""
        wanted = name.strip().casefold()
        return next((s for s in self.styles if s.name.casefold() == wanted), None)

    def resolve(self, setting: Any) -> OutputStyle:
        """The style the `outputStyle` setting names; the default one for none or unknown."""
        found = self.find(setting) if isinstance(setting, str) else None
        return found or self.styles[0]


def load_output_styles(project_dir: Path, user_dir: Path | None = None) -> StyleCatalog:
    """Built-ins, then the user's styles, then the project's (a later one with the same name
    replaces an earlier one, so a project can redefine a user style)."""
    user_styles, user_problems = _load_folder((user_dir or user_config_dir()) / STYLE_FOLDER,
                                              "user")
    project_styles, project_problems = _load_folder(project_dir / ".claude" / STYLE_FOLDER,
                                                    "project")
    by_name: dict[str, OutputStyle] = {}
    for style in (*BUILT_IN, *user_styles, *project_styles):
        by_name[style.name.casefold()] = style
    return StyleCatalog(tuple(by_name.values()), tuple(user_problems + project_problems))
