#!/usr/bin/env python3
"""Validate a labelled eval set (stdlib only).

Usage: validate.py [PATH]   (default: realworld.jsonl next to this script;
e.g. validate.py testdata/eval/realworld2.jsonl)
"""
import json, sys, collections, os
HERE = os.path.dirname(os.path.abspath(__file__))
PRIMS = {
 "interface": {"encoding","null-byte","message-size","protocol","input-validation"},
 "sandbox": {"filesystem-permissions","storage-persistence","memory","cpu-time","process-spawn",
             "network-egress","package-path","session-lifecycle"},
 "test": {"harness"},
}
SEV = {"critical","high","medium","low"}
TARGETS = {"code-interpreter","browser"}
DOMAINS = {"file-io","package-install","data-analysis","ml-training","downloads","builds","reports",
           "browsing","forms","session-lifecycle"}
REQ = ["id","source","target","domain","status","exit_code","error","layer","primitive","severity","cause"]
def main(path=os.path.join(HERE,"realworld.jsonl")):
    errs=[]; ids=set(); cause_prim={}; recs=[]
    for n,line in enumerate(open(path),1):
        if not line.strip(): errs.append(f"{n}: blank line"); continue
        try: r=json.loads(line)
        except Exception as e: errs.append(f"{n}: bad json {e}"); continue
        recs.append(r)
        for k in REQ:
            if k not in r: errs.append(f"{n}: missing {k}")
        if r.get("id") in ids: errs.append(f"{n}: duplicate id {r.get('id')}")
        ids.add(r.get("id"))
        if r.get("layer") not in PRIMS: errs.append(f"{n}: bad layer {r.get('layer')}")
        elif r.get("primitive") not in PRIMS[r["layer"]]: errs.append(f"{n}: bad primitive {r.get('primitive')} for {r['layer']}")
        if r.get("severity") not in SEV: errs.append(f"{n}: bad severity")
        if r.get("target") not in TARGETS: errs.append(f"{n}: bad target")
        if r.get("domain") not in DOMAINS: errs.append(f"{n}: bad domain {r.get('domain')}")
        if r.get("status")!="failed": errs.append(f"{n}: status must be failed")
        if not (r.get("exit_code") is None or isinstance(r.get("exit_code"),int)): errs.append(f"{n}: exit_code")
        if not isinstance(r.get("error"),str) or not r["error"].strip(): errs.append(f"{n}: empty error")
        key=(r.get("layer"),r.get("primitive"))
        c=r.get("cause")
        if c in cause_prim and cause_prim[c]!=key: errs.append(f"{n}: cause {c} spans {cause_prim[c]} and {key}")
        cause_prim.setdefault(c,key)
    for r in recs:
        v=r.get("variant_of")
        if v is not None and v not in ids: errs.append(f"{r['id']}: variant_of unknown id {v}")
    causes=collections.Counter(r["cause"] for r in recs)
    variants=sum(1 for r in recs if "variant_of" in r)
    print(f"records={len(recs)} causes={len(causes)} verbatim={len(recs)-variants} variants={variants}")
    print("per primitive (records / causes):")
    pc=collections.Counter((r["layer"],r["primitive"]) for r in recs)
    pcc=collections.Counter(v for v in cause_prim.values())
    for k in sorted(pc): print(f"  {k[0]}/{k[1]}: {pc[k]} / {pcc[k]}")
    small=[c for c,n in causes.items() if n<3]
    if small: print("causes with <3 records:", small)
    for e in errs: print("ERROR", e)
    print("OK" if not errs else f"{len(errs)} errors")
    return 1 if errs else 0
if __name__=="__main__": sys.exit(main(*sys.argv[1:]))
