import csv, sys, statistics as st
run, dfile, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
rows=[l.strip().split(',') for l in open(run) if l[0].isdigit()]
ops=[float(r[3]) for r in rows]; hit=[float(r[4]) if r[4]!='NaN' else 0 for r in rows]
d=[x for x in csv.DictReader(open(dfile)) if t0<=float(x['t'])<=t1]
lr=[int(x['loop0_r']) for x in d]
# reads/ops ratio: slow gets = ops*(1-hit)*read_share; use correlation of shapes
slow=[o*(1-h) for o,h in zip(ops,hit)]
best=None
for off in range(0,len(lr)-len(slow)+1):
    c=st.correlation(slow,[lr[off+i] for i in range(len(slow))])
    if best is None or c>best[0]: best=(c,off)
c,off=best
print('offset',off,'corr slowgets/loop reads %.3f'%c)
al=[d[off+i] for i in range(len(slow))]
half=len(ops)//2
xs=ops[half:]; fl=[float(x['vda_rlat_ms']) for x in al][half:]; sl=[float(x['loop0_rlat_ms']) for x in al][half:]
print('second half: corr(ops, vda read ms) %.3f  corr(ops, loop read ms) %.3f'%(st.correlation(xs,fl),st.correlation(xs,sl)))
step=int(sys.argv[5]) if len(sys.argv)>5 else 10
for i in range(0,len(ops),step):
    seg=range(i,min(i+step,len(ops)))
    o=sum(ops[j] for j in seg)/len(seg); h=sum(hit[j] for j in seg)/len(seg)
    vr=sum(int(al[j]['vda_r']) for j in seg); vl=sum(int(al[j]['vda_r'])*float(al[j]['vda_rlat_ms']) for j in seg)/max(1,vr)
    lrr=sum(int(al[j]['loop0_r']) for j in seg); ll=sum(int(al[j]['loop0_r'])*float(al[j]['loop0_rlat_ms']) for j in seg)/max(1,lrr)
    vw=sum(int(al[j]['vda_w']) for j in seg)/len(seg)
    print("%4d-%4d ops %7.0f hit %.3f | vda r/s %6.0f %.3f ms w/s %5.0f | loop r/s %5.0f %.3f ms | cpu %.2f"%(i+1,seg[-1]+1,o,h,vr/len(seg),vl,vw,lrr/len(seg),ll,sum(float(al[j]['cpu_busy']) for j in seg)/len(seg)))
