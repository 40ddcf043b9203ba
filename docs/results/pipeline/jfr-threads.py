import sys,re,collections
def parse(fn, thread):
    evs=[];cur=None
    for line in open(fn):
        if line.startswith('jdk.'):
            cur={'t':None,'st':[]}; evs.append(cur)
        elif 'sampledThread' in line and cur is not None:
            p=line.split("\""); cur["t"]=p[1] if len(p)>1 else None
        elif cur is not None and re.match(r'\s+[\w$.]+\(.*line:',line):
            cur['st'].append(line.strip().split('(')[0])
    return [e for e in evs if e['t']==thread]
thread=sys.argv[1]
for fn in sys.argv[2:]:
    evs=parse(fn,thread)
    print(fn,len(evs))
    top=collections.Counter(e['st'][0] if e['st'] else '?' for e in evs)
    for k,v in top.most_common(12): print('  top',v,k)
    # attribute to first TierMigrator frame / named migrator method
    att=collections.Counter()
    for e in evs:
        fr=[f for f in e['st'] if 'TierMigrator.' in f or 'PromotionByCompaction.' in f]
        att[' < '.join(fr[:2])]+=1
    for k,v in att.most_common(20): print('  at',v,k)
