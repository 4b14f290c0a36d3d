#!/usr/bin/env python3
"""foldcmp.py A B: per-record layer and primitive accuracy, criticals found and false of two `sandtrap eval --folds` or `--leave-one-out` outputs over the sets both hold, and of the sets only A holds (counts from each set's line, rounded)."""
import sys,re
def load(f):
    d={}
    for line in open(f):
        m=re.match(r'^testdata/eval/(realworld\d*)\.jsonl\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+) of (\d+)\s+(\d+)',line)
        if m: d[m.group(1)]=(int(m.group(2)),float(m.group(3)),float(m.group(4)),int(m.group(5)),int(m.group(6)),int(m.group(7)))
    return d
def show(name,d,keys):
    n=sum(d[k][0] for k in keys); l=sum(round(d[k][0]*d[k][1]) for k in keys); p=sum(round(d[k][0]*d[k][2]) for k in keys)
    print(name,len(keys),n,f"{l/n:.4f} {p/n:.4f}",sum(d[k][3] for k in keys),sum(d[k][4] for k in keys),sum(d[k][5] for k in keys))
a=load(sys.argv[1]); b=load(sys.argv[2])
both=[k for k in a if k in b]
show('A',a,both); show('B',b,both)
new=[k for k in a if k not in b]
if new: show('only in A',a,new)
