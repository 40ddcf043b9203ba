#!/bin/bash
# 16 MiB (standard profile budget) runs on the slow disk: the hot-set cut of 0.025 (9b738d2, hb-new)
# against 0.1 (21fff8c, hb-old), one after another, nothing else running.
S=/work/main/scripts/slowdisk.sh
run() { # jar out workload extra-args...
  local jar=$1 out=$2 w=$3; shift 3
  echo "$jar $out $w $* start $(date +%s)" >> /work/s44/times.txt
  $S run --dir /work/s44/slow -- java -Xmx3g -jar /work/s44/hb-$jar.jar run --system hotrap --workload $w --budget-mib 16 --dir /work/s44/std --slow-dir /work/s44/slow/std --out /work/s44/$out-$jar "$@" >> /work/s44/console-std.txt 2>&1
  echo "$jar $out $w end $(date +%s) rc=$?" >> /work/s44/times.txt
}
run new z16 ro-zipf --duration 600s
run old z16 ro-zipf --duration 600s
run new h16 ro-hotspot5 --duration 80s
run old h16 ro-hotspot5 --duration 80s
run new h16 rw-hotspot5 --duration 80s
run old h16 rw-hotspot5 --duration 80s
run new dyn16 ro-dynamic --phase-ops 1200000 --duration 1500s
echo done > /work/s44/done-std
