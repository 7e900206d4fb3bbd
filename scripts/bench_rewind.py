"""Benchmark file checkpoints: a 1,000-edit session, the rewind picker, a 100-file restore.

    python scripts/bench_rewind.py [--files 100] [--prompts 100] [--edits 1000] [--seed 7]

What it prints:
- recording: the cost each edit pays before it writes (`before_change`, blob and index fsynced);
- picker: opening the session's checkpoint folder from disk (as a resumed session does) and
  listing its prompts newest first with the files each changed, then mounting the rewind
  picker widget with them until it has drawn (a headless Textual app); target < 150 ms;
- restore: rewinding to before the first prompt, which rewrites every file the session touched
  (all `--files` of them); target < 1 s for 100 files;
- storage: bytes on disk (blob pack + index) against the bytes the edits changed (each edit's
  removed plus added text); target < 2x. Also against the bytes of the files as first seen.

The session is synthetic but shaped like a real one: source-like files of ~100 lines, and each
edit replaces one to three lines somewhere in a file with one to four new lines, as Edit does.
Everything happens in a temporary directory.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claude_harness.session.checkpointing.checkpoints import INDEX, Checkpoints  # noqa: E402
from claude_harness.tools.file_common import atomic_write  # noqa: E402

WORDS = ("value", "result", "count", "items", "config", "parser", "buffer", "index", "total",
         "handle", "request", "response", "cache", "token", "offset", "limit")


def source_line(rng: random.Random, depth: int) -> str:
    a, b, c = rng.sample(WORDS, 3)
    shapes = (f"{a} = {b}.{c}({rng.randint(0, 99)})", f"if {a} > {b}:", f"return {a} + {b}",
              f"for {a} in {b}.{c}():", f"self.{a} = {b}  # {c}", f"{a}.append({b}[{c}])")
    return "    " * depth + rng.choice(shapes)


def make_file(rng: random.Random, lines: int) -> str:
    return "\n".join(source_line(rng, rng.randint(0, 3)) for _ in range(lines)) + "\n"


def edit_text(rng: random.Random, text: str) -> tuple[str, int]:
    """One Edit-like change; returns the new text and the bytes it removed plus added."""
    lines = text.split("\n")
    start = rng.randrange(0, max(1, len(lines) - 4))
    removed = lines[start : start + rng.randint(1, 3)]
    added = [source_line(rng, rng.randint(0, 3)) for _ in range(rng.randint(1, 4))]
    new_lines = lines[:start] + added + lines[start + len(removed):]
    changed = len("\n".join(removed).encode()) + len("\n".join(added).encode())
    return "\n".join(new_lines), changed


def time_picker(store: Checkpoints) -> float:
    """Seconds from listing the prompts to the rewind picker having drawn them."""
    import asyncio

    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from claude_harness.frontends.tui.widgets.rewind_picker import RewindPicker

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("host")

    async def run() -> float:
        app = Host()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            began = time.perf_counter()
            drawn = asyncio.Event()
            await app.mount(RewindPicker(store.prompts(), store.plan_restore))
            app.call_after_refresh(drawn.set)
            await drawn.wait()
            return time.perf_counter() - began

    return asyncio.run(run())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--prompts", type=int, default=100)
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--lines", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory() as tmp:
        project, folder = Path(tmp) / "proj", Path(tmp) / "session" / "checkpoints"
        project.mkdir()
        paths = [project / f"module_{i:03}.py" for i in range(args.files)]
        texts = {p: make_file(rng, args.lines) for p in paths}
        for path, text in texts.items():
            path.write_text(text)
        original_bytes = sum(len(t.encode()) for t in texts.values())
        original = {p: p.read_bytes() for p in paths}

        store = Checkpoints.open(folder)
        changed_bytes = 0
        record_times: list[float] = []
        # every file is touched at least once, the rest at random
        order = paths + [rng.choice(paths) for _ in range(args.edits - len(paths))]
        rng.shuffle(order)
        per_prompt = max(1, args.edits // args.prompts)
        for n, path in enumerate(order):
            if n % per_prompt == 0:
                store.begin_prompt(f"prompt-{n // per_prompt}", message_uuid=f"uuid-{n}",
                                   text=f"step {n // per_prompt}")
            new_text, changed = edit_text(rng, texts[path])
            began = time.perf_counter()
            store.before_change(path)
            record_times.append(time.perf_counter() - began)
            atomic_write(str(path), new_text.encode())
            texts[path] = new_text
            changed_bytes += changed
        store.close()

        began = time.perf_counter()
        reopened = Checkpoints.open(folder)
        rows = reopened.prompts()
        listing = time.perf_counter() - began
        files_listed = sum(len(r.files) for r in rows)
        began = time.perf_counter()
        again = reopened.prompts()
        relisting = time.perf_counter() - began
        assert len(again) == len(rows) == args.prompts
        picker = time_picker(reopened)

        first = rows[-1].prompt_id
        began = time.perf_counter()
        plan = reopened.plan_restore(first)
        planned = time.perf_counter() - began
        began = time.perf_counter()
        result = reopened.restore(first)
        restore_time = time.perf_counter() - began
        restored = len(result.files_changed)
        exact = all(p.read_bytes() == original[p] for p in paths)

        storage = reopened.blobs.stored_bytes() + (folder / INDEX).stat().st_size
        pack, index = reopened.blobs.stored_bytes(), (folder / INDEX).stat().st_size

    record_times.sort()
    print(f"session: {args.edits} edits in {args.prompts} prompts over {args.files} files "
          f"of ~{args.lines} lines ({original_bytes:,} bytes at the start)")
    print(f"recording before each edit: median {statistics.median(record_times) * 1000:.2f} ms, "
          f"p95 {record_times[int(len(record_times) * 0.95)] * 1000:.2f} ms "
          "(blob and index fsynced)")
    print(f"picker: open from disk + list {len(rows)} prompts ({files_listed} file rows): "
          f"{listing * 1000:.1f} ms; listing again in memory: {relisting * 1000:.2f} ms; "
          f"the picker widget mounted and drawn: {picker * 1000:.1f} ms; together "
          f"{(listing + picker) * 1000:.0f} ms  target < 150 ms")
    print(f"restore to before the first prompt: plan {planned * 1000:.0f} ms "
          f"({len(plan.changes)} files), restore {restore_time * 1000:.0f} ms for {restored} "
          f"files, byte-identical: {exact}  target < 1 s for 100 files")
    print(f"storage: {storage:,} bytes (pack {pack:,} + index {index:,}) for {changed_bytes:,} "
          f"changed bytes = {storage / changed_bytes:.2f}x  target < 2x "
          f"({storage / original_bytes:.2f}x the files' starting size)")
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
