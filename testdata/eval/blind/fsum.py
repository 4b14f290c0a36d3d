#!/usr/bin/env python3
"""fsum.py DUMP...: per dump, over the realworld sets' test halves: per-record L/P, criticals found/false, mean ARI over sets, modes vs causes, severity agreement."""
import json,sys,collections,math
def ari(a,b):
    n=len(a)
    if n<2: return None
    c=collections.Counter(zip(a,b)); ca=collections.Counter(a); cb=collections.Counter(b)
    comb=lambda x:x*(x-1)/2
    s=sum(comb(v) for v in c.values()); sa=sum(comb(v) for v in ca.values()); sb=sum(comb(v) for v in cb.values())
    e=sa*sb/comb(n); mx=(sa+sb)/2
    return 1.0 if mx==e else (s-e)/(mx-e)
for f in sys.argv[1:]:
    S=collections.defaultdict(list)
    for l in open(f):
        r=json.loads(l)
        if r['set'].startswith('realworld') and r['half']=='test': S[r['set']].append(r)
    n=L=P=ct=cf=fa=sv=0; aris=[]; modes=causes=0
    for s,rs in S.items():
        for r in rs:
            n+=1; L+=r['got'].split('/')[0]==r['want'].split('/')[0]; P+=r['got']==r['want']
            if r['wsev']=='critical':
                ct+=1; cf+=r['sev']=='critical'
            elif r['sev']=='critical': fa+=1
            sv+=r['sev']==r['wsev']
        a=ari([r['cause'] for r in rs],[r['mode'] for r in rs])
        if a is not None: aris.append(a)
        modes+=len({r['mode'] for r in rs}); causes+=len({r['cause'] for r in rs})
    print(f"{f}: sets {len(S)} n={n} L {L/n:.4f} P {P/n:.4f} crit {cf}/{ct} false {fa} ARI {sum(aris)/len(aris):.4f} modes {modes} causes {causes} ({(modes-causes)/causes*100:+.1f}%) sev {sv/n:.4f}")
