#!/bin/bash
# 256 MiB, rw-hotspot5 with 200 B records, on the code of c231244, one after another, nothing else running.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 $* start $(date +%s)" >> /work/s45/times.txt
  $S run --dir /work/s45/slow -- java -Xmx6g -jar /work/s45/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s45/w --slow-dir /work/s45/slow/p --out /work/s45/$out "${@:3}" >> /work/s45/console.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s45/times.txt
}
run p200rw hotrap rw-hotspot5 --record-bytes 200 --duration 1800s
run p200rw rocksdb-tiered rw-hotspot5 --record-bytes 200 --duration 300s
echo done > /work/s45/done
