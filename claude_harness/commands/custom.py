"""Custom slash commands and skills: Markdown prompt files the person types as `/name args` and
the model loads with the Skill tool.

Where they come from (observed in Claude Code 2.1.332 on the same folders):
  skills    `.claude/skills/<name>/SKILL.md` (exact case, one level) in the cwd and each parent up
            to the repository root, then `~/.claude/skills/<name>/SKILL.md`; named by the folder
  commands  `.claude/commands/**/*.md`, same folders, then `~/.claude/commands`; a subfolder is a
            namespace: `frontend/component.md` is `/frontend:component`. A folder of the commands
            tree that holds a `SKILL.md` is one skill named by that folder.
  plugins   `<plugin>/commands/**/*.md` and `<plugin>/skills/<name>/SKILL.md`, named
            `plugin:name` (see claude_harness.commands.plugins)
A name defined twice: the user's file wins over the project's (Claude Code runs the user's), and a
nearer project folder over a farther one.

Front matter: `description` (else the body's first line), `argument-hint`, `allowed-tools`
(pre-approved while the prompt runs), `model`, `arguments` (names for positional arguments),
`disable-model-invocation` (not listed to the model, not loadable by the Skill tool),
`user-invocable: false` (hidden from `/`), `when_to_use`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from claude_harness.commands.expansion import ExpandedPrompt, expand
from claude_harness.config.frontmatter import FrontMatter, parse_front_matter
from claude_harness.config.paths import project_roots

Scope = Literal["project", "user", "plugin"]
# A command's scope as Claude Code 2.1.332 names it in hook payloads (`command_source` of
# UserPromptExpansion and PreSkillShellCommand; observed: userSettings).
COMMAND_SOURCES: dict[str, str] = {"user": "userSettings", "project": "projectSettings",
                                   "plugin": "plugin"}
Kind = Literal["command", "skill"]
SKILL_FILE = "SKILL.md"
DESCRIPTION_MAX = 100

__all__ = [
    "CustomCommand",
    "ExpandedPrompt",
    "SkippedFile",
    "expand",
    "find_command",
    "load_commands",
]


@dataclass(frozen=True)
class CustomCommand:
    """A command or a skill: what `/name` expands to and how it is offered."""

    name: str  # "review", "frontend:component", "plugin:skill" (typed as /name)
    path: Path
    scope: Scope
    description: str
    body: str
    argument_hint: str = ""
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    argument_names: tuple[str, ...] = ()
    disable_model_invocation: bool = False
    warnings: tuple[str, ...] = field(default=(), compare=False)
    kind: Kind = "command"
    user_invocable: bool = True
    described: bool = False  # the description was written in the front matter
    when_to_use: str = ""
    base_dir: Path | None = None  # a skill's folder: its scripts and references live there
    plugin: str | None = None
    declared_name: str | None = None  # a skill's front matter `name` when it differs

    @property
    def listed_to_model(self) -> bool:
        """Offered in the skill listing and loadable by the Skill tool."""
        return not self.disable_model_invocation

    @property
    def in_init_skills(self) -> bool:
        """Listed under `skills` in system/init (Claude Code 2.1.332's rule, observed)."""
        return self.user_invocable and self.described and (
            self.kind == "skill" or self.disable_model_invocation)

    @property
    def listing_description(self) -> str:
        text = self.description
        if self.when_to_use:
            text = f"{text} - {self.when_to_use}" if text else self.when_to_use
        return text


@dataclass(frozen=True)
class SkippedFile:
    """A file that looked like a command, skill or agent but cannot be used, and why."""

    kind: str
    path: Path
    reason: str


def user_commands_dir() -> Path:
    from claude_harness.config.paths import user_config_dir

    return user_config_dir() / "commands"


def user_skills_dir() -> Path:
    from claude_harness.config.paths import user_config_dir

    return user_config_dir() / "skills"


def command_dirs(cwd: Path) -> list[tuple[Path, Scope]]:
    """Commands folders, highest precedence first (user, then nearest project folder)."""
    dirs: list[tuple[Path, Scope]] = [(user_commands_dir(), "user")]
    dirs.extend((r / ".claude" / "commands", "project") for r in project_roots(cwd))
    return dirs


def skill_dirs(cwd: Path) -> list[tuple[Path, Scope]]:
    dirs: list[tuple[Path, Scope]] = [(user_skills_dir(), "user")]
    dirs.extend((r / ".claude" / "skills", "project") for r in project_roots(cwd))
    return dirs


def command_name(path: Path, folder: Path) -> str:
    return ":".join(path.relative_to(folder).with_suffix("").parts)


def first_line(body: str) -> str:
    for line in body.splitlines():
        text = line.strip().lstrip("#").strip()
        if text:
            return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1] + "…"
    return ""


def _read(path: Path) -> FrontMatter:
    return parse_front_matter(path.read_text(encoding="utf-8"))


def build_command(path: Path, name: str, scope: Scope, *, kind: Kind = "command",
                  plugin: str | None = None) -> CustomCommand:
    """One command or skill file; unreadable files raise OSError/UnicodeDecodeError."""
    fm = _read(path)
    written = fm.text("description").strip()
    declared = fm.text("name").strip() or None
    return CustomCommand(
        name=name,
        path=path,
        scope=scope,
        description=written or first_line(fm.body),
        body=fm.body,
        argument_hint=fm.text("argument-hint").strip(),
        allowed_tools=tuple(fm.items("allowed-tools") or ()),
        model=_model(fm.text("model").strip()),
        argument_names=tuple(fm.items("arguments") or ()),
        disable_model_invocation=fm.flag("disable-model-invocation"),
        warnings=tuple(f"{path}: {w}" for w in fm.warnings),
        kind=kind,
        user_invocable=fm.flag("user-invocable", True),
        described=bool(written),
        when_to_use=fm.text("when_to_use").strip() or fm.text("when-to-use").strip(),
        base_dir=path.parent if kind == "skill" else None,
        plugin=plugin,
        declared_name=declared if kind == "skill" and declared != path.parent.name else None,
    )


