"""`.claude/rules/*.md` files with `paths`: each is told to the model once, the first time a
read or an edit touches a file it covers (rules without `paths` are part of the memory from
the start: see config/memory.py). The loop asks `for_files()` after each batch of tool calls
(`ToolUseContext.file_reminders`) and sends what it returns as reminders after the results.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.rules import RuleFile, load_rules, rules_for_file


class PathRules:
    """The conditional rules of a project, and which ones the conversation has seen."""

    def __init__(self, rules: list[RuleFile]) -> None:
        self.rules = [r for r in rules if r.conditional]
        self.told: set[Path] = set()

    @classmethod
    def load(cls, cwd: Path) -> PathRules | None:
        """The project's conditional rules, or None when it has none (nothing to check)."""
        tracker = cls(load_rules(cwd))
        return tracker if tracker.rules else None

    def for_files(self, files: list[Path]) -> list[str]:
        """Reminder texts for the rules these files bring in that were not told yet."""
        texts: list[str] = []
        for file in files:
            for rule in rules_for_file(self.rules, file):
                if rule.path in self.told:
                    continue
                self.told.add(rule.path)
                globs = ", ".join(rule.globs)
                texts.append(f"Contents of {rule.path} (project rules for files matching "
                             f"{globs}; they apply to {file}):\n\n{rule.text}")
        return texts

    def forget(self) -> None:
        """A fresh conversation (/clear, compaction): the rules must be told again."""
        self.told.clear()
