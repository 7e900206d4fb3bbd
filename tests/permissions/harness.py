"""The corpus world: one fixture, its configurations, the product's chain, and the sandbox.

Shared by the corpus test (what the chain decides) and the differential test (what the allowed
commands then do). Decisions are made against the fixture template; an allowed command runs in
a fresh copy of it mounted over the template's path, so both see the same paths and files.
A multi-call attack runs in its own copy: each step is decided against the copy as the
previous steps left it, from the directory the previous step ended in, as the Bash tool does.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.permissions.chain import Chain, Verdict, world_env, write_config_files
from tests.permissions.corpus.configs import CONFIGS
from tests.permissions.corpus.model import Attack
from tests.permissions.sandbox_fixture import (
    MARKER_WORD,
    Sandbox,
    SandboxRun,
    compare,
    run_sandboxed,
    sandbox_base,
    snapshot,
)
from tests.permissions.traces import violations

WORKERS = 4


def _host_markers() -> set[str]:
    return {str(p) for p in Path("/tmp").glob(f"*{MARKER_WORD}*")}


def _simulated_sed(verdict: Verdict) -> dict | None:
    edit = (verdict.updated_input or {}).get("_simulated_sed_edit")
    return edit if isinstance(edit, dict) else None


def _apply_sed(edit: dict, mounted_at: Path, copy: Path) -> None:
    """What the Bash tool does with an approved `sed -i` preview: write the previewed text
    (into the copy, where the template's path is mounted)."""
    from claude_harness.tools.bash.schema import SimulatedSedEdit
    from claude_harness.tools.bash.sed_edit import apply_sed_edit

    target = Path(edit["file_path"])
    try:
        relative = target.relative_to(mounted_at)
    except ValueError:
        relative = None
    path = copy / relative if relative is not None else target
    apply_sed_edit(SimulatedSedEdit(file_path=str(path), new_content=edit["new_content"]))


@dataclass
class StepResult:
    command: str
    verdict: Verdict
    run: SandboxRun | None = None


@dataclass
class SequenceOutcome:
    """A multi-call attack in one configuration: where it was stopped, what ran, what it left."""

    attack: Attack
    config: str
    steps: list[StepResult] = field(default_factory=list)
    traces: list[str] = field(default_factory=list)

    @property
    def refused(self) -> bool:
        return any(s.verdict.refused for s in self.steps)

    def describe(self) -> str:
        lines = [f"[{self.config}] {self.attack.text}"]
        for step in self.steps:
            lines.append(f"    {step.verdict.behavior:5} {step.command!r}: {step.verdict.reason[:100]}")
        lines += [f"    TRACE: {t}" for t in self.traces]
        return "\n".join(lines)


class CorpusWorld:
    """The session's fixture, configuration files and decision chain."""

    def __init__(self) -> None:
        self._host_markers = _host_markers()
        self.sandbox = Sandbox(sandbox_base())
        self.fixture = self.sandbox.fixture
        self.settings_files = write_config_files(self.sandbox.base / "configs")
        with world_env(self.fixture.home, self.sandbox.base):
            self.chain = Chain(self.fixture.project, self.settings_files)

    def close(self) -> None:
        self.sandbox.cleanup()

    # -- deciding --------------------------------------------------------------------------

    def decide_all(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Verdict]:
        with world_env(self.fixture.home, self.sandbox.base):
            return self.chain.decide_all(pairs)

    def template_changes(self) -> list[str]:
        """What ran outside the sandbox: changes to the fixture itself (decisions are made
        against it) and markers in this machine's /tmp (every payload names one). Deciding
        runs git queries and sed previews; none may run the command's or the repository's
        code."""
        changed = compare(self.sandbox.template, snapshot(self.fixture.root)).all()
        return changed + sorted(_host_markers() - self._host_markers)

    # -- running what was allowed ----------------------------------------------------------

    def execute(self, command: str, verdict: Verdict) -> SandboxRun:
        edit = _simulated_sed(verdict)
        if edit is None:
            return self.sandbox.run(command)
        copy = self.sandbox.fresh_copy()
        try:
            _apply_sed(edit, self.fixture.root, copy)
            changes = compare(self.sandbox.template, snapshot(copy))
        finally:
            shutil.rmtree(copy, ignore_errors=True)
        return SandboxRun(command, 0, "", "", False, changes, None)

    def execute_many(self, items: dict[str, Verdict]) -> dict[str, SandboxRun]:
        """Run each allowed command once, in parallel (each in its own copy)."""
        with ThreadPoolExecutor(WORKERS) as pool:
            futures = {cmd: pool.submit(self.execute, cmd, v) for cmd, v in items.items()}
            return {cmd: f.result() for cmd, f in futures.items()}

    def traces(self, run: SandboxRun, config: str) -> list[str]:
        return violations(run.changes, run.stdout + run.stderr, CONFIGS[config])

    # -- multi-call attacks ----------------------------------------------------------------

    def run_sequence(self, attack: Attack, config: str) -> SequenceOutcome:
        outcome = SequenceOutcome(attack, config)
        first = attack.steps[0]
        verdict = self.decide_all([(first, config)])[(first, config)]
        outcome.steps.append(StepResult(first, verdict))
        if verdict.refused:
            return outcome
        copy = self.sandbox.fresh_copy()
        try:
            self._continue_in_copy(outcome, copy)
        finally:
            shutil.rmtree(copy, ignore_errors=True)
        return outcome

    def _continue_in_copy(self, outcome: SequenceOutcome, copy: Path) -> None:
        """The copy is mounted at its own path; each step is decided against it as it is now."""
        project, home = copy / "proj", copy / "home"
        with world_env(home, self.sandbox.base):
            chain = Chain(project, self.settings_files)
        shell_cwd = project
        output = ""
        for index, command in enumerate(outcome.attack.steps):
            if index:
                with world_env(home, self.sandbox.base):
                    verdict = chain.decide_now(command, outcome.config, shell_cwd)
                outcome.steps.append(StepResult(command, verdict))
                if verdict.refused:
                    break
            step = outcome.steps[-1]
            rc, out, err, timed_out, final = run_sandboxed(copy, copy, command, cwd=shell_cwd)
            step.run = SandboxRun(command, rc, out, err, timed_out, compare({}, {}), final)
            output += out + err
            if final is not None and final.is_dir():
                shell_cwd = final
        changes = compare(self.sandbox.template, snapshot(copy))  # both relative to the root
        outcome.traces = violations(changes, output, CONFIGS[outcome.config])
