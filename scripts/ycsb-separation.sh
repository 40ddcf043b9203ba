#!/usr/bin/env bash
# YCSB workloads A and F through the binding, write-hot separation off and then on, each on a
# freshly loaded store: the same records and operation counts for both. Prints YCSB's throughput
# and return counts per run; the store's own figures (hot writes, skew) are in each run's .err
# file, logged when the binding closes the store.
#
#   scripts/ycsb-separation.sh [out-dir]     (env: REC, OPS, THREADS, BUDGET, JAR)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-hotrap-data/ycsb-separation}
JAR=${JAR:-ycsb-binding/target/hotrap-ycsb.jar}
W=ycsb-binding/workloads
REC=${REC:-200000}
OPS=${OPS:-200000}
THREADS=${THREADS:-4}
BUDGET=${BUDGET:-16M}
mkdir -p "$OUT"
for sep in false true; do
  D="$OUT/data-$sep"
  rm -rf "$D"
  common=(-db io.hotrap.ycsb.HotRapYcsbClient -threads "$THREADS" -p recordcount="$REC"
    -p operationcount="$OPS" -p hotrap.fast.dir="$D/fast" -p hotrap.slow.dir="$D/slow"
    -p hotrap.fast.budget="$BUDGET" -p hotrap.write.hot.separation="$sep")
  java -cp "$JAR" site.ycsb.Client -load -P "$W/workloada" "${common[@]}" \
    > "$OUT/load-$sep.txt" 2> "$OUT/load-$sep.err"
  for w in a f; do
    java -cp "$JAR" site.ycsb.Client -t -P "$W/workload$w" "${common[@]}" \
      > "$OUT/run-$w-$sep.txt" 2> "$OUT/run-$w-$sep.err"
  done
  rm -rf "$D"
done
grep -H "OVERALL\], Throughput\|Return=" "$OUT"/run-*.txt
