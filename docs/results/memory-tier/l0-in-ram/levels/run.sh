#!/bin/bash
# usage: run.sh OUT [extra bench args]
cd /work/s45
OUT=$1; shift
/work/main/scripts/slowdisk.sh run --dir /work/s45/slow -- java -Xmx3g $JOPTS -jar ${JAR:-/work/s45/exp.jar} memory-tier --fast-dir /work/s45/fastdev --slow-dir /work/s45/slow --mem-dir /dev/shm/s45mem "$@" > $OUT 2> $OUT.err
