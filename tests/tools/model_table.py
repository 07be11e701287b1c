#!/usr/bin/env python3
# Not a test: the model's predictions against Nsight Compute's counters for every result of `cudalab run
# --profile` results folders (their results.json), as Markdown for docs/model.md: a summary, the variants
# that differ with each difference, then every result's predicted and measured figures side by side.
# With --explain CUDALAB the predictions are that cudalab's (`explain` of each folder's lab file with its
# run's --set options, run from the repository root: the model of the tree you built, against the counts
# of a past run), the shared requests SASS's count from ncu.csv (what run --profile reads now), and the
# verdicts judged again by counter_verdict.cpp's rule.
# usage: model_table.py [--explain CUDALAB] RESULTS_FOLDER...
import json
import os
import re
import subprocess
import sys
from urllib.parse import unquote

GLOBAL = [("ld", "global_load"), ("st", "global_store"), ("atomic", "global_atomic")]
SHARED = [("sh ld", "shared_load"), ("sh st", "shared_store"), ("sh atomic", "shared_atomic")]


def pct(p, m):
    if p == m:
        return "="
    if not p:
        return "new"
    return f"{100.0 * (m - p) / p:+.1f}%"


def spr(t):
    return t["sectors"] / t["requests"] if t.get("requests") else 0.0


def point_text(r):
    return " ".join(f"{k}={v}" for k, v in r["point"].items())


def result_key(lab_file, point, variant):
    return (lab_file, tuple(sorted(point.items())), variant)


def explained(cudalab, command_line):
    """The model of `cudalab explain` for the lab files and --set/--variant options of a run's command line
    (the context's: the arguments joined by spaces, unquoted)."""
    args = command_line.split()
    args = args[args.index("run") + 1:] if "run" in args else args
    keep, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("--set", "--variant") and i + 1 < len(args):
            keep += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith("--"):
            i += 2 if a in ("--out", "--config", "--plugin-path", "--device") else 1
            continue
        keep.append(a)
        i += 1
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([cudalab, "explain", *keep, "--format", "json"], cwd=root, capture_output=True,
                         text=True, check=True).stdout
    return {result_key(e["lab_file"], e["point"], e["variant"]): e.get("model") for e in json.loads(out)}


def sass_requests(folder):
    """SASS's shared instructions with an active lane in ncu.csv, by (point index, variant, op)."""
    sums = {}
    for k in ncu_rows(folder):
        nvtx = " ".join(v for c, v in k.items() if "_Range:" in c)
        m = re.search(r"cudalab#[A-Za-z0-9_%-]+#(\d+)#([A-Za-z0-9_%-]+)", nvtx)
        if not m:
            continue
        for op in ("ld", "st", "atom"):
            name = f"smsp__sass_inst_executed_op_shared_{op}.sum"
            if name in k:
                key = (int(m.group(1)), unquote(m.group(2)), op)
                sums[key] = sums.get(key, 0) + int(number(k[name]))
    return sums


def difference_text(p, m):
    if p == 0:
        return "=" if m == 0 else "none predicted"
    return f"{100.0 * (m - p) / p:+.1f}%"


def judge(model, measured):
    """counter_verdict.cpp's rule: global sectors per request within 2%, shared wavefront and conflict
    totals (the addresses') within 5%; "matches" or "differs: ..." as run --profile writes it."""
    checks = []

    def check(name, p, m, tolerance):
        agrees = m == 0 if p == 0 else abs(m - p) <= (tolerance + 1e-9) * p
        checks.append((name, p, m, agrees))

    for short, key in GLOBAL:
        p, q = model.get(key, {}), measured.get(key, {})
        pr, qr = p.get("requests", 0), q.get("requests", 0)
        if not pr and not qr:
            continue
        if not pr or not qr:
            check(f"{short} requests", pr, qr, 0)
        else:
            check(f"{short} s/r", spr(p), spr(q), 0.02)
    for short, key in SHARED:
        p, q = model.get(key, {}), measured.get(key, {})
        if not p.get("requests") and not q.get("requests") and not q.get("address_wavefronts"):
            continue
        check(f"{short} wavefronts", p.get("wavefronts", 0), q.get("address_wavefronts", 0), 0.05)
        check(f"{short} conflicts", p.get("conflicts", 0), q.get("address_conflicts", 0), 0.05)
    bad = [f"{n} {m:.0f} ({difference_text(p, m)})" if p == 0 else f"{n} {difference_text(p, m)}"
           for n, p, m, ok in checks if not ok]
    return "differs: " + ", ".join(bad) if bad else "matches"