def _model(text: str) -> str | None:
    return None if text in ("", "inherit") else text


def iter_command_files(folder: Path) -> Iterator[tuple[Path, str, Kind]]:
    """(file, name, kind) under a commands folder; a folder holding SKILL.md is one skill."""
    skill = folder / SKILL_FILE
    if skill.is_file():
        yield skill, folder.name, "skill"
        return
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return
    yield from _walk(folder, folder, entries)


def _walk(root: Path, folder: Path, entries: list[Path]) -> Iterator[tuple[Path, str, Kind]]:
    for entry in entries:
        if entry.is_dir():
            if (entry / SKILL_FILE).is_file():
                yield entry / SKILL_FILE, entry.name, "skill"
                continue
            try:
                yield from _walk(root, entry, sorted(entry.iterdir()))
            except OSError:
                continue
        elif entry.suffix == ".md" and entry.is_file():
            yield entry, command_name(entry, root), "command"


def iter_skill_files(folder: Path) -> Iterator[tuple[Path, str]]:
    """`<folder>/<name>/SKILL.md`, one level deep, exact file name (as Claude Code reads it)."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        skill = entry / SKILL_FILE
        if entry.is_dir() and skill.is_file() and SKILL_FILE in _names(entry):
            yield skill, entry.name


def _names(folder: Path) -> set[str]:
    """Exact entry names: on a case-insensitive disk `skill.md` would pass `is_file()`."""
    try:
        return {p.name for p in folder.iterdir()}
    except OSError:
        return set()


@dataclass
class CommandSet:
    """Commands and skills found so far, in Claude Code's listing order, first name wins."""

    skills: dict[str, CustomCommand] = field(default_factory=dict)
    commands: dict[str, CustomCommand] = field(default_factory=dict)
    plugin_items: dict[str, CustomCommand] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    shadowed: list[tuple[CustomCommand, Path]] = field(default_factory=list)

    def add_file(self, path: Path, name: str, scope: Scope, kind: Kind,
                 plugin: str | None = None, *, group: str | None = None) -> None:
        """Load one file into `group` (skills / commands / plugin; by default from its kind)."""
        if self.find(name) is not None:
            self.shadowed.append((self.find(name), path))  # type: ignore[arg-type]
            return
        try:
            item = build_command(path, name, scope, kind=kind, plugin=plugin)
        except (OSError, UnicodeDecodeError) as exc:
            reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
            self.warnings.append(f"Could not read {kind} {path}: {reason}")
            self.skipped.append(SkippedFile(kind, path, f"cannot be read ({reason})"))
            return
        self.warnings.extend(item.warnings)
        group = group or ("plugin" if plugin else "skills" if kind == "skill" else "commands")
        {"skills": self.skills, "commands": self.commands, "plugin": self.plugin_items}[group][
            name] = item

    def find(self, name: str) -> CustomCommand | None:
        return self.skills.get(name) or self.commands.get(name) or self.plugin_items.get(name)

    def ordered(self) -> list[CustomCommand]:
        """Skills, then commands (each sorted by name), then plugin items in plugin order."""
        return [*(self.skills[n] for n in sorted(self.skills, key=str.lower)),
                *(self.commands[n] for n in sorted(self.commands)),
                *self.plugin_items.values()]


def collect_commands(cwd: Path, plugins: Iterable[object] = (), *,
                     locked_note: str | None = None) -> CommandSet:
    """Every command and skill visible from `cwd` (plus those of the given plugins).

    `locked_note` (strictPluginOnlyCustomization locks skills): the user's and the project's
    skills and commands are skipped with that reason, as Claude Code's skills lock covers its
    commands folders too; plugin ones still load."""
    found = CommandSet()
    for folder, scope in skill_dirs(Path(cwd)):
        for path, name in iter_skill_files(folder):
            if locked_note:
                found.skipped.append(SkippedFile("skill", path, locked_note))
            else:
                found.add_file(path, name, scope, "skill")
    for folder, scope in command_dirs(Path(cwd)):
        if folder.is_dir():
            for path, name, kind in iter_command_files(folder):
                if locked_note:
                    found.skipped.append(SkippedFile(kind, path, locked_note))
                else:
                    found.add_file(path, name, scope, kind, group="commands")
    for plugin in plugins:
        add_plugin = getattr(plugin, "add_commands", None)
        if add_plugin is not None:
            add_plugin(found)
    return found


def load_commands(cwd: Path, warnings: list[str] | None = None, *,
                  plugins: Iterable[object] = ()) -> list[CustomCommand]:
    """Every command and skill visible from `cwd`, in listing order. Problems with single
    files (unreadable, not UTF-8, front matter that is not YAML) go to `warnings`."""
    found = collect_commands(cwd, plugins)
    if warnings is not None:
        warnings.extend(found.warnings)
    return found.ordered()


def find_command(commands: Iterable[CustomCommand], name: str) -> CustomCommand | None:
    name = name.lstrip("/")
    return next((c for c in commands if c.name == name), None)
