#!/usr/bin/env bash
# Second script, run right after runs.sh with the same jar and disk: HotRAP against SAS-Cache
# again in the other order ($OUT/r2), rocksdb-sc on rw-hotspot5, and a third round of the
# 90%-read mix pairs ($OUT/r3).
set -u
JAR=${JAR:-/work/b18/hotrap-bench.jar}
OUT=${OUT:-/work/b18/res}
SD="/work/wt18b/scripts/slowdisk.sh run --dir /work/b18/slowdev --"
run() { # system workload record duration out
  echo "=== $(date -u +%H:%M:%S) $1 $2 $3 $4 -> $5"
  $SD java -Xmx3g -jar "$JAR" run --system "$1" --workload "$2" --record-bytes "$3" --budget-mib 32 \
    --duration "$4" --threads 4 --dir /work/b18/w --slow-dir /work/b18/slowdev/s --out "$5" 2>&1 \
    | grep -v "^load \|^run " | tee -a "$OUT/full.log" \
    | grep "throughput\|Exception\|rror\|flash cache at close" | tail -5
}
mkdir -p "$OUT/r2" "$OUT/r3"
for w in ro-hotspot5 rw-hotspot5; do
  for s in sas-cache hotrap; do run $s $w 1024 90s "$OUT/r2"; done
done
run rocksdb-sc rw-hotspot5 1024 90s "$OUT/r1"
for w in ru-uniform ru-zipf; do
  for s in rocksdb-sc sas-cache; do run $s $w 10264 60s "$OUT/r3"; done
done
echo "=== $(date -u +%H:%M:%S) done"
