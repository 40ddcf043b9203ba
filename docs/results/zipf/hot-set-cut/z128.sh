#!/bin/bash
# ro-zipf at 128 MiB, 600 s, unthrottled disk: the hot-set cut of 0.025 (9b738d2) against 0.1 (21fff8c)
set -x
for j in new old; do
  java -Xmx4g -jar /work/s44/hb-$j.jar run --system hotrap --workload ro-zipf --budget-mib 128 --duration 600s --dir /work/s44/z128 --out /work/s44/out-z128-$j > /work/s44/console-z128-$j.txt 2>&1
done
