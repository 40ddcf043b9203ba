#!/bin/bash
# The return-room floor of 0.1 (experiment build, exp.returnFloor) at 128 MiB on ro-zipf, then 16 MiB
# rw-zipf and rw-hotspot5 (80 s, slow disk) against the committed cut alone (hb-new) and 21fff8c (hb-old).
S=/work/main/scripts/slowdisk.sh
echo "z128 floor0.1 start $(date +%s)" >> /work/s44/times.txt
java -Dexp.returnFloor=0.1 -Xmx4g -jar /work/s44/hb-exp2.jar run --system hotrap --workload ro-zipf --budget-mib 128 --duration 600s --dir /work/s44/z128 --out /work/s44/out-z128-floor0.1 > /work/s44/console-z128-floor0.1.txt 2>&1
echo "z128 floor0.1 end $(date +%s)" >> /work/s44/times.txt
run() { # out workload props jar
  echo "$1 $2 $3 $4 start $(date +%s)" >> /work/s44/times.txt
  $S run --dir /work/s44/slow -- java $3 -Xmx3g -jar /work/s44/$4.jar run --system hotrap --workload $2 --budget-mib 16 --dir /work/s44/std --slow-dir /work/s44/slow/std --out /work/s44/$1 --duration 80s >> /work/s44/console-floor2.txt 2>&1
  echo "$1 end $(date +%s) rc=$?" >> /work/s44/times.txt
}
run w16-floor0.1 rw-zipf -Dexp.returnFloor=0.1 hb-exp2
run w16-new rw-zipf -Dx=0 hb-new
run w16-old rw-zipf -Dx=0 hb-old
run w16-floor0.1 rw-hotspot5 -Dexp.returnFloor=0.1 hb-exp2
echo done > /work/s44/done-floor2
