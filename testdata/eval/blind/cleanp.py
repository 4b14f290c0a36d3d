#!/usr/bin/env python3
"""cleanp.py N NUM... : copy realworldN without the records numbered NUM (and their variants) to /work/blind/extra."""
import json,sys
n=sys.argv[1]; drop={int(x) for x in sys.argv[2:]}
src=f'/work/blind/rw{n}work/realworld{n}.jsonl'
recs=[json.loads(l) for l in open(src) if l.strip()]
gone={r['id'] for r in recs if int(r['id'].split('-')[1])in drop}
while True:
    more={r['id'] for r in recs if r.get('variant_of') in gone and r['id'] not in gone}
    if not more: break
    gone|=more
kept=[r for r in recs if r['id'] not in gone]
with open(f'/work/blind/extra/realworld{n}.jsonl','w') as f:
    for r in kept: f.write(json.dumps(r,ensure_ascii=False)+'\n')
print(n,'kept',len(kept),'removed',len(gone))
