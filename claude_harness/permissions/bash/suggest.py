""""Yes, and don't ask again" for Bash: rules built from the analysis the matcher reads.

Why from the analysis: a saved rule must match the very call it was saved for. The program is
named as allow rules see it (wrappers peeled, `/usr/bin/x` as `x`), one rule per program that
is not read-only (up to five), plus a Read rule for each directory read outside the working
directories and an Edit rule for each file a redirection writes. A command with something no
rule can ever cover gets no suggestion.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.permissions.bash.analysis import Analysis
from claude_harness.permissions.paths import inside_any, real
from claude_harness.permissions.rules import MAX_SUGGESTED_RULES, command_prefix, path_rule


def bash_suggestion(analysis: Analysis, project: Path,
                    working_dirs: tuple[Path, ...]) -> str | None:
    if analysis.fatal or analysis.problems:
        return None
    rules: list[str] = []

    def add(rule: str) -> None:
        if rule not in rules:
            rules.append(rule)

    for fact in analysis.facts:
        if fact.problems or fact.fatal:
            return None
        if fact.alternative:
            continue
        if not fact.effect.read_only or fact.effect.writes or fact.effect.deletes:
            if fact.allow_form is None:
                return None
            prefix = command_prefix(fact.allow_form)
            if prefix is None:
                return None
            add(f"Bash({prefix} *)")
        for use in fact.effect.reads:
            if use.path is None or use.members is not None:
                continue
            target = real(use.path, project)
            if not inside_any(target, working_dirs):
                add(path_rule("Read", target if target.is_dir() else target.parent, project,
                              tree=True))
        for use in fact.redirect_writes:
            if use.path is not None:
                add(path_rule("Edit", real(use.path, project), project, tree=False))
    return ", ".join(rules[:MAX_SUGGESTED_RULES]) or None
