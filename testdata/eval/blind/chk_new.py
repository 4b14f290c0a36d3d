#!/usr/bin/env python3
"""chk_new.py URL... : says, for each candidate source, whether it is already used.

A source is used if any earlier blind set took a message from it, or another helper
working now has it in their own jsonl. Run it before you copy a message.
Usage: MYDIR=/work/blind/rw89work python3 /work/blind/chk_new.py URL [URL...]
"""
import sys, re, os, glob, json
HERE = os.path.dirname(os.path.abspath(__file__))
def norm(s):
    s = s.strip()
    s = re.sub(r'^variant of\s+', '', s, flags=re.I)
    m = re.match(r'^([\w.-]+)/([\w.-]+)#(\d+)$', s)
    if m: s = f"github.com/{m.group(1)}/{m.group(2)}/{m.group(3)}"
    s = s.split('#')[0]
    s = re.sub(r'^https?://', '', s); s = re.sub(r'^www\.', '', s)
    # mirrors of GitHub threads count as the thread itself
    m = re.search(r'([\w.-]+)/([\w.-]+)/(?:issues|pull|discussions)/(\d+)', s)
    if m and not s.startswith('gitlab'): s = f"github.com/{m.group(1)}/{m.group(2)}/{m.group(3)}"

    s = re.sub(r'/(issues|pull|discussions)/(\d+)', r'/\2', s)
    return s.rstrip('/.').lower()
if sys.argv[1:2] == ['--rebuild']:
    srcs = set()
    for f in glob.glob('/work/main/testdata/**/*.jsonl', recursive=True):
        for line in open(f):
            try: r = json.loads(line)
            except Exception: continue
            if isinstance(r, dict) and r.get('source'): srcs.add(norm(r['source']))
    open(os.path.join(HERE, 'used_sources.txt'), 'w').write('\n'.join(sorted(srcs)) + '\n')
    print(len(srcs), 'sources'); sys.exit(0)
used = set(l.strip() for l in open(os.path.join(HERE, 'used_sources.txt')) if l.strip())
mine = os.path.abspath(os.environ.get('MYDIR', '/nonexistent'))
others = set()
for f in glob.glob(os.path.join(HERE, 'rw*work', '*.jsonl')):
    if os.path.abspath(os.path.dirname(f)) == mine: continue
    for line in open(f):
        try: r = json.loads(line)
        except Exception: continue
        if r.get('source'): others.add(norm(r['source']))
for u in sys.argv[1:]:
    n = norm(u)
    print(("USED   " if n in used else "TAKEN  " if n in others else "NEW    ") + u)
