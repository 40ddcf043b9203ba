#!/bin/bash
# The long-phase dynamic run at 16 MiB on 5da28bf, after paper.sh, on the standard run's template.
while ! grep -q "^end" /work/s48/paper-times.txt 2>/dev/null; do sleep 10; done
cd /work/s48
date -u +"start %FT%TZ" > dyn-times.txt
bash /work/main/scripts/slowdisk.sh run --dir /work/s48/slow -- java -Xmx3g -jar hb.jar run \
  --system hotrap --workload ro-dynamic --budget-mib 16 --phase-ops 1200000 --duration 1500s \
  --dir /work/s48/stdw --slow-dir /work/s48/slow/std --out /work/s48/dyn > dyn-console.txt 2>&1
echo "rc $?" >> dyn-times.txt
date -u +"end %FT%TZ" >> dyn-times.txt
