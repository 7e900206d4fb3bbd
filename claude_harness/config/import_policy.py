"""Which `@path` imports of memory files are followed: decided as a Read of the file would be.

Why: an import copies a file into the system prompt of every request, so it reads that file as
surely as the Read tool would, without anyone being asked. A cloned repository's CLAUDE.md
saying `@~/.ssh/id_rsa` must read nothing, and neither may any import a `Read` deny rule covers.

The rules, in order:
  1. a Read deny or ask rule covering the file (as named or through its symlinks): never;
  2. a credentials file (`~/.ssh`, `~/.aws`, `.netrc`, `.env`...): never, wherever it is;
  3. before the folder is trusted, an import in one of the repository's own files stays inside
     the repository;
  4. the file is inside the working directories or the repository (whose root holds memory
     files above the cwd), or a Read allow rule covers it: followed;
  5. the user's own memory files (`~/.claude/CLAUDE.md` and what it imports) may import any
     other file of the person's, as in Claude Code (`@~/.claude/my-project-instructions.md`,
     `@~/notes.md`): the person wrote them; rules 1 and 2 still hold;
  otherwise: not followed (the Read tool would have asked).
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from claude_harness.config.paths import user_config_dir
from claude_harness.permissions.paths import inside_any, is_inside
from claude_harness.permissions.rules import rule_matches

if TYPE_CHECKING:
    from claude_harness.protocol.permission_data import PermissionContext

# Folders and names that hold credentials: never imported into a prompt.
SECRET_DIRS = frozenset({".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker",
                         ".password-store", ".vault-token"})
SECRET_DIR_PAIRS = frozenset({(".config", "gcloud"), (".config", "gh")})
SECRET_NAMES = (".netrc", ".pgpass", ".git-credentials", ".credentials.json", ".npmrc", ".pypirc",
                ".env", ".env.*", "id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*", "*.pem",
                "*.key")


def is_secret_file(path: Path) -> bool:
    """Whether a resolved path is a credentials file or lies in a credentials folder."""
    parts = path.parts
    if any(p in SECRET_DIRS for p in parts[:-1]):
        return True
    if any(pair in SECRET_DIR_PAIRS for pair in zip(parts, parts[1:], strict=False)):
        return True
    return bool(parts) and any(fnmatch.fnmatchcase(parts[-1], n) for n in SECRET_NAMES)


@dataclass(frozen=True)
class ImportPolicy:
    """The session's answer to "may this memory file import that file?"."""

    cwd: Path
    project: Path
    permission: PermissionContext | None
    trusted: bool
    user_dir: Path

    @classmethod
    def for_session(cls, cwd: Path, project: Path, permission: PermissionContext | None, *,
                    trusted: bool) -> ImportPolicy:
        return cls(Path(cwd), Path(project), permission, trusted, user_config_dir())

    def _covered(self, behavior: str, target: Path) -> bool:
        if self.permission is None:
            return False
        return any(rule.value.rule_content is not None
                   and rule_matches(rule, "Read", str(target), self.permission.cwd)
                   for rule in self.permission.rules_for(behavior))  # type: ignore[arg-type]

    def _working_dirs(self) -> tuple[Path, ...]:
        return self.permission.working_dirs if self.permission is not None else (self.cwd,)

    def may_import(self, importer: Path, target: Path) -> bool:
        """Whether `importer` (a memory file, resolved) may pull `target` into the prompt."""
        resolved = Path(os.path.realpath(target))
        if self._covered("deny", target) or self._covered("ask", target):
            return False
        if is_secret_file(resolved) or is_secret_file(Path(os.path.normpath(target))):
            return False
        from_repository = is_inside(importer, self.project) and not is_inside(
            importer, self.user_dir)
        if from_repository and not self.trusted and not is_inside(resolved, self.project):
            return False
        roots = (*self._working_dirs(), self.project)  # the repository's memory lives above cwd
        if inside_any(resolved, roots) or self._covered("allow", target):
            return True
        return not from_repository
