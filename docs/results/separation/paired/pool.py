"""Pools separation-paired runs into one ratio of the separated store over hotrap.

Usage: python3 pool.py FILE:SIGN ...  (FILE a run's paired.csv; SIGN 1 where its ratio column is
separated / hotrap, -1 where it is hotrap / separated). Each run's mean log ratio is weighted by
1 / se^2, se the larger of the per-block standard error and the one from means of 20-block
batches, as the bench computes it; prints each run and the pooled ratio with its 95% interval.
"""
import csv,math,sys
# args: file:sign ... sign +1 if ratio is sep/hotrap, -1 if hotrap/sep
ws=0; wm=0
for a in sys.argv[1:]:
  f,sg=a.split(':'); sg=int(sg)
  rows=list(csv.DictReader(open(f)))
  k=[c for c in rows[0] if c.startswith('ratio')][0]
  lr=[sg*math.log(float(r[k])) for r in rows]
  n=len(lr); m=sum(lr)/n; sd=math.sqrt(sum((x-m)**2 for x in lr)/(n-1)); se=sd/math.sqrt(n)
  B=20; bm=[sum(lr[i*B:(i+1)*B])/B for i in range(n//B)]
  mm=sum(bm)/len(bm); bse=math.sqrt(sum((x-mm)**2 for x in bm)/(len(bm)-1))/math.sqrt(len(bm))
  s=max(se,bse); w=1/s**2; ws+=w; wm+=w*m
  print(f"{f}: sep/hotrap {math.exp(m):.4f} se {s:.4f}")
m=wm/ws; s=1/math.sqrt(ws)
print(f"pooled sep/hotrap {math.exp(m):.4f}, 95% {math.exp(m-1.96*s):.4f}-{math.exp(m+1.96*s):.4f}")
