"""Benchmark the plain REPL's renderer on one enormous line: the answer streams in small deltas
(as the API sends text) into an EventRenderer on a terminal console, live area on, output to
memory (so the terminal's own speed is left out).

    python scripts/bench_plain_long_line.py [--sizes 250000,1000000,4000000] [--delta 24]

For each size it prints the time to stream every delta and to print the finished line, and the
time per megabyte: a flat per-megabyte figure means linear cost (the live tail draws only the
rows that fit; deltas are joined only when a line ends). Before, a 100 KB line took 88 s.
"""

from __future__ import annotations

import argparse
import io
import time

from claude_harness.frontends.plain.render import EventRenderer, make_console
from claude_harness.protocol.events import TextDelta, TurnEnd


def run(size: int, delta: int) -> tuple[float, float]:
    text = ("lorem ipsum " * (size // 12 + 1))[:size]
    out = EventRenderer(make_console(None, io.StringIO(), force_terminal=True, width=120))
    out.begin_turn()
    started = time.perf_counter()
    for i in range(0, len(text), delta):
        out.render(TextDelta(text[i:i + delta]))
    streamed = time.perf_counter()
    out.render(TurnEnd("end_turn", 1))
    out.end_turn()
    return streamed - started, time.perf_counter() - streamed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="250000,1000000,4000000")
    parser.add_argument("--delta", type=int, default=24, help="characters per text delta")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        stream, finish = run(size, args.delta)
        total = stream + finish
        print(f"{size / 1e6:5.2f} MB in {args.delta}-char deltas: stream {stream:.3f}s, "
              f"final print {finish:.3f}s, total {total:.3f}s "
              f"({total / (size / 1e6):.3f}s per MB)")


if __name__ == "__main__":
    main()
