"""Plugins: folders (`.claude-plugin/plugin.json`) that bring commands, agents, skills, hooks
and MCP servers. `--plugin-dir DIR` and `enabledPlugins` (resolved to local folders) say which."""

from claude_harness.commands.plugins.discovery import PluginLoad, discover_plugins
from claude_harness.commands.plugins.manifest import Plugin, load_plugin

__all__ = ["Plugin", "PluginLoad", "discover_plugins", "load_plugin"]
