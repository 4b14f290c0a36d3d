#!/usr/bin/env python3
"""means.py PART < sum.py output: means of L P C ARI over sets, modes and causes summed."""
import sys
part=sys.argv[1]
rows=[l.split() for l in sys.stdin if l.split()[1:2]==[part]]
def m(i):
    v=[float(r[i]) for r in rows if r[i] not in ('n/a','-')]
    return sum(v)/len(v) if v else float('nan')
mo=sum(int(r[6]) for r in rows); ca=sum(int(r[7]) for r in rows)
print(f"{part} n={len(rows)} L {m(2):.3f} P {m(3):.3f} C {m(4):.3f} ARI {m(5):.3f} modes {mo} causes {ca} ({(mo-ca)/ca*100:+.0f}%)")
