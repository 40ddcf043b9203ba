#!/bin/bash
# 256 MiB, rw-hotspot5: the flash caches beside hotrap and rocksdb-tiered, on the code of 5d45a89, one after another.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 $* start $(date +%s)" >> /work/s43/times2.txt
  $S run --dir /work/s43/slow -- java -Xmx6g -jar /work/s43/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s43/w2 --slow-dir /work/s43/slow/p --out /work/s43/$out "${@:3}" >> /work/s43/console2.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s43/times2.txt
}
run flash-rw rocksdb-sc rw-hotspot5 --duration 300s
run flash-rw sas-cache rw-hotspot5 --duration 300s
run flash-rw rocksdb-tiered rw-hotspot5 --duration 300s
run flash-rw hotrap rw-hotspot5 --duration 300s
echo done > /work/s43/done2
