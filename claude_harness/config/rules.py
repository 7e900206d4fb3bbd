"""`.claude/rules/*.md`: instruction files loaded like CLAUDE.md, some only for certain paths.

    ---
    paths:                 # optional: glob patterns (a list or a comma separated string),
      - "src/**/*.py"      # relative to the project root
    ---
    Python files use 4-space indentation.

Where (as Claude Code reads them): `.claude/rules/**/*.md` in the project root (and each folder
up to it from the cwd) and `~/.claude/rules/**/*.md`. A file without `paths` is part of the
memory from the start (load_memory adds it); one with `paths` applies when the model reads or
edits a matching file: `rules_for_file()` says which, and the session adds their text as a
reminder the first time (the wiring is the session's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.config.frontmatter import parse_front_matter
from claude_harness.config.paths import project_roots, user_config_dir


@dataclass(frozen=True)
class RuleFile:
    path: Path
    text: str
    root: Path  # what `paths` patterns are relative to
    globs: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def conditional(self) -> bool:
        return bool(self.globs)

    def applies_to(self, file: Path) -> bool:
        if not self.globs:
            return True
        try:
            relative = Path(file).resolve().relative_to(self.root.resolve())
        except ValueError:
            return False
        import pathspec  # only for a conditional rule file: it costs start time

        spec = pathspec.PathSpec.from_lines("gitignore", self.globs)
        return spec.match_file(relative.as_posix())


def rule_dirs(cwd: Path) -> list[tuple[Path, Path]]:
    """(rules folder, its root) from the repository root down to the cwd, then the user's."""
    roots = list(reversed(project_roots(Path(cwd))))
    found = [(r / ".claude" / "rules", r) for r in roots]
    found.append((user_config_dir() / "rules", Path(cwd)))
    return found


def load_rules(cwd: Path, warnings: list[str] | None = None) -> list[RuleFile]:
    rules: list[RuleFile] = []
    for folder, root in rule_dirs(Path(cwd)):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.md")):
            try:
                fm = parse_front_matter(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                if warnings is not None:
                    warnings.append(f"Could not read rules file {path}: {exc}")
                continue
            notes = tuple(f"{path}: {w}" for w in fm.warnings)
            if warnings is not None:
                warnings.extend(notes)
            globs = tuple(fm.items("paths") or ())
            if fm.body.strip():
                rules.append(RuleFile(path, fm.body.strip(), root, globs, notes))
    return rules


def rules_for_file(rules: list[RuleFile], file: Path) -> list[RuleFile]:
    """The conditional rules a read or edit of `file` brings in."""
    return [r for r in rules if r.conditional and r.applies_to(file)]
