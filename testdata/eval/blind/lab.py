#!/usr/bin/env python3
"""lab.py REGEX [--log] : label counts of records whose error (or log) matches, across all sets."""
import json,glob,re,sys,collections
rx=re.compile(sys.argv[1]); uselog='--log' in sys.argv
c=collections.Counter(); ex={}
import os
files=glob.glob('/work/main/testdata/eval/realworld*.jsonl')+glob.glob('/work/main/testdata/corpus/*.jsonl')
files+=[f for f in glob.glob('/work/blind/rw*work/realworld*.jsonl') if not os.path.exists('/work/main/testdata/eval/'+os.path.basename(f))]
for f in files:
    for l in open(f):
        try: r=json.loads(l)
        except: continue
        t=r.get('error','')+('\n'+(r.get('log') or '') if uselog else '')
        if rx.search(t):
            k=(r.get('layer'),r.get('primitive'),r.get('severity'))
            c[k]+=1; ex.setdefault(k,[]).append(f.split('/')[-1].replace('.jsonl','')+':'+r.get('cause','?'))
for k,v in c.most_common(): print(v,k,sorted(set(ex[k]))[:6])
