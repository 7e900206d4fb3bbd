"""The `sandbox` settings block, with Claude Code's key names, merged across settings sources.

Keys (Claude Code's): `enabled`, `failIfUnavailable`, `autoAllowBashIfSandboxed` (default true),
`allowUnsandboxedCommands` (default true), `excludedCommands`, `network` (`allowedDomains`,
`deniedDomains`, ...), `filesystem` (`allowWrite`, `denyWrite`, `denyRead`, `allowRead`),
`bwrapPath`, `socatPath`. Unknown keys are kept and ignored, so newer Claude Code settings files
load.

Merging, as Claude Code documents it: a scalar comes from the highest source that sets it; the
path and domain lists merge across every source. Each path is resolved where it was written:
`//x` and `/x` are absolute, `~/x` is under the home directory, anything else is relative to the
project the settings file belongs to (the working directory for user and CLI settings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError


class _Block(BaseModel):
    model_config = ConfigDict(extra="allow")


class NetworkSettings(_Block):
    allowedDomains: list[str] = []  # noqa: N815 - JSON key
    deniedDomains: list[str] = []  # noqa: N815 - JSON key
    allowLocalBinding: bool | None = None  # noqa: N815 - JSON key


class FilesystemSettings(_Block):
    allowWrite: list[str] = []  # noqa: N815 - JSON key
    denyWrite: list[str] = []  # noqa: N815 - JSON key
    denyRead: list[str] = []  # noqa: N815 - JSON key
    allowRead: list[str] = []  # noqa: N815 - JSON key


class SandboxSettingsBlock(_Block):
    """One source's `sandbox` value, validated."""

    enabled: bool | None = None
    failIfUnavailable: bool | None = None  # noqa: N815 - JSON key
    autoAllowBashIfSandboxed: bool | None = None  # noqa: N815 - JSON key
    allowUnsandboxedCommands: bool | None = None  # noqa: N815 - JSON key
    excludedCommands: list[str] = []  # noqa: N815 - JSON key
    network: NetworkSettings = NetworkSettings()
    filesystem: FilesystemSettings = FilesystemSettings()
    bwrapPath: str | None = None  # noqa: N815 - JSON key
    socatPath: str | None = None  # noqa: N815 - JSON key


@dataclass
class SandboxSettings:
    """The merged settings the runtime uses: booleans decided, paths absolute."""

    enabled: bool = False
    fail_if_unavailable: bool = False
    auto_allow_bash: bool = True
    allow_unsandboxed_commands: bool = True
    excluded_commands: list[str] = field(default_factory=list)
    allowed_domains: list[str] = field(default_factory=list)
    denied_domains: list[str] = field(default_factory=list)
    allow_write: list[Path] = field(default_factory=list)
    deny_write: list[Path] = field(default_factory=list)
    deny_read: list[Path] = field(default_factory=list)
    allow_read: list[Path] = field(default_factory=list)
    bwrap_path: str | None = None
    socat_path: str | None = None


def resolve_setting_path(raw: str, base: Path) -> Path:
    """A path as written in a settings file, made absolute (see the module docstring)."""
    if raw.startswith("//"):
        return Path("/" + raw.lstrip("/"))
    if raw == "~" or raw.startswith("~/"):
        return Path(raw).expanduser()
    path = Path(raw)
    return path if path.is_absolute() else (base / path)


@dataclass
class SourceBlock:
    """One settings source's raw `sandbox` value and the folder its relative paths start from."""

    raw: Any
    base: Path
    origin: str


def merge_sandbox_settings(blocks: list[SourceBlock]) -> tuple[SandboxSettings, list[str]]:
    """Merge the sources' blocks, highest precedence first; an invalid block is skipped with a
    warning naming its source."""
    merged = SandboxSettings()
    scalars_set: set[str] = set()
    warnings: list[str] = []
    for block in blocks:
        if block.raw is None:
            continue
        try:
            parsed = SandboxSettingsBlock.model_validate(block.raw)
        except ValidationError as exc:
            warnings.append(f"{block.origin}: 'sandbox' ignored ({exc.errors()[0]['msg']})")
            continue
        _take_scalars(merged, parsed, scalars_set)
        _extend_lists(merged, parsed, block.base)
    return merged, warnings


_SCALARS = {
    "enabled": "enabled",
    "failIfUnavailable": "fail_if_unavailable",
    "autoAllowBashIfSandboxed": "auto_allow_bash",
    "allowUnsandboxedCommands": "allow_unsandboxed_commands",
    "bwrapPath": "bwrap_path",
    "socatPath": "socat_path",
}


def _take_scalars(merged: SandboxSettings, parsed: SandboxSettingsBlock, done: set[str]) -> None:
    for key, attr in _SCALARS.items():
        value = getattr(parsed, key)
        if value is not None and key not in done:
            setattr(merged, attr, value)
            done.add(key)


def _extend_lists(merged: SandboxSettings, parsed: SandboxSettingsBlock, base: Path) -> None:
    _add_unique(merged.excluded_commands, parsed.excludedCommands)
    _add_unique(merged.allowed_domains, parsed.network.allowedDomains)
    _add_unique(merged.denied_domains, parsed.network.deniedDomains)
    fs = parsed.filesystem
    for target, raws in ((merged.allow_write, fs.allowWrite), (merged.deny_write, fs.denyWrite),
                         (merged.deny_read, fs.denyRead), (merged.allow_read, fs.allowRead)):
        _add_unique(target, [resolve_setting_path(raw, base) for raw in raws])


def _add_unique(target: list[Any], values: list[Any]) -> None:
    for value in values:
        if value not in target:
            target.append(value)


def sandbox_settings_from(loaded: Any) -> tuple[SandboxSettings, list[str]]:
    """The merged sandbox settings of a LoadedSettings (config/settings.py).

    Reads each source's raw `sandbox` value when the sources are exposed (so lists merge and
    relative paths resolve per file), else the generic `value("sandbox")` accessor.
    """
    cwd = Path(getattr(loaded, "cwd", Path.cwd()))
    sources = getattr(loaded, "sources", None)
    if sources is None:
        return merge_sandbox_settings([SourceBlock(loaded.value("sandbox"), cwd, "settings")])
    blocks = []
    for src in sources:
        raw = src.settings.model_dump(exclude_unset=True).get("sandbox")
        origin = str(src.path) if getattr(src, "path", None) else str(src.source)
        blocks.append(SourceBlock(raw, Path(src.root) if src.root else cwd, origin))
    return merge_sandbox_settings(blocks)
