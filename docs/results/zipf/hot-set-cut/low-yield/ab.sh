#!/bin/bash
# rw-zipf at 16 MiB, 300 s: new (low-yield rule), old (c231244), new again; nothing else running.
S=/work/main/scripts/slowdisk.sh
run() { # jar out
  $S run --dir /work/s45/slow -- java -Xmx3g -jar /work/s45/$1 run --system hotrap --workload rw-zipf --budget-mib 16 --duration 300s --dir /work/s45/z --slow-dir /work/s45/slow/std --out /work/s45/$2 > /work/s45/$2.console 2>&1
}
run hbnew.jar rwz-new1
run hb.jar rwz-old2
run hbnew.jar rwz-new2
echo done > /work/s45/abdone
