#!/usr/bin/env python3
"""coverage.py — do the published intervals hold what another run sees?

Usage: tests/coverage.py [--view resident|transfer] RUN RUN [RUN...]

Each RUN is a results.xml (or a run directory holding one).  For every
ordered pair of runs (i, j), i != j, and every point measured ok in both
(same device, mode, layers, hidden and batch), the pair counts as inside
when run j's median lies within run i's published interval
[ci-lo, ci-hi].  Prints the fraction of pairs inside, overall and per
device, with the median run-to-run change of the median and the median
half-width of the intervals, and the machine's state of each run's passes
when the file records them.

A tool for checking the statistics by hand on a real machine (see README,
"How it measures"); not part of `make check`.
"""
import os
import statistics
import sys
import xml.etree.ElementTree as ET


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "results.xml")
    root = ET.parse(path).getroot()
    points = {}
    for p in root.iter("point"):
        if p.get("status") != "ok":
            continue
        s = p.find("summary[@view='%s']" % VIEW)
        if s is None:
            continue
        key = (p.get("device"), p.get("mode"), p.get("layers"), int(p.get("hidden")),
               int(p.get("batch")))
        points[key] = (float(s.get("median")), float(s.get("ci-lo")), float(s.get("ci-hi")))
    passes = [dict(ps.attrib) for ps in root.iter("pass")]
    return path, points, passes


def main(argv):
    global VIEW
    VIEW = "resident"
    args = argv[1:]
    if len(args) >= 2 and args[0] == "--view":
        VIEW = args[1]
        args = args[2:]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    runs = [load(a) for a in args]
    for i, (path, points, passes) in enumerate(runs):
        print("run %d: %s, %d points" % (i + 1, path, len(points)))
        for ps in passes:
            print("  pass %s: %.1f s, load %s, others-cpu %s, steal %s" % (
                ps.get("index"), float(ps.get("seconds", "0")), ps.get("loadavg", "?"),
                ps.get("others-cpu", "?"), ps.get("steal", "?")))
    inside, total = {}, {}
    change, half = [], []
    for i, (_, a, _) in enumerate(runs):
        for j, (_, b, _) in enumerate(runs):
            if i == j:
                continue
            for key, (med, lo, hi) in a.items():
                if key not in b:
                    continue
                other = b[key][0]
                dev = key[0]
                total[dev] = total.get(dev, 0) + 1
                inside[dev] = inside.get(dev, 0) + (lo <= other <= hi)
                if i < j:
                    change.append(abs(other / med - 1.0))
        for (med, lo, hi) in a.values():
            half.append((hi - lo) / 2.0 / med)
    n = sum(total.values())
    if n == 0:
        print("no point in common")
        return 1
    print("view %s: %d of %d pairs inside (%.0f%%)" % (VIEW, sum(inside.values()), n,
                                                       100.0 * sum(inside.values()) / n))
    for dev in sorted(total):
        print("  %-8s %d of %d (%.0f%%)" % (dev, inside[dev], total[dev],
                                          100.0 * inside[dev] / total[dev]))
    print("run-to-run change of a median: median %.1f%%, max %.1f%%" % (
        100.0 * statistics.median(change), 100.0 * max(change)))
    print("interval half-width: median ±%.1f%%, max ±%.1f%%" % (
        100.0 * statistics.median(half), 100.0 * max(half)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
