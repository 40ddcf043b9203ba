#!/bin/bash
# 16 MiB rw-zipf, 300 s, slow disk: the cut of 0.025 with the return-room floor of 0.1 (experiment
# build, exp.returnFloor=0.1) against 21fff8c (hb-old).
S=/work/main/scripts/slowdisk.sh
run() { # out props jar
  echo "$1 rw-zipf $2 $3 start $(date +%s)" >> /work/s44/times.txt
  $S run --dir /work/s44/slow -- java $2 -Xmx3g -jar /work/s44/$3.jar run --system hotrap --workload rw-zipf --budget-mib 16 --dir /work/s44/std --slow-dir /work/s44/slow/std --out /work/s44/$1 --duration 300s >> /work/s44/console-rwz.txt 2>&1
  echo "$1 end $(date +%s) rc=$?" >> /work/s44/times.txt
}
run rwz300-floor0.1 -Dexp.returnFloor=0.1 hb-exp2
run rwz300-old -Dx=0 hb-old
echo done > /work/s44/done-rwz
