"""Decide Bash commands through the chain the product runs, configured the way the product is.

Settings come from real files read by `load_settings` (a `--settings` file per configuration,
the mode as `--permission-mode` gives it, the project's own `.claude/settings.json`, the user's
settings dir); the ToolUseContext is built as the engine builds it; the decision is
`resolve_permission` with the real Bash tool from the real tool pool. Nothing here decides
anything itself.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from claude_harness.config.settings import CliSettings, load_settings
from claude_harness.permissions.resolver import resolve_permission
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.permission_data import PermissionContext, PermissionDecision
from claude_harness.tools.registry import assemble_tool_pool
from tests.permissions.corpus.configs import CONFIGS


@contextmanager
def world_env(home: Path, scratch: Path) -> Iterator[None]:
    """HOME and the settings locations pointed into the fixture while deciding (`~` in a
    command means the fixture's HOME), restored afterwards."""
    wanted = {
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "CLAUDE_HARNESS_DATA_DIR": str(scratch / "data"),
        "CLAUDE_HARNESS_MANAGED_SETTINGS": str(scratch / "no-managed-settings.json"),
    }
    saved = {key: os.environ.get(key) for key in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def write_config_files(directory: Path) -> dict[str, Path]:
    """One settings file per configuration, as a user would pass with --settings."""
    directory.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, config in CONFIGS.items():
        path = directory / f"{name}.json"
        path.write_text(json.dumps(config.settings(), indent=2))
        files[name] = path
    return files


def permission_for(config: str, project: Path, settings_file: Path) -> PermissionContext:
    """The permission context bootstrap would build for `claude-harness -p --settings FILE
    --permission-mode MODE` started in `project` (a trusted folder)."""
    loaded = load_settings(project, trusted=True, cli=CliSettings(
        settings=str(settings_file), permission_mode=CONFIGS[config].mode))
    assert not loaded.warnings, loaded.warnings
    perm = loaded.permission_context(interactive=False)
    assert perm.mode == CONFIGS[config].mode
    return perm


@dataclass(frozen=True)
class Verdict:
    behavior: str  # allow / ask / deny, or crash when the chain raised
    reason: str
    updated_input: dict | None = None

    @property
    def refused(self) -> bool:
        return self.behavior in {"ask", "deny"}

    @property
    def allowed(self) -> bool:
        return self.behavior == "allow"


class Chain:
    """Decides commands for every configuration in one project."""

    def __init__(self, project: Path, settings_files: dict[str, Path]) -> None:
        self.project = project
        self.perms = {name: permission_for(name, project, path)
                      for name, path in settings_files.items()}
        pool = assemble_tool_pool(self.perms["default"])
        self.bash = next(t for t in pool if t.name == "Bash")

    def context(self, config: str, shell_cwd: Path | None = None) -> ToolUseContext:
        return ToolUseContext(
            options=ToolUseOptions(tools=(self.bash,), model="claude-sonnet-5-5"),
            permission=self.perms[config],
            abort=AbortSignal(),
            read_file_state=FileStateCache(),
            shell=ShellState(shell_cwd or self.project),
        )

    async def decide(self, command: str, config: str,
                     shell_cwd: Path | None = None) -> Verdict:
        inp = self.bash.input_model.model_validate({"command": command})
        try:
            decision: PermissionDecision = await resolve_permission(
                self.bash, inp, self.context(config, shell_cwd))
        except Exception as exc:  # a crash is reported as such, and never executed
            return Verdict("crash", f"{type(exc).__name__}: {exc}")
        return Verdict(decision.behavior, decision.reason, decision.updated_input)

    def decide_now(self, command: str, config: str, shell_cwd: Path | None = None) -> Verdict:
        return asyncio.run(self.decide(command, config, shell_cwd))

    def decide_all(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Verdict]:
        """(command, config) -> verdict, decided in one event loop."""
        async def run() -> dict[tuple[str, str], Verdict]:
            return {pair: await self.decide(*pair) for pair in dict.fromkeys(pairs)}

        return asyncio.run(run())
