#!/usr/bin/python3
"""tests/data/stack/make_synthetic.py IN OUT: a SYNTHETIC fixture, not a
measurement.  Reads a real run holding torch:cpu (IN, results.xml or .gz)
and writes OUT (gzipped) with one more device, torch:cuda:0, a framework
device of type GPU named "NVIDIA H100 80GB HBM3", whose every point is
torch:cpu's with each time t replaced by 500 us + t / 10 (a fixed dispatch
cost per step and ten times the throughput): so that PyTorch's "GPU" loses
to PyTorch's CPU at the small shapes and wins at the large ones, and the
pages of a run of two stacks can be tested without a GPU.  Its figures
were never measured on any GPU and must never be published as measured;
the device says so in its library string and a "synthetic" property.  The
fit is dropped: run `breakeven refit OUT` to compute it with the binary
under test (tests/data/stack/README.md)."""
import gzip
import sys
import xml.etree.ElementTree as ET

T0, SPEEDUP = 500e-6, 10.0


def scaled(t):
    return T0 + t / SPEEDUP


def cuda_point(p):
    q = ET.fromstring(ET.tostring(p))
    q.set("device", "torch:cuda:0")
    for s in q.iter("s"):
        for k in ("wall", "transfer"):
            if k in s.attrib:
                s.set(k, repr(scaled(float(s.get(k)))))
    for sm in q.iter("summary"):
        old_median = float(sm.get("median", "0"))
        for k in ("median", "min", "max", "p10", "p90", "mean", "ci-lo", "ci-hi"):
            if k in sm.attrib and float(sm.get(k)) > 0:
                sm.set(k, repr(scaled(float(sm.get(k)))))
        if "stdev" in sm.attrib:
            sm.set("stdev", repr(float(sm.get("stdev")) / SPEEDUP))
        if "cv" in sm.attrib and float(sm.get("mean", "0")) > 0:
            sm.set("cv", repr(float(sm.get("stdev")) / float(sm.get("mean"))))
        if "gflops" in sm.attrib and old_median > 0:
            sm.set("gflops", repr(float(sm.get("gflops")) * old_median / float(sm.get("median"))))
    return q


def main():
    src, dst = sys.argv[1], sys.argv[2]
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rb") as f:
        root = ET.parse(f).getroot()
    devices = root.find("devices")
    torch = [d for d in devices if d.get("id") == "torch:cpu"]
    if not torch:
        sys.exit("make_synthetic.py: %s has no torch:cpu device" % src)
    cuda = ET.fromstring(ET.tostring(torch[0]))
    cuda.set("id", "torch:cuda:0")
    cuda.set("type", "GPU")
    cuda.set("name", "NVIDIA H100 80GB HBM3")
    cuda.set("library", "SYNTHETIC: times derived from torch:cpu's, not measured")
    for prop in cuda.findall("prop"):
        if prop.get("name") == "torch-device":
            prop.set("value", "cuda:0")
    ET.SubElement(cuda, "prop", name="synthetic",
                  value="t = 500 us + t(torch:cpu) / 10; not a measurement")
    devices.append(cuda)
    points = root.find("points")
    for p in [p for p in points if p.get("device") == "torch:cpu"]:
        points.append(cuda_point(p))
    fit = root.find("fit")
    if fit is not None:
        root.remove(fit)
    ET.indent(root)
    with gzip.GzipFile(dst, "wb", mtime=0) as f:
        f.write(b'<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(ET.tostring(root, encoding="utf-8"))


if __name__ == "__main__":
    main()
