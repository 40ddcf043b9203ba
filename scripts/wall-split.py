#!/usr/bin/env python3
"""Splits the wall time of one JMH benchmark thread by what it was doing, in microseconds per op.

Reads async-profiler's collapsed wall-clock stacks (JMH -prof async with event=wall, threads=true,
output=collapsed) and the benchmark's score in ops/s, and prints, per category, the share of the
samples taken inside the measured loop (stacks through JMH's generated *_jmhStub method, so that
setup and teardown of the trial do not count) times 1e6 / score. Categories are tested in order; the first whose
frame pattern occurs in a stack takes it:

  promotion      the promotion cache and the promoter (io/hotrap/core/Promoter, io/hotrap/cache/)
  ralt           logging the access (AccessTracker)
  pread data/filter/index   RocksDB reading a block from its file, by block kind
  rocksdb        the rest of RocksDB's get
  other          the rest (the benchmark loop, HotRapDB's own checks, garbage collection stalls)

Usage: scripts/wall-split.py <collapsed-wall.csv> <ops/s> [thread-name-prefix]

Example (async-profiler unpacked to /tmp/ap):
  java -jar hotrap-bench/target/hotrap-bench.jar jmh ColdGetBenchmark -p promotion=true -f 1 \\
    -prof "async:libPath=/tmp/ap/linux-x64/libasyncProfiler.so;output=collapsed;event=wall;interval=200000;threads=true;dir=/tmp/prof"
  scripts/wall-split.py /tmp/prof/*/collapsed-wall.csv 27840
"""
import sys
from collections import Counter

CATEGORIES = [
    ("promotion", ("io/hotrap/core/Promoter", "io/hotrap/cache/")),
    ("ralt", ("io/hotrap/core/AccessTracker",)),
    ("pread data", ("Block_kData",)),
    ("pread filter", ("ParsedFullFilterBlock",)),
    ("pread index", ("Block_kIndex",)),
    ("rocksdb", ("org/rocksdb/RocksDB.get",)),
]


def category(stack, leaf):
    for name, patterns in CATEGORIES:
        if name.startswith("pread") and "pread" not in leaf:
            continue
        if any(p in stack for p in patterns):
            return name
    return "other"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    path, score = argv[1], float(argv[2])
    thread = "[" + (argv[3] if len(argv) > 3 else "io.hotrap.bench")
    samples = Counter()
    total = 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack.startswith(thread) or "_jmhStub;" not in stack:
                continue
            n = int(count)
            total += n
            samples[category(stack, stack.rsplit(";", 1)[-1])] += n
    if total == 0:
        print(f"no samples of a measured loop on a thread starting with {thread[1:]!r}",
              file=sys.stderr)
        return 1
    per_op = 1e6 / score
    for name in [c for c, _ in CATEGORIES] + ["other"]:
        print(f"{name:14s} {samples[name] / total * per_op:7.2f} us/op  {samples[name] / total:6.1%}")
    print(f"{'total':14s} {per_op:7.2f} us/op  ({total} samples)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
