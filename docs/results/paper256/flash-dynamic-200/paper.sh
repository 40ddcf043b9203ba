#!/bin/bash
# 256 MiB rows of the paper profile on the code of 5d45a89, one after another, nothing else running.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 $* start $(date +%s)" >> /work/s43/times.txt
  $S run --dir /work/s43/slow -- java -Xmx6g -jar /work/s43/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s43/w --slow-dir /work/s43/slow/p --out /work/s43/$out "${@:3}" >> /work/s43/console.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s43/times.txt
}
run flash rocksdb-sc ro-hotspot5 --duration 300s
run flash sas-cache ro-hotspot5 --duration 300s
run flash rocksdb-tiered ro-hotspot5 --duration 300s
run flash hotrap ro-hotspot5 --duration 300s
run dynamic hotrap ro-dynamic --phase-ops 1000000 --duration 1500s
run p200 hotrap ro-hotspot5 --record-bytes 200 --duration 1800s
run p200 rocksdb-tiered ro-hotspot5 --record-bytes 200 --duration 300s
echo done > /work/s43/done
