"""What a search must leave out: files a `Read` deny or ask rule protects. Shared by Grep and Glob.

A search over the whole project under `Read(./.env)` runs without a prompt (searching is
everyday work), and the protected files' names and content simply never come back: rg is told
to skip plain file-name patterns (`.env`, `*.pem`) as it walks, and every path it prints is
checked against the rules themselves, the same matcher the Read tool's decision uses (anchored
patterns, `~`, symlink targets), so what rg skipped is only a shortcut, never the guard. An ask
rule counts as protection here: its file is read only after the person said yes, and a search
would otherwise show it without asking.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import AnyStr

from claude_harness.permissions.rules import rule_matches, tool_matches
from claude_harness.permissions.types import PermissionContext, PermissionRule

_GLOB_SPECIAL = frozenset("\\[]{}")


@dataclass(frozen=True)
class Protection:
    """The rules a search honours, for one search run in `cwd`."""

    tool_name: str
    rules: tuple[PermissionRule, ...]
    rule_cwd: Path
    search_cwd: Path

    def excludes(self, path: str | bytes) -> bool:
        """Whether a path as rg printed it (relative to the search's cwd, or absolute) is
        protected."""
        text = path.decode("utf-8", "surrogateescape") if isinstance(path, bytes) else path
        full = Path(text) if text.startswith("/") else self.search_cwd / text
        return any(rule_matches(rule, self.tool_name, str(full), self.rule_cwd)
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
