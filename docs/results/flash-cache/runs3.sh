#!/usr/bin/env bash
# Third round: HotRAP's claim against the block-sized stand-in, and the record-sized cache.
set -u
JAR=/work/bench18/hotrap-bench-v2.jar
SD="/work/wt18/scripts/slowdisk.sh run --dir /mnt/slow18 --"
run() { # dir slowdir system workload record duration out
  echo "=== $(date -u +%H:%M:%S) $3 $4 $5 -> $7"
  $SD java -Xmx3g -jar $JAR run --system "$3" --workload "$4" --record-bytes "$5" --budget-mib 32 \
    --duration "$6" --threads 4 --dir "$1" --slow-dir "$2" --out "$7" 2>&1 \
    | grep -v "^load \|^run " | tail -4
}
for w in ro-hotspot5 rw-hotspot5; do for s in sas-cache sas-cache-rec; do run /work/bench18/hot /mnt/slow18/hot $s $w 1024 90s /work/bench18/results; done; done
run /work/bench18/hot /mnt/slow18/hot rocksdb-sc ro-hotspot5 1024 90s /work/bench18/results
echo "=== $(date -u +%H:%M:%S) done"
