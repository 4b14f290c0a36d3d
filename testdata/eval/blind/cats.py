#!/usr/bin/env python3
"""cats.py DUMP half: extra modes of the campaign sets' causes within one predicted class, by kind (known-known, mixed, none-known), and the known-cause pairs one cause splits into (zzdump output)."""
import json,sys,collections,re
recs=[json.loads(l) for l in open(sys.argv[1])]
half=sys.argv[2]
by=collections.defaultdict(list)
for r in recs:
    n=int(re.sub(r'\D','',r['set']) or 1)
    if n<41 or (half!='all' and r['half']!=half): continue
    by[(r['set'],r['cause'],r['got'])].append(r)
cat=collections.Counter(); pairs=collections.Counter()
for k,rs in by.items():
    ms={}
    for r in rs: ms.setdefault(r['mode'],r)
    if len(ms)<2: continue
    kinds=[('K:'+m['tpl'].split(']')[0][7:]) if m['tpl'].startswith('[known:') else ('G' if m['by'].startswith('guess') else 'R') for m in ms.values()]
    nk=sum(1 for x in kinds if x.startswith('K'))
    cat['extra']+=len(ms)-1
    key='known-known' if nk==len(kinds) else ('none-known' if nk==0 else 'mixed')
    cat[key]+=len(ms)-1
    ks=sorted(x for x in kinds if x.startswith('K'))
    for i in range(len(ks)):
        for j in range(i+1,len(ks)): pairs[(k[2],ks[i],ks[j])]+=1
print(cat)
for p,c in pairs.most_common(25): print(c,p)
