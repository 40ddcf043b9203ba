#!/usr/bin/env bash
# The issue-18 runs, one after the other, on the throttled slow disk.
set -u
JAR=/work/bench18/hotrap-bench.jar
SD="/work/wt18/scripts/slowdisk.sh run --dir /mnt/slow18 --"
run() { # dir slowdir system workload record duration
  echo "=== $(date -u +%H:%M:%S) $3 $4 $5"
  $SD java -Xmx3g -jar $JAR run --system "$3" --workload "$4" --record-bytes "$5" --budget-mib 32 \
    --duration "$6" --threads 4 --dir "$1" --slow-dir "$2" --out /work/bench18/results 2>&1 \
    | grep -v "^load \|^run " | tail -4
}
mkdir -p /mnt/slow18/sas /mnt/slow18/hot
# SAS-Cache's default mix: 90% reads, 10% updates, uniform keys, 10 KiB values.
for s in rocksdb-sc sas-cache; do run /work/bench18/sas /mnt/slow18/sas $s ru-uniform 10264 60s; done
# SAS-Cache's read-only Exp-range runs.
for er in 5 15 25; do for s in rocksdb-sc sas-cache; do run /work/bench18/sas /mnt/slow18/sas $s ro-exprange$er 10264 60s; done; done
# HotRAP against SAS-Cache, 1 KiB records.
for w in ro-hotspot5 rw-hotspot5; do for s in hotrap sas-cache; do run /work/bench18/hot /mnt/slow18/hot $s $w 1024 90s; done; done
echo "=== $(date -u +%H:%M:%S) done"
