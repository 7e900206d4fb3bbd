"""`strictPluginOnlyCustomization`: which customization surfaces load from managed settings and
plugins only, with Claude Code 2.1.332's meaning.

Read from managed settings (policySettings) only: a user or project file that sets it changes
nothing. `true` locks all four surfaces, a list locks the named ones of SURFACES (an unknown
entry locks nothing), `false` or unset locks none, and any other value counts as `true`, as
Claude Code treats an invalid value until it is fixed. A locked surface skips the user's and the
project's own sources (~/.claude/<surface>/, .claude/<surface>/, settings-file hooks, the user's
and .mcp.json MCP servers); managed settings and plugins still load.
"""

from __future__ import annotations

from typing import Any

SURFACES = ("skills", "agents", "hooks", "mcp")
PLUGIN_ONLY_NOTE = "skipped: strictPluginOnlyCustomization is set in managed settings"
_KEY = "strictPluginOnlyCustomization"


def locked_surfaces(loaded: Any) -> frozenset[str]:
    """The surfaces the managed settings of `loaded` (LoadedSettings) lock."""
    locked: set[str] = set()
    for src in getattr(loaded, "sources", ()):
        if src.source != "policySettings":
            continue
        data = src.settings.model_dump(exclude_unset=True)
        if _KEY in data:
            locked |= surfaces_of(data[_KEY])
    return frozenset(locked)


def surfaces_of(value: Any) -> frozenset[str]:
    """The surfaces one value locks (None or false: none; a list: its known names; anything
    else, `true` or invalid: all)."""
    if value is None or value is False:
        return frozenset()
    if isinstance(value, list):
        return frozenset(s for s in value if s in SURFACES)
    return frozenset(SURFACES)


def managed_locked_surfaces() -> frozenset[str]:
    """The same, read from the managed settings files alone (for a catalog loaded outside a
    session, which has no LoadedSettings)."""
    from claude_harness.config.paths import managed_settings_paths
    from claude_harness.config.settings import read_settings_file

    locked: set[str] = set()
    for path in managed_settings_paths():
        settings, _ = read_settings_file(path)
        if settings is not None:
            locked |= surfaces_of(settings.model_dump(exclude_unset=True).get(_KEY))
    return frozenset(locked)
