#!/usr/bin/env python3
"""sum.py < eval-output : one line per set and part: name part L P C ARI modes causes."""
import sys,re
name=part=None
for line in sys.stdin:
    m=re.match(r'== (\S+?)(?:\.jsonl)?(?: \((dev|test) half\))?: ',line)
    if m: name=m.group(1).split('/')[-1]; part=m.group(2) or 'all'; continue
    m=re.match(r'layer accuracy ([\d.]+)\s+primitive accuracy ([\d.]+)\s+critical recall ([\d.]+|n/a|-)',line)
    if m: L,P,C=m.groups(); continue
    m=re.match(r'grouping over .*ARI ([-\d.]+).*modes (\d+) for (\d+) causes',line)
    if m and name: print(name,part,L,P,C,m.group(1),m.group(2),m.group(3))
