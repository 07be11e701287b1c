#!/usr/bin/env python3
# Not a test: GB/s of each (lab file, point, variant) in OUT/old/*/results.json against OUT/new/*/results.json
# (written by compare_builds.sh), the change in percent, and the largest change.
import json, sys, os, glob
root = sys.argv[1]
rows = []
for old_json in sorted(glob.glob(os.path.join(root, "old", "*", "results.json"))):
    name = os.path.basename(os.path.dirname(old_json))
    new_json = os.path.join(root, "new", name, "results.json")
    if not os.path.exists(new_json):
        print(f"{name}: no new results"); continue
    def load(p):
        d = json.load(open(p))
        return {(os.path.basename(r["lab_file"]), json.dumps(r["point"], sort_keys=True), r["variant"]): r for r in d["results"]}
    o, n = load(old_json), load(new_json)
    for k in o:
        ro, rn = o[k], n.get(k)
        if rn is None: rows.append((k, ro.get("gbps"), None, None, "missing")); continue
        go, gn = ro.get("gbps") or 0, rn.get("gbps") or 0
        d = 100.0 * (gn - go) / go if go else float("nan")
        rows.append((k, go, gn, d, rn["status"] if rn["status"] != "ok" else ro["status"]))
worst = 0
for (lab, point, var), go, gn, d, st in rows:
    pt = ",".join(f"{a}={b}" for a, b in json.loads(point).items())
    print(f"{lab:22} {pt:18} {var:24} {go or 0:9.1f} {gn or 0:9.1f} {d:+7.2f}% {st}")
    if d == d: worst = max(worst, abs(d))
print(f"results: {len(rows)}, worst |change| {worst:.2f}%")
