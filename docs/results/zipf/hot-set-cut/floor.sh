#!/bin/bash
# 16 MiB ro-zipf, 300 s, slow disk: the hot-set cut of 0.025 with a floor under the return room
# (experiment build of 9b738d2 + property exp.returnFloor, a share of R_hs).
S=/work/main/scripts/slowdisk.sh
for f in 0.05 0.1; do
  echo "floor $f start $(date +%s)" >> /work/s44/times.txt
  $S run --dir /work/s44/slow -- java -Dexp.returnFloor=$f -Xmx3g -jar /work/s44/hb-exp2.jar run --system hotrap --workload ro-zipf --budget-mib 16 --dir /work/s44/std --slow-dir /work/s44/slow/std --out /work/s44/z16-floor$f --duration 300s >> /work/s44/console-floor.txt 2>&1
  echo "floor $f end $(date +%s) rc=$?" >> /work/s44/times.txt
done
echo done > /work/s44/done-floor
