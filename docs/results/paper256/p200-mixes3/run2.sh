#!/bin/bash
# Continues run.sh with shorter rocksdb-tiered Zipf runs (steady from its first seconds) and adds rw-zipf.
# 256 MiB, 200 B records, on the code of cc06b95, one run after another, nothing else running.
S=/work/main/scripts/slowdisk.sh
run() { # out system workload extra-args...
  local out=$1; shift
  echo "$1 $2 start $(date +%s)" >> /work/s47/times.txt
  $S run --dir /work/s47/slow -- java -Xmx6g -jar /work/s47/hb.jar run --system $1 --workload $2 --budget-mib 256 --threads 8 --dir /work/s47/w --slow-dir /work/s47/slow/p --out /work/s47/$out "${@:3}" >> /work/s47/console.txt 2>&1
  echo "$1 $2 end $(date +%s) rc=$?" >> /work/s47/times.txt
}
while kill -0 12924 2>/dev/null; do sleep 5; done
echo "hotrap wh-hotspot5 end $(date +%s) (waited)" >> /work/s47/times.txt
run mixes rocksdb-tiered wh-hotspot5 --record-bytes 200 --duration 300s
run mixes hotrap uh-hotspot5 --record-bytes 200 --duration 300s
run mixes rocksdb-tiered uh-hotspot5 --record-bytes 200 --duration 300s
run zipf hotrap ro-zipf --record-bytes 200 --duration 1800s
run zipf rocksdb-tiered ro-zipf --record-bytes 200 --duration 300s
run zipf hotrap rw-zipf --record-bytes 200 --duration 1800s
run zipf rocksdb-tiered rw-zipf --record-bytes 200 --duration 300s
echo done > /work/s47/done
