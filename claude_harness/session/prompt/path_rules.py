"""`.claude/rules/*.md` files with `paths`: each is told to the model once, the first time a
read or an edit touches a file it covers (rules without `paths` are part of the memory from
the start: see config/memory.py). The loop asks `for_files()` after each batch of tool calls
(`ToolUseContext.file_reminders`) and sends what it returns as reminders after the results.

The nested CLAUDE.md files a read brings in (config/nested_memory.py) come the same way.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.nested_memory import MemoryReminder, NestedMemory
from claude_harness.config.paths import user_config_dir
from claude_harness.config.rules import RuleFile, load_rules, rules_for_file


class PathRules:
    """The conditional rules of a project, and which ones the conversation has seen."""

    def __init__(self, rules: list[RuleFile], nested: NestedMemory | None = None) -> None:
        self.rules = [r for r in rules if r.conditional]
        self.told: set[Path] = set()
        self.nested = nested

    @classmethod
    def load(cls, cwd: Path, memory_files: tuple[Path, ...] = ()) -> PathRules | None:
        """The project's conditional rules and its nested CLAUDE.md files (those loaded at the
        start, `memory_files`, are never told twice)."""
        return cls(load_rules(cwd), NestedMemory(cwd, memory_files))

    def for_files(self, files: list[Path]) -> list[str]:
        """Reminder texts for the rules these files bring in that were not told yet (each a
        MemoryReminder: InstructionsLoaded fires for it with `path_glob_match`)."""
        texts: list[str] = self.nested.for_files(files) if self.nested is not None else []
        for file in files:
            for rule in rules_for_file(self.rules, file):
                if rule.path in self.told:
                    continue
                self.told.add(rule.path)
                globs = ", ".join(rule.globs)
                texts.append(MemoryReminder(
                    f"Contents of {rule.path} (project rules for files matching "
                    f"{globs}; they apply to {file}):\n\n{rule.text}", rule.path, file,
                    load_reason="path_glob_match", globs=tuple(rule.globs),
                    memory_type=_memory_type(rule.path)))
        return texts

    def forget(self) -> None:
        """A fresh conversation (/clear, compaction): the rules must be told again."""
        self.told.clear()
        if self.nested is not None:
            self.nested.forget()


def _memory_type(path: Path) -> str:
    """User for a rule of ~/.claude/rules, else Project (Claude Code's memory_type)."""
    try:
        path.resolve().relative_to(user_config_dir().resolve())
    except ValueError:
        return "Project"
    return "User"
