"""/sandbox's on/off choice, kept for this project in `.claude/settings.local.json` (as Claude
Code does), through the locked atomic writer so a concurrent "don't ask again" is not lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.config.paths import local_settings_path
from claude_harness.config.settings_write import update_json_file


def save_sandbox_enabled(cwd: Path, enabled: bool) -> Path:
    """Set `sandbox.enabled` in the project's local settings; returns the file written."""
    path = local_settings_path(cwd)

    def set_enabled(data: dict[str, Any]) -> None:
        block = data.setdefault("sandbox", {})
        if not isinstance(block, dict):
            raise ValueError(f"{path}: 'sandbox' is not an object; not changing it")
        block["enabled"] = enabled

    update_json_file(path, set_enabled)
    return path
