#!/usr/bin/env python3
"""Where the time goes: runs `cargo-termcheck prove --format json` on every N-th program of a
benchmark folder and sums the engine's own timing statistics (symbolic execution, z3 calls,
witness search, back end). Usage: scripts/profile.py DIR [--every 5] [--timeout 30] [--int-semantics math]"""
import argparse, json, pathlib, statistics, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("--every", type=int, default=5)
ap.add_argument("--timeout", type=int, default=30)
ap.add_argument("--int-semantics", default="math")
ap.add_argument("--binary", default="target/release/cargo-termcheck")
a = ap.parse_args()
root = pathlib.Path(a.dir)
rows = [l.split("\t") for l in (root / "expected.tsv").read_text().splitlines()[1:] if l.strip()]
sums, counts, totals, verdicts = {}, {}, [], {}
for path, _expected in rows[:: a.every]:
    cmd = [a.binary, "prove", str(root / path), "--timeout", str(a.timeout), "--format", "json"]
    if path.endswith(".c"):
        cmd += ["--int-semantics", a.int_semantics]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout + 30).stdout
    try:
        d = json.loads(out)
    except json.JSONDecodeError:
        continue
    verdicts[d["verdict"]] = verdicts.get(d["verdict"], 0) + 1
    totals.append(d.get("time_ms", 0) / 1000)
    for k, v in (d.get("stats") or {}).items():
        if isinstance(v, str) and v.endswith("s") and v[:-1].replace(".", "", 1).isdigit():
            sums[k] = sums.get(k, 0.0) + float(v[:-1])
        elif isinstance(v, str) and v.isdigit():
            counts[k] = counts.get(k, 0) + int(v)
n = len(totals)
print(f"programs: {n} (every {a.every}th of {len(rows)}), verdicts: {verdicts}")
print(f"total wall: {sum(totals):.1f}s, median {statistics.median(totals):.2f}s")
for k, v in sorted(sums.items(), key=lambda kv: -kv[1]):
    print(f"  time  {k:32s} {v:8.2f}s  ({100 * v / max(sum(totals), 1e-9):5.1f}% of wall)")
for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
    print(f"  count {k:32s} {v:8d}  ({v / max(n, 1):.1f} per program)")
