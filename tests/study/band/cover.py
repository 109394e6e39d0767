#!/usr/bin/env python3
"""cover.py — how often some runs' intervals cover other runs' medians.

Usage: tests/study/band/cover.py RUN... --against RUN...

For each run given first, per device (the resident view, every ok point),
the share of the pairs (its point, the same point of another run given
after --against, itself left out) whose other median lies inside its
interval, and its intervals' median hi/lo: the cross-run coverage of
tests/bench_sharpness, measured against more runs than a side's own.
A RUN is a results file or an OUT holding runs/*/results.xml.gz.  Used in
docs/statistics.md ("Learned where the archive can say").
"""
import importlib.machinery
import importlib.util
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader(
    "bench_sharpness", os.path.join(here, "..", "..", "bench_sharpness"))
spec = importlib.util.spec_from_loader("bench_sharpness", loader)
bs = importlib.util.module_from_spec(spec)
loader.exec_module(bs)


def main(argv):
    if "--against" not in argv:
        sys.stderr.write(__doc__)
        return 2
    k = argv.index("--against")
    mine = [f for a in argv[1:k] for f in bs.results_files(a)]
    others = [f for a in argv[k + 1:] for f in bs.results_files(a)]
    if not mine or not others:
        sys.stderr.write(__doc__)
        return 2
    pts = {f: bs.load(f)["points"] for f in set(mine + others)}
    res = {}
    for f in mine:
        for key, p in pts[f].items():
            d = res.setdefault(key[0], [0, 0, []])
            d[2].append(p["hi"] / p["lo"] if p["lo"] > 0 else float("inf"))
            for g in others:
                q = pts[g].get(key) if g != f else None
                if q:
                    d[0] += 1
                    d[1] += p["lo"] <= q["median"] <= p["hi"]
    for dev, (n, c, w) in sorted(res.items()):
        print("%-10s coverage %3.0f%% of %4d pairs, median hi/lo %.2f" % (
            dev, 100.0 * c / n if n else float("nan"), n, statistics.median(w)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
