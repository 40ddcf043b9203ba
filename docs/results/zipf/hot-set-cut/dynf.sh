#!/bin/bash
# ro-dynamic at 16 MiB on the slow disk, long phases, on b89f335 (the cut and the return-room floor).
S=/work/main/scripts/slowdisk.sh
echo "dyn16-final start $(date +%s)" >> /work/s44/times.txt
$S run --dir /work/s44/slow -- java -Xmx3g -jar /work/s44/hb-final.jar run --system hotrap --workload ro-dynamic --budget-mib 16 --phase-ops 1200000 --duration 1500s --dir /work/s44/std --slow-dir /work/s44/slow/std --out /work/s44/dyn16-final > /work/s44/console-dynf.txt 2>&1
echo "dyn16-final end $(date +%s) rc=$?" >> /work/s44/times.txt
echo done > /work/s44/done-dynf
