#!/usr/bin/env python3
"""mask.py FILE... : print each record whose error a reporter or a tool may
have masked or elided (xxx, <redacted>, ***, <TOKEN>, an ellipsis inside the
message), with the words around the hit, for a person to judge. An ellipsis
that the tool itself prints (wget's "Resolving host... ", npm's "while
parsing near '...", V8's '"text"... is not valid JSON', apt's "Reading
package lists... Done") is listed too: the scan finds, a person decides."""
import json
import re
import sys

MASK = re.compile(
    r'x{3,}|<redacted>|\[redacted\]|redacted|\*{3,}|<your|<my|<password>|<token>|<[A-Z_ ]{3,}>'
    r'|…|\.\.\.|\.{4,}',
    re.I)

for path in sys.argv[1:]:
    for line in open(path, encoding='utf-8'):
        r = json.loads(line)
        for m in MASK.finditer(r['error']):
            ctx = r['error'][max(0, m.start() - 40):m.end() + 20]
            print(r['id'], r.get('variant_of') or '-', repr(ctx))