def load(folders, cudalab=None):
    rows = []
    for folder in folders:
        path = os.path.join(folder, "results.json")
        if not os.path.exists(path):
            print(f"<!-- {folder}: no results.json -->")
            continue
        doc = json.load(open(path))
        counters = doc["context"].get("counters", "")
        if not counters.startswith("Nsight Compute"):
            print(f"<!-- {folder}: no counters ({counters or 'not a --profile run'}) -->")
        models = explained(cudalab, doc["context"]["command_line"]) if cudalab else None
        sass = sass_requests(folder) if cudalab else {}
        for r in doc["results"]:
            if models is not None:
                r["model"] = models.get(result_key(r["lab_file"], r["point"], r["variant"]))
                c = r.get("measured")
                for op, key in (("ld", "shared_load"), ("st", "shared_store"), ("atom", "shared_atomic")):
                    if c and (r["point_index"], r["variant"], op) in sass:
                        c[key]["requests"] = sass[(r["point_index"], r["variant"], op)]
                if c is not None:
                    r["counters_verdict"] = judge(r["model"], c) if r["model"] else "not modelled"
            rows.append(r)
    return rows


def cells(r, kinds, cell):
    """One `cell(predicted, counted)` line per kind of access either side has, "-" for none."""
    m, c = r.get("model") or {}, r.get("measured") or {}
    lines = [cell(short, m.get(key, {}), c.get(key, {})) for short, key in kinds
             if m.get(key, {}).get("requests") or c.get(key, {}).get("requests")]
    return "<br>".join(lines) or "-"


def global_cell(short, p, q):
    return f"{short} {spr(p):.2f}/{spr(q):.2f} ({p.get('requests', 0)}/{q.get('requests', 0)} req)"


def shared_cell(short, p, q):
    return (f"{short}: req {p.get('requests', 0)}/{q.get('requests', 0)} (all inst {q.get('instructions', 0)}), "
            f"wf {p.get('wavefronts', 0)}/{q.get('address_wavefronts', 0)} (hw {q.get('wavefronts', 0)}), "
            f"cf {p.get('conflicts', 0)}/{q.get('address_conflicts', 0)} (hw {q.get('conflicts', 0)})")


