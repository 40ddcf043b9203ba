import sys,csv
for f in sys.argv[1:]:
    rows=[r for r in csv.DictReader(l for l in open(f) if not l.startswith('#')) if r['phase']=='run']
    ops=sum(int(r['operations']) for r in rows); t=float(rows[-1]['elapsed_seconds'])-float(rows[0]['elapsed_seconds'])+1
    print(f, 'mean %.1f over %d s'%(ops/t,len(rows)))
