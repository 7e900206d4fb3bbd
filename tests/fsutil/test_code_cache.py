"""The dataclasses' compiled methods kept between cold starts (fsutil/code_cache.py), in real
processes: a second start compiles nothing and its classes behave exactly as compiled ones; a
cache file that is not beyond doubt ours and whole is never run."""

from __future__ import annotations

import json
import marshal
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from claude_harness.testing.mock_api import MockApiServer

PROGRAM = r'''
import dataclasses, json, sys
from dataclasses import dataclass, field
from claude_harness.fsutil.code_cache import install
cache = install()

@dataclass(frozen=True)
class Base:
    name: str
    size: int = 3
    tags: tuple = ()
    notes: list = field(default_factory=list, hash=False)

@dataclass(frozen=True)
class Child(Base):
    extra: dict = field(default_factory=dict)

@dataclass(order=True)
class Loose:
    a: int
    b: str = "x"
    def __post_init__(self): self.b = self.b * 2

seen = []
one, two = Child("a", 1, ("t",), ["n"], {"k": 1}), Child("a", 1, ("t",), ["n"], {"k": 1})
seen += [repr(one), one == two, hash(Base("a")) == hash(Base("a")), Base("a") != Base("b")]
try:
    one.name = "b"
except dataclasses.FrozenInstanceError as e:
    seen.append(type(e).__name__)
seen += [[f.name for f in dataclasses.fields(Child)], dataclasses.asdict(one),
         repr(dataclasses.replace(one, size=9)), Child.__match_args__, Base("q").notes is not
         Base("q").notes, repr(Loose(1)), Loose(1) < Loose(2), sorted(Loose.__init__.__annotations__)]
print(json.dumps({"compiled": cache.compiled if cache else None, "seen": seen}))
'''


def run(cache: Path, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          env={**os.environ, "CLAUDE_HARNESS_CACHE_DIR": str(cache), **env},
                          timeout=60, check=True)
    return json.loads(done.stdout)


def cache_file(cache: Path) -> Path:
    return cache / f"dataclass-code-{sys.implementation.cache_tag}.marshal"


def test_a_second_start_compiles_nothing_and_its_classes_behave_alike(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    plain = run(cache, CLAUDE_HARNESS_NO_CODE_CACHE="1")
    assert plain["compiled"] is None and not cache.exists()  # turned off: nothing kept
    first = run(cache)
    assert first["compiled"] > 5  # this program's own classes at least
    assert stat.S_IMODE(cache_file(cache).stat().st_mode) == 0o600
    second = run(cache)
    assert second["compiled"] == 0
    assert first["seen"] == second["seen"] == plain["seen"]


def test_the_program_keeps_its_compiled_code(tmp_path: Path) -> None:
    """Through the real entry point (`claude-harness -p`, as installed): the first run saves
    the table, the second finds every text in it (it has nothing to save: the file is not
    rewritten) and answers the same."""
    cache = tmp_path / "cache"
    program = Path(sys.executable).with_name("claude-harness")
    answers = []
    with MockApiServer({"turns": ["Hello.", "Hello."]}) as server:
        env = {**os.environ, "CLAUDE_HARNESS_CACHE_DIR": str(cache), "ANTHROPIC_API_KEY": "k",
               "CLAUDE_HARNESS_NO_DAEMON": "1", "ANTHROPIC_BASE_URL": server.url}
        for _ in range(2):
            done = subprocess.run([str(program), "-p", "hi"], capture_output=True, text=True,
                                  env=env, timeout=60, cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            answers.append(done.stdout)
            if len(answers) == 1:
                saved = cache_file(cache).stat()
    assert answers == ["Hello.\n", "Hello.\n"]
    assert cache_file(cache).stat().st_mtime_ns == saved.st_mtime_ns
    stamp, codes = marshal.loads(cache_file(cache).read_bytes())
    assert stamp[1] == sys.version and len(codes) > 500  # the session's hundreds of classes


def _group_writable(path: Path) -> None:
    path.chmod(0o660)


def _other_stamp(path: Path) -> None:
    _stamp, codes = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps(((1, "2.7.18 (another Python)", 4), codes)))


def _corrupt(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: 5000])


def _not_code(path: Path) -> None:
    stamp, codes = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps((stamp, {text: "print('planted')" for text in codes})))


def _a_symlink(path: Path) -> None:
    real = path.with_name("elsewhere.marshal")
    path.rename(real)
    path.symlink_to(real)


def _open_folder(path: Path) -> None:
    path.parent.chmod(0o777)


@pytest.mark.parametrize("spoil", [_group_writable, _other_stamp, _corrupt, _not_code, _a_symlink,
                                   _open_folder])
def test_a_file_not_beyond_doubt_ours_is_never_run(tmp_path: Path, spoil: object) -> None:
    cache = tmp_path / "cache"
    baseline = run(cache)
    spoil(cache_file(cache))  # type: ignore[operator]
    again = run(cache)
    assert again["compiled"] > 5  # compiled as if there were no file
    assert again["seen"] == baseline["seen"]
