import os,sys,time,collections,re
pid=sys.argv[1]
last={}
while os.path.exists(f'/proc/{pid}'):
    try:
        for t in os.listdir(f'/proc/{pid}/task'):
            try:
                st=open(f'/proc/{pid}/task/{t}/stat').read()
                name=st[st.index('(')+1:st.rindex(')')]
                f=st[st.rindex(')')+2:].split()
                last[t]=(name,int(f[11])+int(f[12]))
            except Exception: pass
    except Exception: break
    time.sleep(0.5)
agg=collections.Counter()
for t,(n,c) in last.items():
    agg[re.sub(r'\d+$','#',n)]+=c
tot=sum(agg.values())
for n,c in agg.most_common(20): print(f'{c/100:8.1f}s {100*c/tot:5.1f}% {n}')
