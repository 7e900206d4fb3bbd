"""Benchmark escape stripping (claude_harness.text.terminal_safety) on 10 MB of text.

Three inputs of 10 MB each: plain text (the common case: one scan, no copy), coloured compiler
output (many SGR sequences), and hostile output (titles, screen clears, cursor moves, C1 bytes
every few lines). Prints the median time and throughput of `strip_unsafe`, with and without
keeping colours.

Usage: python scripts/bench_terminal_safety.py [-n 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from claude_harness.text.terminal_safety import strip_unsafe

SIZE = 10 * 1024 * 1024
ESC = "\x1b"


def _fill(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


SAMPLES = {
    "plain": _fill("src/module.py:42: def handler(request): return response  # ok\n"),
    "coloured": _fill(f"{ESC}[1m{ESC}[31merror{ESC}[0m: {ESC}[36msrc/a.py{ESC}[0m:12: bad\n"),
    "hostile": _fill(
        f"line one\n{ESC}]0;pwned\x07text{ESC}[2J{ESC}[H more\x9b1A{ESC}[?1049h\n"
        f"{ESC}[32mgreen{ESC}[0m {ESC}P1$r{ESC}\\ tail\x08\x08\n"
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="runs per case")
    args = parser.parse_args()
    print(f"{'input (10 MB)':<12} {'keep_colors':<12} {'median':>9} {'MB/s':>8}")
    for name, text in SAMPLES.items():
        for keep in (False, True):
            times = []
            for _ in range(args.n):
                start = time.perf_counter()
                strip_unsafe(text, keep_colors=keep)
                times.append(time.perf_counter() - start)
            median = statistics.median(times)
            print(f"{name:<12} {str(keep):<12} {median * 1000:>7.1f}ms {SIZE / 2**20 / median:>8.0f}")


if __name__ == "__main__":
    main()
