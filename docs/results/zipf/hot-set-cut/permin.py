import sys, csv
# per-minute means of fast hit rate (weighted by operations) and ops/s, and hot-set limit at minute end
for f in sys.argv[1:]:
    rows=[r for r in csv.DictReader(l for l in open(f) if not l.startswith('#')) if r['phase']=='run']
    print(f)
    by={}
    for r in rows:
        m=int(float(r['elapsed_seconds'])//60)
        by.setdefault(m,[]).append(r)
    for m in sorted(by):
        rs=by[m]; ops=sum(float(r['operations']) for r in rs)
        hit=sum(float(r['fast_hit_rate'])*float(r['operations']) for r in rs if r['fast_hit_rate'])/ops
        print("%3d-%3d s  hit %.3f  ops/s %6.0f  limit %5.1f MiB"%(m*60,m*60+60,hit,ops/len(rs),float(rs[-1]['hot_set_limit_bytes'])/2**20))
