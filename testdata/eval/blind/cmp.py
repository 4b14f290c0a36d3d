#!/usr/bin/env python3
"""cmp.py A B [part] : means of two sum.py outputs and the sets that differ."""
import sys
def load(f):
    d={}
    for l in open(f):
        n,p,*v=l.split()
        d[(n,p)]=v
    return d
a,b=load(sys.argv[1]),load(sys.argv[2]); part=sys.argv[3] if len(sys.argv)>3 else 'test'
def fl(x):
    try: return float(x)
    except: return None
for sel,label in ((lambda n:True,'all'),(lambda n:n.startswith('realworld') and n[9:].isdigit() and int(n[9:])>=41,'campaign')):
    keys=[k for k in a if k[1]==part and k in b and sel(k[0])]
    for i,col in enumerate(['L','P','C','ARI']):
        va=[fl(a[k][i]) for k in keys]; vb=[fl(b[k][i]) for k in keys]
        pairs=[(x,y) for x,y in zip(va,vb) if x is not None and y is not None]
        print(f"{label:8} {col:4} {sum(x for x,_ in pairs)/len(pairs):.4f} -> {sum(y for _,y in pairs)/len(pairs):.4f}  (n={len(pairs)})")
    ma=sum(int(a[k][4]) for k in keys); mb=sum(int(b[k][4]) for k in keys); c=sum(int(a[k][5]) for k in keys)
    print(f"{label:8} modes {ma} -> {mb} for {c} causes")
for k in sorted(a):
    if k in b and a[k]!=b[k] and k[1]==part: print(k[0],k[1],' '.join(a[k]),'->',' '.join(b[k]))
