#!/usr/bin/env python3
"""arrall.py DUMP [half]: per-record layer/primitive accuracy, criticals found and false."""
import json,sys
half=sys.argv[2] if len(sys.argv)>2 else 'all'
n=l=p=cf=ct=fa=0
for line in open(sys.argv[1]):
    r=json.loads(line)
    if half!='all' and r['half']!=half: continue
    n+=1
    w=r['want'].split('/'); g=r['got'].split('/')
    l+=w[0]==g[0]; p+=r['want']==r['got']
    if r['wsev']=='critical':
        ct+=1; cf+=r['sev']=='critical'
    elif r['sev']=='critical': fa+=1
print(f"n={n} L {l/n:.4f} P {p/n:.4f} crit {cf}/{ct} false {fa}")
