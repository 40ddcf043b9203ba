#!/usr/bin/env bash
# Flash-cache systems and HotRAP at a 128 MiB budget (RocksDB's PersistentCache refuses 32 MiB),
# ro-hotspot5, 1 KiB records, on the throttled slow disk made by
#   scripts/slowdisk.sh up --dir /work/s39/slow --size 20G --read-iops 1650 --write-iops 1650 --read-bps 200M --write-bps 200M
set -u
JAR=${JAR:-/work/s39/clean-332d82e.jar}
OUT=${OUT:-/work/s39/out/b128}
SD="/work/main/scripts/slowdisk.sh run --dir /work/s39/slow --"
mkdir -p "$OUT"
run() { # system workload duration
  echo "=== $(date -u +%H:%M:%S) $1 $2 $3"
  $SD java -Xmx3g ${JOPTS:-} -jar "$JAR" run --system "$1" --workload "$2" --record-bytes 1024 --budget-mib 128 \
    --duration "$3" --threads 4 --dir /work/s39/w128 --slow-dir /work/s39/slow/p128 --out "$OUT" 2>&1 \
    | grep -v "^load \|^run " | tee -a "$OUT/full.log" \
    | grep "throughput\|Exception\|rror\|flash cache at close" | tail -5
}
for s in ${SYSTEMS:-rocksdb-pcache rocksdb-sc sas-cache hotrap}; do run $s ro-hotspot5 180s; done
echo "=== $(date -u +%H:%M:%S) done"
