"""Per-phase figures of a ro-dynamic run CSV of the standard profile at 16 MiB (180,224 records).

Usage: python3 dynamic-phases.py RUN.csv

For each phase: its length, the plateau (mean fast hit rate of its final 10 s), the first second
within 2 points of the plateau, the second after which it stays within 2 points (and the
operations until then), and the hot-set limit at its last second against the hotspot's bytes.
Runs made before PhaseMark (06185cc) label a second with client 0's phase, which can lag the
other clients by seconds: read the per-second rows around a change there.
"""
import sys, csv
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#'))]
h = rows[0]; rows = rows[1:]
E, P, T, H, L = (h.index(x) for x in ['elapsed_seconds','phase','throughput','fast_hit_rate','hot_set_limit_bytes'])
n = 180224
frac = {'hotspot-1%':0.01,'hotspot-3%':0.03,'hotspot-5%':0.05,'hotspot-5%-shifted':0.05,'hotspot-4%':0.04,'hotspot-2%':0.02}
phases = []
for r in rows:
    if not phases or phases[-1][0] != r[P]: phases.append((r[P], []))
    phases[-1][1].append(r)
for name, rs in phases:
    hits = [float(r[H]) for r in rs]
    plateau = sum(hits[-10:]) / len(hits[-10:])
    last_below = max([i for i, x in enumerate(hits) if x < plateau - 0.02], default=-1)
    first_within = next((i for i, x in enumerate(hits) if x >= plateau - 0.02), None)
    limit = float(rs[-1][L])
    hs = frac.get(name)
    ratio = limit / (round(hs * n) * 1024) if hs else float('nan')
    ops = sum(float(r[T]) for r in rs[:last_below + 1])
    print(f"{name:20s} {len(rs):4d}s plateau {plateau:.3f} first-within {first_within}s stays-within-after {last_below + 1}s (ops {ops:,.0f}) limit {limit/2**20:.1f}MiB ratio {ratio:.2f}")
