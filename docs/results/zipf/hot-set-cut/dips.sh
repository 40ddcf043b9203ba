#!/bin/bash
# usage: dips.sh RUN.csv...  Splits a run's seconds after the first minute into those under
# 2,000 ops/s and the rest, and prints per group the mean migration rates (retained and demoted
# bytes), fast-tier compaction and slow-device reads per second.
for f in "$@"; do
  grep -v "^#" "$f" | awk -F, -v f="$f" '
    NR > 2 && $1 > 60 {
      dr = ($10 - r) / 1e6; dd = ($11 - d) / 1e6; fc = ($12 - c) / 1e6
      if ($4 < 2000) { n1++; r1 += dr; d1 += dd; c1 += fc; s1 += $21 }
      else { n2++; r2 += dr; d2 += dd; c2 += fc; s2 += $21 }
    }
    { d = $11; r = $10; c = $12 }
    END {
      printf "%s\n", f
      printf "  under 2k ops/s, %d s: retained %.1f MB/s, demoted %.2f MB/s, fast compaction %.1f MB/s, slow reads %.0f/s\n", n1, r1/n1, d1/n1, c1/n1, s1/n1
      printf "  the rest, %d s: retained %.1f MB/s, demoted %.2f MB/s, fast compaction %.1f MB/s, slow reads %.0f/s\n", n2, r2/n2, d2/n2, c2/n2, s2/n2
    }'
done
