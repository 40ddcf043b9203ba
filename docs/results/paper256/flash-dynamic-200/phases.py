import sys, csv, io
f=sys.argv[1]; rec=int(sys.argv[2]) if len(sys.argv)>2 else 2882930
lines=[l for l in open(f) if not l.startswith('#')]
r=list(csv.DictReader(io.StringIO(''.join(lines))))
phases=[]
for x in r:
    if not phases or phases[-1][0]!=x['phase']: phases.append((x['phase'],[]))
    phases[-1][1].append(x)
share={'hotspot-1%':0.01,'hotspot-3%':0.03,'hotspot-5%':0.05,'hotspot-5%-shifted':0.05,'hotspot-4%':0.04,'hotspot-2%':0.02}
for name,rows in phases:
    t0=float(rows[0]['elapsed_seconds'])-1; t1=float(rows[-1]['elapsed_seconds'])
    hits=[float(x['fast_hit_rate']) for x in rows]
    plateau=sum(hits[-10:])/len(hits[-10:])
    first=next((i+1 for i,h in enumerate(hits) if h>=plateau-0.02),None)
    # stays: first i after which every 5-s mean >= plateau-0.02
    stay=None
    for i in range(len(hits)):
        ok=all(sum(hits[j:j+5])/len(hits[j:j+5])>=plateau-0.02 for j in range(i,len(hits)))
        if ok: stay=i+1; break
    lim=float(rows[-1]['hot_set_limit_bytes'])
    ops=sum(float(x['operations']) for x in rows)
    s=share.get(name)
    hb=s*rec*1024 if s else None
    print("%-8s %5.0f s  ops %8.0f  plateau %.3f  first within 2pt %s s  stays from %s s  limit %.1f MiB %s"%(name,t1-t0,ops,plateau,first,stay,lim/2**20, ("hotspot %.1f MiB ratio %.2f"%(hb/2**20,lim/hb)) if hb else ""))
