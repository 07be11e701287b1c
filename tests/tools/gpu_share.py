#!/usr/bin/env python3
"""How much of a run's wall time was timed GPU work.

usage: gpu_share.py WALL_SECONDS WARMUP_MS RESULTS_JSON...

Timed GPU work per result is samples x batch x median plus the warm-up (WARMUP_MS: the profile's, or
the lab file's); the sum over every result of every file is compared with the wall time of the run
that wrote them.
"""
import json
import sys


def timed_seconds(path, warmup_ms):
    doc = json.load(open(path))
    total_ms, results, verified = 0.0, 0, 0
    for r in doc["results"]:
        results += 1
        verified += 1 if (r.get("verification") or {}).get("passed") else 0
        t = r.get("timing") or {}
        if t.get("timed") and t.get("median_ms"):
            total_ms += t["samples"] * t["batch"] * t["median_ms"] + warmup_ms
    return total_ms / 1000.0, results, verified


def main():
    wall, warmup_ms = float(sys.argv[1]), float(sys.argv[2])
    gpu, results, verified = 0.0, 0, 0
    for path in sys.argv[3:]:
        g, n, v = timed_seconds(path, warmup_ms)
        gpu, results, verified = gpu + g, results + n, verified + v
    print(f"wall {wall:.1f} s, timed GPU work {gpu:.1f} s ({100 * gpu / wall:.0f}%), "
          f"{results} results, {verified} verified")


if __name__ == "__main__":
    main()
