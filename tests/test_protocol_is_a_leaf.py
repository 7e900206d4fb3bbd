"""`protocol/` imports nothing of ours outside itself, `TYPE_CHECKING` imports included.

import-linter holds the run-time imports, but the project excludes TYPE_CHECKING imports from
its whole graph (they are annotations, not dependencies), so this test reads the source instead:
an annotation-only import of the session or a tool would still tie the protocol to them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import claude_harness.protocol

PROTOCOL_DIR = Path(claude_harness.protocol.__file__).parent


def foreign_imports(source: str, module: str) -> list[str]:
    """Every `claude_harness.*` module `source` imports that lies outside the protocol package."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [_absolute(node, module)]
        else:
            continue
        found += [
            name
            for name in names
            if (name == "claude_harness" or name.startswith("claude_harness."))
            and not (name + ".").startswith("claude_harness.protocol.")
        ]
    return found


def _absolute(node: ast.ImportFrom, module: str) -> str:
    """The module a `from ... import` names, its relative dots resolved against `module`."""
    if not node.level:
        return node.module or ""
    package = module.split(".")[: -node.level]
    return ".".join(package + ([node.module] if node.module else []))


def test_no_protocol_module_imports_anything_of_ours_outside_the_protocol() -> None:
    offenders = {
        path.name: found
        for path in sorted(PROTOCOL_DIR.glob("*.py"))
        if (
            found := foreign_imports(
                path.read_text(encoding="utf-8"), f"claude_harness.protocol.{path.stem}"
            )
        )
    }
    assert offenders == {}


def test_the_check_sees_type_checking_and_relative_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from claude_harness.protocol.tool import Tool\n"
        "if TYPE_CHECKING:\n"
        "    from claude_harness.session.core import Session\n"
        "    from ..permissions import rules\n"
        "    import claude_harness.tools.bash\n"
    )
    assert foreign_imports(source, "claude_harness.protocol.context") == [
        "claude_harness.session.core",
        "claude_harness.permissions",
        "claude_harness.tools.bash",
    ]