def main(folders, cudalab=None):
    rows = load(folders, cudalab)
    counted = [r for r in rows if r.get("measured") is not None]
    verdicts = {}
    for r in counted:
        v = r.get("counters_verdict", "")
        verdicts.setdefault(v.split(":")[0], []).append(r)
    print(f"{len(rows)} results, {len(counted)} with counters: " +
          ", ".join(f"{len(v)} {k}" for k, v in sorted(verdicts.items())) + "\n")

    # Requests are not in the verdict, but like with like they should be equal: list those that are not.
    unequal = []
    for r in counted:
        m, c = r.get("model") or {}, r["measured"]
        if not m:
            continue
        for short, key in GLOBAL + SHARED:
            p, q = m.get(key, {}).get("requests", 0), c.get(key, {}).get("requests", 0)
            if p != q:
                unequal.append((r, short, p, q))
    print("## Variants that differ\n")
    print("| lab file | point | variant | verdict |")
    print("|---|---|---|---|")
    for r in verdicts.get("differs", []):
        print(f"| {os.path.basename(r['lab_file'])} | {point_text(r)} | {r['variant']} | {r['counters_verdict']} |")
    print("\n## Requests predicted and counted that are not equal\n")
    print("| lab file | point | variant | requests | predicted | counted | difference |")
    print("|---|---|---|---|---|---|---|")
    for r, short, p, q in unequal:
        print(f"| {os.path.basename(r['lab_file'])} | {point_text(r)} | {r['variant']} | {short} | {p} | {q} | "
              f"{pct(p, q)} |")
    print("\n## Every result\n")
    print("Global: sectors per request predicted/counted (requests predicted/counted). Shared: requests "
          "predicted/counted (every instruction executed, with those whose lanes were all off), wavefronts "
          "predicted/of the addresses (the data stage's), conflicts predicted/of the addresses (the hardware "
          "counter's). DRAM: MB read/written.\n")
    print("| lab file | point | variant | kernels | global | shared | DRAM | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        c = r.get("measured")
        if c is None and not r.get("model"):
            continue
        dram = f"{c['dram_bytes_read'] / 1e6:.2f}/{c['dram_bytes_written'] / 1e6:.2f}" if c else "-"
        print(f"| {os.path.basename(r['lab_file'])} | {point_text(r)} | {r['variant']} | "
              f"{c['kernels'] if c else '-'} | {cells(r, GLOBAL, global_cell)} | {cells(r, SHARED, shared_cell)} | {dram} | "
              f"{r.get('counters_verdict', r['status'])} |")


def ncu_rows(folder):
    """The kernels of the folder's ncu.csv (ncu's raw page), each a dict of its columns."""
    import csv
    path = os.path.join(folder, "ncu.csv")
    if not os.path.exists(path):
        return []
    lines = open(path, errors="replace").read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID",')), None)
    if start is None:
        return []
    table = list(csv.reader(lines[start:]))
    header = table[0]
    return [dict(zip(header, row)) for row in table[1:] if len(row) == len(header) and row[0] and row != header]


def number(text):
    try:
        return float(text.replace(",", ""))
    except (ValueError, AttributeError):
        return 0.0


def raw_cross_check(folders):
    """Shared-memory counters of ncu.csv side by side, per range: which instruction count has only the
    instructions with an active lane, and whether SASS's wavefronts leave out the data stage's contention."""
    import re
    print("\n## Shared-memory counters of ncu.csv, per variant\n")
    print("pred_on_any / SASS instructions / all instructions executed; SASS wavefronts / data-stage wavefronts "
          "/ bank conflicts.\n")
    print("| range | op | pred_on_any | sass inst | inst | sass wf | wf | conflicts |")
    print("|---|---|---|---|---|---|---|---|")
    for folder in folders:
        sums = {}
        for k in ncu_rows(folder):
            nvtx = " ".join(v for c, v in k.items() if "_Range:" in c)
            m = re.search(r"cudalab#[A-Za-z0-9_%#-]+", nvtx)
            key = m.group(0) if m else "(outside)"
            for op in ("ld", "st", "atom"):
                names = (f"smsp__inst_executed_op_shared_{op}_pred_on_any.sum", f"smsp__sass_inst_executed_op_shared_{op}.sum",
                         f"smsp__inst_executed_op_shared_{op}.sum", f"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum",
                         f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum",
                         f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
                acc = sums.setdefault((key, op), [0.0] * len(names))
                for i, n in enumerate(names):
                    acc[i] += number(k.get(n, "0"))
        for (key, op), v in sums.items():
            if any(v):
                print(f"| {key} | {op} | " + " | ".join(f"{x:.0f}" for x in v) + " |")


if __name__ == "__main__":
    argv = sys.argv[1:]
    cudalab = None
    if argv[:1] == ["--explain"] and len(argv) > 1:
        cudalab, argv = os.path.abspath(argv[1]), argv[2:]
    if not argv:
        sys.exit("usage: model_table.py [--explain CUDALAB] RESULTS_FOLDER...")
    main(argv, cudalab)
    raw_cross_check(argv)
