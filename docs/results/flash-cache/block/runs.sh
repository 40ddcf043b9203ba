#!/usr/bin/env bash
# The issue-18 runs at block level (rocksdb-sc and sas-cache over the native secondary cache), one
# after the other, on the throttled slow disk made by
#   scripts/slowdisk.sh up --dir /work/b18/slowdev --size 20G --read-iops 1650 --cgroup hotrap-slow18b
# Round 1 writes to $OUT/r1, round 2 (the same pairs in the other order) to $OUT/r2.
set -u
. "$(dirname "$0")/run-lib.sh"
mkdir -p "$OUT/r1" "$OUT/r2"
# SAS-Cache's read-only Exp-range runs, 10 KiB values.
for er in 5 15 25; do for s in rocksdb-sc sas-cache; do run $s ro-exprange$er 10264 60s "$OUT/r1"; done; done
# SAS-Cache's 90%-read mix (10% updates), 10 KiB values, twice, the order reversed the second time.
for w in ru-uniform ru-zipf; do
  for s in rocksdb-sc sas-cache; do run $s $w 10264 60s "$OUT/r1"; done
  for s in sas-cache rocksdb-sc; do run $s $w 10264 60s "$OUT/r2"; done
done
# HotRAP against SAS-Cache at equal fast-disk bytes, 1 KiB records.
for w in ro-hotspot5 rw-hotspot5; do
  for s in hotrap sas-cache; do run $s $w 1024 90s "$OUT/r1"; done
done
run rocksdb-sc ro-hotspot5 1024 90s "$OUT/r1"
# RocksJava's PersistentCache at the same budget (refused below about 100 MiB before).
run rocksdb-pcache ro-hotspot5 1024 10s "$OUT/pcache"
echo "=== $(date -u +%H:%M:%S) done"
