#!/usr/bin/env python3
"""Issue 33's figures from what tests/tools/measure_compare.sh wrote in OUT (not a test).

usage: measure_report.py OUT

Prints: the default run's wall with the old and the new build; every device-bound result (median >= 20 us
in the old run) against the old median (the worst, and how many lie outside +-0.5% and +-1%); the new
default medians of reduction and transpose against configs/thorough.toml's; the two reduction_sizes runs'
agreement (the worst, and how many lie outside +-3%); the quick run's wall; and where the quick run's time
that is not timed GPU work goes, per lab file. Python 3 standard library only.
"""
import glob
import json
import os
import sys

DEVICE_BOUND_MS = 0.020


def wall(path):
    try:
        return float(open(path).read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def results(folder):
    """(lab, point, variant) -> result, from folder/results.json (or its results.jsonl if cut short)."""
    doc = os.path.join(folder, "results.json")
    rows = []
    if os.path.exists(doc):
        rows = json.load(open(doc))["results"]
    elif os.path.exists(os.path.join(folder, "results.jsonl")):
        for line in open(os.path.join(folder, "results.jsonl")):
            line = line.strip()
            if line:
                d = json.loads(line)
                if "variant" in d:
                    rows.append(d)
    out = {}
    for r in rows:
        key = (os.path.basename(r["lab_file"]), json.dumps(r.get("point", {}), sort_keys=True), r["variant"])
        out[key] = r
    return out


def median(r):
    t = r.get("timing") or {}
    if r.get("status") != "ok" or not t.get("timed") or not t.get("median_ms"):
        return None
    return t["median_ms"]


def step_results(out, step):
    merged = {}
    for folder in sorted(glob.glob(os.path.join(out, step, "*", ""))):
        merged.update(results(folder))
    return merged


def step_wall(out, step, names=None):
    total, count = 0.0, 0
    for path in sorted(glob.glob(os.path.join(out, step, "*.wall"))):
        name = os.path.basename(path)[: -len(".wall")]
        if names is not None and name not in names:
            continue
        w = wall(path)
        if w is not None:
            total, count = total + w, count + 1
    return total, count


def label(key):
    lab, point, variant = key
    pt = ",".join(f"{a}={b}" for a, b in json.loads(point).items())
    return f"{lab} [{pt}] {variant}"


def agreement(base, other, only_device_bound, bounds):
    """The worst relative change of other's medians against base's, and the count beyond each bound."""
    worst, worst_key, n = 0.0, None, 0
    beyond = {b: 0 for b in bounds}
    missing = 0
    for key, rb in base.items():
        mb = median(rb)
        if mb is None or (only_device_bound and mb < DEVICE_BOUND_MS):
            continue
        ro = other.get(key)
        mo = median(ro) if ro else None
        if mo is None:
            missing += 1
            continue
        n += 1
        change = 100.0 * (mo - mb) / mb
        if abs(change) > abs(worst):
            worst, worst_key = change, key
        for b in bounds:
            if abs(change) > b:
                beyond[b] += 1
    return n, worst, worst_key, beyond, missing


def print_agreement(title, base, other, only_device_bound, bounds):
    n, worst, key, beyond, missing = agreement(base, other, only_device_bound, bounds)
    counts = ", ".join(f"{beyond[b]} outside +-{b:g}%" for b in bounds)
    print(f"{title}: {n} results, worst {worst:+.2f}%" + (f" ({label(key)})" if key else "") + f"; {counts}" +
          (f"; {missing} without a median in the second run" if missing else ""))


def gpu_ms(result_set):
    """Timed GPU work: samples x batch x median per result (the warm-up and calibration not counted)."""
    total = 0.0
    for r in result_set.values():
        t = r.get("timing") or {}
        if t.get("timed") and t.get("median_ms"):
            total += t["samples"] * t["batch"] * t["median_ms"]
    return total


def main():
    out = sys.argv[1]
    old_wall, old_files = step_wall(out, "old")
    new_wall, new_files = step_wall(out, "new")
    old, new = step_results(out, "old"), step_results(out, "new")
    def ok(rs):
        return sum(1 for r in rs.values() if r.get("status") == "ok")
    print(f"default run: old build {old_wall:.1f} s over {old_files} lab files ({len(old)} results, {ok(old)} ok), "
          f"new build {new_wall:.1f} s over {new_files} lab files ({len(new)} results, {ok(new)} ok)")
    stops = {}
    for r in new.values():
        why = (r.get("timing") or {}).get("stopped_by")
        if why:
            stops[why] = stops.get(why, 0) + 1
    launch_bound = sum(1 for r in new.values() if (r.get("timing") or {}).get("launch_bound"))
    print(f"new build stopped by: {stops or 'nothing recorded'}; launch-bound results: {launch_bound}")
    print_agreement("device-bound (median >= 20 us) new vs old default", old, new, True, (0.5, 1.0))

    thorough = step_results(out, "thorough")
    if thorough:
        new_of = {k: v for k, v in new.items() if k[0] in {key[0] for key in thorough}}
        print_agreement("device-bound new default vs thorough (reduction, transpose)", thorough, new_of, True,
                        (0.5, 1.0))
    sizes1, sizes2 = step_results(out, "sizes1"), step_results(out, "sizes2")
    if sizes1 and sizes2:
        print_agreement("reduction_sizes: second default run vs first, every result", sizes1, sizes2, False,
                        (1.0, 3.0))

    quick_wall = wall(os.path.join(out, "quick", "all.wall"))
    quick = results(os.path.join(out, "quick", "all"))
    if quick_wall is not None:
        g = gpu_ms(quick) / 1e3
        print(f"quick run: {quick_wall:.1f} s for {len(quick)} results, of which {g:.1f} s timed GPU work")

    startup = wall(os.path.join(out, "fixed", "startup.wall"))
    rows = []
    for path in sorted(glob.glob(os.path.join(out, "fixed", "quick_*.wall"))):
        name = os.path.basename(path)[len("quick_"): -len(".wall")]
        q = wall(path)
        e = wall(os.path.join(out, "fixed", f"explain_{name}.wall"))
        v = wall(os.path.join(out, "fixed", f"verify_{name}.wall"))
        g = gpu_ms(results(os.path.join(out, "fixed", f"quick_{name}"))) / 1e3
        n = len(results(os.path.join(out, "fixed", f"quick_{name}")))
        rows.append((name, n, q, e, v, g))
    if rows:
        print("\nwhere a quick run's time goes, per lab file (s): start-up is `--version`; plan+model is `explain`;")
        print("set-up+verify is the verify profile's run less `explain` (it also probes the GPU); timing is the quick")
        print("run less the verify run (the ceilings, the warm-up, the calibration and the timed work); GPU is the")
        print("timed work itself (samples x batch x median)")
        print(f"{'lab file':24} {'results':>7} {'quick':>7} {'start':>6} {'plan+model':>10} {'setup+verify':>12} "
              f"{'timing':>7} {'GPU':>6} {'other':>6}")
        tot = [0.0] * 6
        for name, n, q, e, v, g in rows:
            if None in (q, e, v):
                print(f"{name:24} incomplete")
                continue
            s = startup or 0.0
            parts = (q, s, e - s, v - e, q - v, g)
            other = (q - v) - g
            tot = [a + b for a, b in zip(tot, parts + ())]
            print(f"{name:24} {n:7d} {q:7.2f} {s:6.2f} {e - s:10.2f} {v - e:12.2f} {q - v:7.2f} {g:6.2f} {other:6.2f}")
        print(f"{'all':24} {'':7} {tot[0]:7.2f} {tot[1]:6.2f} {tot[2]:10.2f} {tot[3]:12.2f} {tot[4]:7.2f} "
              f"{tot[5]:6.2f} {tot[4] - tot[5]:6.2f}")


if __name__ == "__main__":
    main()
