import sys, time, glob, os
# per-second device stats: reads, avg read latency (ms), writes, avg write latency, for vda and the loop dev
out=open(sys.argv[1],'w')
loop=sys.argv[2]
devs=['vda',loop]
def rd(d):
    f=open('/sys/block/%s/stat'%d).read().split()
    return [int(x) for x in f]
def psi():
    try:
        l=open('/proc/pressure/io').read().split('\n')[0]
        return float(l.split('avg10=')[1].split()[0])
    except Exception: return -1
def cpu():
    f=open('/proc/stat').readline().split()[1:]
    v=[int(x) for x in f]; return sum(v), v[3]+v[4]
prev={d:rd(d) for d in devs}; pc=cpu()
out.write('t,'+','.join('%s_r,%s_rlat_ms,%s_w,%s_wlat_ms,%s_inflight'%(d,d,d,d,d) for d in devs)+',cpu_busy,cpu_iowait_idle\n')
while True:
    time.sleep(1)
    cur={d:rd(d) for d in devs}; cc=cpu()
    row=['%.1f'%time.time()]
    for d in devs:
        a,b=prev[d],cur[d]
        r=b[0]-a[0]; rt=b[3]-a[3]; w=b[4]-a[4]; wt=b[7]-a[7]
        row+= [str(r), '%.2f'%(rt/r if r else 0), str(w), '%.2f'%(wt/w if w else 0), str(b[8])]
    tot=cc[0]-pc[0]; idle=cc[1]-pc[1]
    row+=['%.2f'%(1-idle/tot if tot else 0), '0']
    out.write(','.join(row)+'\n'); out.flush()
    prev=cur; pc=cc
