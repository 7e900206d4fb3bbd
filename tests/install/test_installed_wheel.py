"""The installed package is the product: a wheel built from this checkout, installed into a
fresh venv outside it, runs with every file it opens.

Skipped unless CLAUDE_HARNESS_WHEEL_VENV names that venv (`.ci/run` builds the wheel, installs
it into a temp dir and runs this file with the variable set). Everything here runs the venv's
own interpreter or binary from a folder outside the checkout, with a clean environment, so
nothing can be found through the checkout by accident.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from claude_harness.testing.mock_api import MockApiServer
from tests.faults.binary_pane import BinaryPane

CHECKOUT = Path(__file__).resolve().parents[2]
SOURCE_PACKAGE = CHECKOUT / "claude_harness"
VENV = os.environ.get("CLAUDE_HARNESS_WHEEL_VENV")

pytestmark = pytest.mark.skipif(not VENV, reason="CLAUDE_HARNESS_WHEEL_VENV is not set "
                                "(.ci/run builds and installs the wheel, then sets it)")


def venv_bin(name: str) -> Path:
    assert VENV is not None
    return Path(VENV) / "bin" / name


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """No PYTHONPATH, no inherited settings: only the installed package can answer."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "CLAUDE_CONFIG_DIR": str(home / ".claude"),
            "CLAUDE_HARNESS_DATA_DIR": str(home / "data"),
            "CLAUDE_HARNESS_MANAGED_SETTINGS": str(home / "no-managed.json"),
            "CLAUDE_HARNESS_NO_DAEMON": "1", **extra}  # no warm process left behind


def installed_python(code: str, cwd: Path, home: Path) -> str:
    done = subprocess.run([str(venv_bin("python")), "-c", code], cwd=cwd, env=clean_env(home),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (tmp_path / "home").mkdir()
    return folder


def shipped_themes() -> list[str]:
    return sorted(p.stem for p in (SOURCE_PACKAGE / "themes").glob("*.toml"))


def test_the_package_comes_from_the_venv_not_the_checkout(outside: Path) -> None:
    where = installed_python("import claude_harness; print(claude_harness.__file__)", outside,
                             outside.parent / "home").strip()
    assert Path(where).resolve().is_relative_to(Path(VENV or "").resolve()), where
    assert not Path(where).resolve().is_relative_to(CHECKOUT), where


def test_version(outside: Path) -> None:
    done = subprocess.run([str(venv_bin("claude-harness")), "--version"], cwd=outside,
                          env=clean_env(outside.parent / "home"), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("0.") or "claude-harness" in done.stdout


def test_every_data_file_of_the_source_package_is_installed(outside: Path) -> None:
    """Every non-Python file in the source package (prompts, CSS, themes, tables) is in the
    install, at the same place: the code finds them beside its modules."""
    installed = Path(installed_python(
        "import claude_harness, os; print(os.path.dirname(claude_harness.__file__))",
        outside, outside.parent / "home").strip())
    data = [p.relative_to(SOURCE_PACKAGE) for p in SOURCE_PACKAGE.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert data, "the source package has no data files: the walk is wrong"
    missing = [str(rel) for rel in data if not (installed / rel).is_file()]
    assert missing == []


def test_the_code_paths_that_open_data_files_work_installed(outside: Path) -> None:
    """Each loader, run by the installed interpreter: every tool's prompt, the bundled ripgrep
    (its version and hash checked), both front ends' theme loaders for every shipped theme."""
    names = shipped_themes()
    out = installed_python(
        "from pathlib import Path\n"
        "from claude_harness.protocol.permission_data import PermissionContext\n"
        "from claude_harness.tools.registry import assemble_tool_pool\n"
        "from claude_harness.frontends.tui.themes import load_themes\n"
        "from claude_harness.frontends.plain.theme import load_theme\n"
        "from claude_harness.tools.grep.ripgrep import find_rg\n"
        "import sys\n"
        "assert Path(find_rg()).parent == Path(sys.executable).parent, find_rg()\n"
        "pool = assemble_tool_pool(PermissionContext(mode='default', cwd=Path.cwd()))\n"
        "assert all(t.description.strip() for t in pool), 'a tool without its prompt'\n"
        "themes, errors = load_themes()\n"
        "assert errors == [], errors\n"
        "print(' '.join(sorted(t.name for t in themes)))\n"
        f"for name in {names!r}:\n"
        "    theme, warning = load_theme(name)\n"
        "    assert warning is None and theme.name == name, (name, warning)\n",
        outside, outside.parent / "home")
    assert set(names) <= set(out.split())


@pytest.fixture
def server() -> Iterator[MockApiServer]:
    server = MockApiServer({"turns": [{"content": [{"type": "text", "text": "hello"}]}]})
    yield server
    server.close()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("theme", shipped_themes())
def test_the_installed_app_starts_with_each_theme_and_lists_them(
        outside: Path, server: MockApiServer, theme: str) -> None:
    home = outside.parent / "home"
    env = clean_env(home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="test")
    pane = BinaryPane(outside, env, [str(venv_bin("claude-harness")), "--trust-workspace",
                                     "--theme", theme], outside.parent)
    try:
        pane.wait("/help for commands")
        pane.type("/theme")
        pane.keys("Enter")
        screen = pane.wait(f"Theme: {theme}. Available:")
        listed = screen.split("Available:", 1)[1].split(". Use /theme", 1)[0]
        assert all(name in listed for name in shipped_themes()), listed
        assert "Unknown theme" not in screen
    finally:
        pane.close()
