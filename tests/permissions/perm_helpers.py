"""Shared builders for the permission tests: a small real project tree and permission contexts."""

from __future__ import annotations

from pathlib import Path

from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.permission_data import (
    PermissionContext,
    PermissionMode,
    PermissionRule,
)

CORPUS_ALLOW = ("Bash(git *)", "Bash(ls *)", "Bash(echo *)", "Bash(find *)", "Bash(sed -n *)",
                "Bash(grep *)")
# The broad prefix rules ("default with broad prefix rules").
BROAD = ("Bash(git *)", "Bash(npm run *)", "Bash(ls *)", "Bash(cat *)", "Bash(echo *)",
         "Bash(find *)", "Bash(python -m pytest *)", "Bash(sed -n *)", "Bash(grep *)")


def make_project(root: Path) -> Path:
    """A project with the files everyday commands touch."""
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "docs").mkdir()
    (root / "README.md").write_text("# demo\nhello\n")
    (root / "setup.py").write_text("print('x')\n")
    (root / "src" / "main.py").write_text("import os\nprint('hi')\n")
    (root / "src" / "pkg" / "util.py").write_text("def f():\n    return 1\n")
    (root / "tests" / "test_main.py").write_text("def test():\n    assert True\n")
    (root / "docs" / "guide.md").write_text("guide\n")
    (root / "data.json").write_text('{"a": 1}\n')
    (root / "Makefile").write_text("all:\n\ttrue\n")
    (root / "payload.txt").write_text("x\n")
    (root / "f").write_text("a\n")
    (root / "f.txt").write_text("a\n")
    (root / "log.txt").write_text("line\n")
    secrets = root.parent / f"{root.name}-secrets"
    secrets.mkdir(exist_ok=True)
    (secrets / "id_rsa").write_text("KEY\n")
    (root / "vendor").symlink_to(secrets)  # a repo symlink that leads out of the project
    return root


def rules(behavior: str, *texts: str, source: str = "userSettings",
          root: Path | None = None) -> tuple[PermissionRule, ...]:
    return tuple(
        PermissionRule(source, behavior, parse_rule(t), root)  # type: ignore[arg-type]
        for t in texts
    )


def context(cwd: Path, *, mode: PermissionMode = "default", allow: tuple[str, ...] = (),
            ask: tuple[str, ...] = (), deny: tuple[str, ...] = (),
            extra_dirs: tuple[Path, ...] = ()) -> PermissionContext:
    return PermissionContext(
        mode=mode,
        rules=rules("allow", *allow) + rules("ask", *ask) + rules("deny", *deny),
        cwd=cwd,
        additional_dirs=extra_dirs,
    )


def tool_context(perm: PermissionContext, shell_cwd: Path | None = None):
    """The ToolUseContext the pipeline hands the resolver: `shell_cwd` is where the Bash shell
    sits after an earlier `cd` (the project root when None)."""
    from claude_harness.protocol.context import (
        AbortSignal,
        FileStateCache,
        ShellState,
        ToolUseContext,
        ToolUseOptions,
    )

    return ToolUseContext(
        options=ToolUseOptions(), permission=perm, abort=AbortSignal(),
        read_file_state=FileStateCache(), shell=ShellState(shell_cwd or perm.cwd),
    )


def decide_bash(command: str, perm: PermissionContext, *, shell_cwd: Path | None = None):
    """The shipped Bash decision: the resolver's chain, as `-p`, the app and the REPL run it."""
    import asyncio

    from claude_harness.permissions.resolver import resolve_permission
    from claude_harness.tools.bash import TOOL as BASH

    inp = BASH.input_model.model_validate({"command": command})
    return asyncio.run(resolve_permission(BASH, inp, tool_context(perm, shell_cwd)))
