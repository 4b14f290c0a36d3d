#!/usr/bin/env python3
"""clean.py N [ID...]: writes /work/blind/extra/realworldN.jsonl from the helper's set
without the named ids, their variants, variants whose error repeats their original's
or an earlier sibling variant's exactly, and later records repeating an earlier record's
source and error. Prints
what it dropped and the sources this set shares with other new sets or earlier sets."""
import json,sys,glob,os,re,subprocess
n=sys.argv[1]; drop=set(sys.argv[2:])
src=f'/work/blind/rw{n}work/realworld{n}.jsonl'
recs=[json.loads(l) for l in open(src) if l.strip()]
ids={r['id'] for r in recs}
for d in drop:
    if d not in ids: print('NO SUCH ID',d)
byid={r['id']:r for r in recs}
# verbatim records that repeat an earlier one's source and error, and the
# record each repeats (its variants are that record's variants)
first={}; repeats={}
for r in recs:
    if r.get('variant_of'): continue
    key=(re.sub(r'^variant of\s+','',r['source']).strip(),r['error'])
    if key in first: repeats[r['id']]=first[key]
    else: first[key]=r['id']
out=[];why={};siblings={}
for r in recs:
    i=r['id']; v=r.get('variant_of')
    if v in repeats: r['variant_of']=v=repeats[v]
    if i in drop: why[i]='named'; continue
    if i in repeats: why[i]='repeats source and error of '+repeats[i]; continue
    if v and v in drop: why[i]='variant of dropped '+v; continue
    if v and v in byid and byid[v]['error']==r['error']: why[i]='same text as '+v; continue
    if v and (v,r['error']) in siblings: why[i]='same text as its sibling '+siblings[(v,r['error'])]; continue
    if v: siblings[(v,r['error'])]=i
    out.append(r)
os.makedirs('/work/blind/extra',exist_ok=True)
dst=f'/work/blind/extra/realworld{n}.jsonl'
with open(dst,'w') as f:
    for r in out: f.write(json.dumps(r,ensure_ascii=False)+'\n')
for i,w in why.items(): print('drop',i,w)
print(f'realworld{n}: {len(recs)} -> {len(out)} kept, {len(recs)-len(out)} out; variants kept {sum(1 for r in out if r.get("variant_of"))}; critical {sum(1 for r in out if r["severity"]=="critical")}')
# norm is chk_new.py's own: that script is kept as the helpers were given it
# and runs its check on import, so its function is read out of its text.
_chk=open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'chk_new.py')).read()
_ns={'re':re}
exec(_chk[_chk.index('def norm'):_chk.index("if sys.argv[1:2] == ['--rebuild']")],_ns)
norm=_ns['norm']
mine={norm(r['source']) for r in out}
used=set(open('/work/blind/used_sources.txt').read().split('\n'))
for s in sorted(mine & used): print('SOURCE USED EARLIER',s)
for f in glob.glob('/work/blind/extra/realworld*.jsonl'):
    if f==dst: continue
    other={norm(json.loads(l)['source']) for l in open(f) if l.strip()}
    for s in sorted(mine & other): print('SOURCE SHARED WITH',os.path.basename(f),s)
print(subprocess.run(['python3','/work/blind/validate.py',dst],capture_output=True,text=True).stdout.strip()[-300:])
