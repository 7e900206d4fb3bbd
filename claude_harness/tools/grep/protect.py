"""What a search must leave out: files a `Read` deny or ask rule protects. Shared by Grep and Glob.

A search over the whole project under `Read(./.env)` runs without a prompt (searching is
everyday work), and the protected files' names and content simply never come back: rg is told
to skip plain file-name patterns (`.env`, `*.pem`) as it walks, and every path it prints is
checked against the rules themselves, with the matcher's own anchoring and gitignore patterns
(permissions/rules.py), compiled once per search instead of once per path: a path is excluded
when its printed form or its real form (its folder through symlinks) matches, which is what a
deny or ask rule decides for a Read of it. What rg skipped is only a shortcut, never the guard.
An ask rule counts as protection here: its file is read only after the person said yes, and a
search would otherwise show it without asking.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import AnyStr

from claude_harness.permissions.paths import comparable, folder_folds_case
from claude_harness.permissions.rules import rule_matches, tool_matches
from claude_harness.protocol.permission_data import PermissionContext, PermissionRule

_GLOB_SPECIAL = frozenset("\\[]{}")


class _CompiledRule:
    """One path rule, anchored and compiled once (rules.py's own `_anchor` and pattern class),
    in both forms a deny or ask rule is compared in (permissions/rules.match_path_rule): Unicode
    NFC, and NFC case-folded for folders whose file system folds case."""

    def __init__(self, rule: PermissionRule, rule_cwd: Path) -> None:
        from claude_harness.permissions.rules import _anchor

        base, pattern = _anchor(rule.value.rule_content or "", rule_cwd, rule.root)
        self.rule = rule
        prefixes = {os.path.normpath(base).rstrip("/") + "/",
                    os.path.realpath(base).rstrip("/") + "/"}
        self.forms = {fold: (tuple(comparable(p, fold) for p in prefixes),
                             _compiled(comparable(pattern, fold))) for fold in (False, True)}

    def hit(self, path: str, fold: bool) -> bool:
        prefixes, spec = self.forms[fold]
        if spec is None:
            return False
        path = comparable(path, fold)
        for prefix in prefixes:
            if path.startswith(prefix) and spec.match_file(path[len(prefix):]):  # type: ignore[attr-defined]
                return True
        return False


def _compiled(pattern: str) -> object | None:
    from claude_harness.permissions.rules import path_pattern

    try:
        return path_pattern(pattern)
    except Exception:  # the matcher treats a malformed pattern the same way: no match
        return None


@dataclass
class Protection:
    """The rules a search honours, for one search run in `cwd`."""

    tool_name: str
    rules: tuple[PermissionRule, ...]
    rule_cwd: Path
    search_cwd: Path
    _compiled: list[_CompiledRule] | None = field(default=None, repr=False)
    _real_dirs: dict[str, str] = field(default_factory=dict, repr=False)
    _folding: dict[str, bool] = field(default_factory=dict, repr=False)

    def excludes(self, path: str | bytes) -> bool:
        """Whether a path as rg printed it (relative to the search's cwd, or absolute) is
        protected. rg lists no symlinks while it walks, so a file's real form is its folder's
        real path plus its name."""
        text = path.decode("utf-8", "surrogateescape") if isinstance(path, bytes) else path
        named = os.path.normpath(text if text.startswith("/") else f"{self.search_cwd}/{text}")
        folder, name = os.path.split(named)
        real_folder = self._real_dirs.get(folder)
        if real_folder is None:
            real_folder = self._real_dirs.setdefault(folder, os.path.realpath(folder))
        real = os.path.join(real_folder, name)
        fold = self._folding.get(real_folder)
        if fold is None:
            fold = self._folding.setdefault(real_folder, folder_folds_case(real_folder))
        if self._compiled is None:
            self._compiled = [_CompiledRule(rule, self.rule_cwd) for rule in self.rules]
        return any(c.hit(named, fold) or c.hit(real, fold) for c in self._compiled)

    def excludes_by_rule_matcher(self, path: str) -> bool:
        """The same question asked of the Read decision's matcher, one path at a time (the
        reference the compiled form is tested against)."""
        return any(rule_matches(rule, self.tool_name, path, self.rule_cwd)
                   for rule in self.rules)

    def keep(self, paths: list[AnyStr]) -> list[AnyStr]:
        if not self.rules:
            return paths
        return [p for p in paths if not self.excludes(p)]

    def keep_blocks(self, blocks: list[bytes]) -> list[bytes]:
        """Content-mode blocks (`path\0` then its lines) of files that are not protected."""
        if not self.rules:
            return blocks
        return [b for b in blocks if b.find(b"\0") < 0 or not self.excludes(b[: b.find(b"\0")])]

    def rg_globs(self) -> list[str]:
        """`--glob !name` for rules that are a bare file-name pattern (any depth)."""
        args: list[str] = []
        for rule in self.rules:
            content = rule.value.rule_content or ""
            if content and "/" not in content and not _GLOB_SPECIAL & set(content) \
                    and not content.startswith("~") and not content.startswith("!"):
                args += ["--glob", f"!{content}"]
        return args


def protection(tool_name: str, perm: PermissionContext, search_cwd: Path) -> Protection:
    """The deny and ask path rules that cover `tool_name` (`Read(...)` covers Grep and Glob)."""
    rules = tuple(rule for rule in (*perm.rules_for("deny"), *perm.rules_for("ask"))
                  if rule.value.rule_content is not None
                  and tool_matches(rule.value.tool_name, tool_name))
    return Protection(tool_name, rules, perm.cwd, search_cwd)
