#!/bin/bash
# 256 MiB, 200 B records, rocksdb-fd on ro-zipf and rw-zipf for 300 s each, on the code of cc06b95, nothing else running.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 start $(date +%s)" >> /work/s47/times3.txt
  $S run --dir /work/s47/slow -- java -Xmx6g -jar /work/s47/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s47/w --slow-dir /work/s47/slow/p --out /work/s47/$out "${@:3}" >> /work/s47/console3.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s47/times3.txt
}
run fd rocksdb-fd ro-zipf --record-bytes 200 --duration 300s
run fd rocksdb-fd rw-zipf --record-bytes 200 --duration 300s
echo done > /work/s47/done3
