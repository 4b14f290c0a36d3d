#!/usr/bin/env python3
"""fbx.py A B [v]: records whose class decision differs between two dumps: fixed, broken, other."""
import json,sys
a={json.loads(l)['id']:json.loads(l) for l in open(sys.argv[1])}
b={json.loads(l)['id']:json.loads(l) for l in open(sys.argv[2])}
fx=br=ot=0
for k,x in a.items():
    y=b.get(k)
    if not y or x['got']==y['got']: continue
    if y['got']==y['want']: fx+=1; t='FIX'
    elif x['got']==x['want']: br+=1; t='BRK'
    else: ot+=1; t='OTH'
    if len(sys.argv)>3: print(t,x['set'],k,x['want'],x['got'],'->',y['got'],y['by'],'|',x['err'][:120].replace('\n',' '))
print('fixed',fx,'broken',br,'other',ot)
