#!/usr/bin/env python3
"""bound.py DUMP [half]: mean ARI of the campaign sets (41 on) for the modes as dumped, for the class alone, and for an oracle that joins each cause's modes within its predicted class (zzdump output)."""
import json,sys,collections,re
sys.path.insert(0,'.')
from math import comb
def ari(t,p):
    n=len(t)
    if n<2: return 1.0
    cells=collections.Counter(zip(t,p)); a=collections.Counter(t); b=collections.Counter(p)
    s=sum(comb(v,2) for v in cells.values()); sa=sum(comb(v,2) for v in a.values()); sb=sum(comb(v,2) for v in b.values())
    e=sa*sb/comb(n,2); m=(sa+sb)/2
    return 1.0 if m==e else (s-e)/(m-e)
recs=[json.loads(l) for l in open(sys.argv[1])]
half=sys.argv[2] if len(sys.argv)>2 else 'test'
sets=collections.defaultdict(list)
for r in recs:
    n=int(re.sub(r'\D','',r['set']) or 1)
    if n<41 or r['half']!=half: continue
    sets[r['set']].append(r)
res=collections.defaultdict(list)
for s,rs in sets.items():
    t=[r['cause'] for r in rs]
    res['cur'].append(ari(t,[r['mode'] for r in rs]))
    res['prim'].append(ari(t,[r['got'] for r in rs]))
    res['trueprim+mode'].append(ari(t,[r['want']+r['mode'] for r in rs]))
    res['truprim'].append(ari(t,[r['want'] for r in rs]))
    # oracle: modes merged when same true cause and same got class
    res['oracle-sameclass-merge'].append(ari(t,[r['got']+'|'+r['cause'] for r in rs]))
for k,v in res.items(): print(k, round(sum(v)/len(v),4), len(v))
meta={}
import glob
for f in glob.glob('/work/main/testdata/eval/realworld*.jsonl'):
    for l in open(f):
        if l.strip():
            d=json.loads(l); meta[d['id']]=d
res=collections.defaultdict(list)
for s,rs in sets.items():
    t=[r['cause'] for r in rs]
    res['got+domain'].append(ari(t,[r['got']+meta[r['id']].get('domain','') for r in rs]))
    res['got+target'].append(ari(t,[r['got']+meta[r['id']].get('target','') for r in rs]))
    res['want+domain'].append(ari(t,[r['want']+meta[r['id']].get('domain','') for r in rs]))
    res['known-or-mode'].append(ari(t,[ (r['tpl'].split(']')[0] if r['tpl'].startswith('[known:') else r['mode']) for r in rs]))
for k,v in res.items(): print(k, round(sum(v)/len(v),4), len(v))
