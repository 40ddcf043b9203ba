#!/usr/bin/env bash
# Second script, run right after runs.sh with the same jar and disk: HotRAP against SAS-Cache
# again in the other order ($OUT/r2), rocksdb-sc on rw-hotspot5, and a third round of the
# 90%-read mix pairs ($OUT/r3).
set -u
. "$(dirname "$0")/run-lib.sh"
mkdir -p "$OUT/r2" "$OUT/r3"
for w in ro-hotspot5 rw-hotspot5; do
  for s in sas-cache hotrap; do run $s $w 1024 90s "$OUT/r2"; done
done
run rocksdb-sc rw-hotspot5 1024 90s "$OUT/r1"
for w in ru-uniform ru-zipf; do
  for s in rocksdb-sc sas-cache; do run $s $w 10264 60s "$OUT/r3"; done
done
echo "=== $(date -u +%H:%M:%S) done"
