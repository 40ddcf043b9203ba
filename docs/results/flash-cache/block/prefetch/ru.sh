#!/usr/bin/env bash
# sas-cache with and without its prefetch of new files, against rocksdb-sc, on SAS-Cache's
# 90%-read mix (10 KiB values, 32 MiB budget), on the throttled slow disk made by
#   scripts/slowdisk.sh up --dir /work/s39/slow --size 20G --read-iops 1650 --write-iops 1650 --read-bps 200M --write-bps 200M
# Round 1 runs the systems in one order, round 2 in the other.
set -u
JAR=${JAR:-/work/s39/pf.jar}
OUT=${OUT:-/work/s39/out/ru}
W=${W:-ru-zipf}
SD="/work/main/scripts/slowdisk.sh run --dir /work/s39/slow --"
mkdir -p "$OUT/r1" "$OUT/r2"
run() { # system out
  echo "=== $(date -u +%H:%M:%S) $1 $W -> $2"
  $SD java -Xmx3g -jar "$JAR" run --system "$1" --workload "$W" --record-bytes 10264 --budget-mib 32 \
    --duration 60s --threads 4 --dir /work/s39/w --slow-dir /work/s39/slow/s --out "$2" 2>&1 \
    | grep -v "^load \|^run " | tee -a "$OUT/full.log" \
    | grep "throughput\|Exception\|rror\|prefetch " | tail -4
}
for s in rocksdb-sc sas-cache sas-cache-pf; do run $s "$OUT/r1"; done
for s in sas-cache-pf sas-cache rocksdb-sc; do run $s "$OUT/r2"; done
echo "=== $(date -u +%H:%M:%S) done"
