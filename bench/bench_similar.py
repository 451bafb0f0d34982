"""Speed of the similar-known-failure fallback: loading its index once, then one lookup per paste.

Reported: milliseconds to load and vectorise ``catalog/data/similar_index.json`` (paid once, on the
first unexplained fatal error), and the median and worst milliseconds of one lookup, over every
indexed example's own lines used as a paste. Not a test: numbers depend on the machine.

    python bench/bench_similar.py
"""

from __future__ import annotations

import statistics
import sys
import time

from ascendrl.catalog import similar


def main() -> int:
    t = time.perf_counter()
    index = similar.load_index()
    load_ms = (time.perf_counter() - t) * 1000
    times = []
    for example in index.examples:
        t = time.perf_counter()
        index.nearest(similar.templates(example.lines), (example.source,))
        times.append((time.perf_counter() - t) * 1000)
    print(f"index: {len(index.examples)} examples, loaded in {load_ms:.1f} ms")
    print(f"lookup: median {statistics.median(times):.2f} ms, worst {max(times):.2f} ms over {len(times)} pastes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
