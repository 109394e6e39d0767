#!/usr/bin/env python3
"""What a PyTorch user gets for breakeven's forward layer, side by side with `build/bench`.

    python3 tests/torch_layer.py [--bench build/bench] [--rounds 50]

Times y = relu(x @ W + b) in float32 on the CUDA device (PyTorch's Linear
then ReLU: two kernels, addmm and relu; ours is one) at the shapes `make
bench` uses for OpenCL devices, K inputs x N outputs x batch, two ways,
medians of --rounds after warm-up: "wall", host time from the launch to
torch.cuda.synchronize() returning, as `make bench` times our kernel and
CLBlast (the ratio is taken on these), and "events", CUDA events around the
launches, beside our kernels' event times.  TF32 is off, as in our kernels
(full float32 arithmetic); the TF32 figure is printed beside it for context
only.  With --bench, the benchmark runs between two torch passes and each
OpenCL row of its output becomes a ratio: torch time / our time (above 1:
ours faster), against the mean of the two torch passes that bracket it.
Inputs are random (never zeros), fresh per shape; torch's output is checked
against float64 on the CPU.  The targets (docs/gpu.md): >= 0.9 wall at
2048 x 2048 x 1024 and at the network shapes, >= 1.0 at hidden 1024 for
batches up to 256, where one launch against two should tell.
"""
import argparse
import re
import subprocess
import sys
import time

import torch

# K inputs, N outputs, batch: tests/bench.c's cl_shapes, in its order
SHAPES = [(128, 128, 16), (512, 512, 128), (1024, 1024, 16), (1024, 1024, 64),
          (1024, 1024, 256), (1024, 1024, 1024), (2048, 2048, 256), (2048, 2048, 1024),
          (784, 512, 256), (512, 256, 256), (256, 10, 256), (256, 10, 16), (4096, 16384, 64)]


def flops(k, n, batch):
    # as net_layer_flops(WL_INFERENCE): the product, then the bias and ReLU
    return (2.0 * k * n + n) * batch


def time_layer(k, n, batch, rounds, tf32):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    g = torch.Generator(device="cuda").manual_seed(k * 7919 + n * 31 + batch)
    x = torch.rand(batch, k, device="cuda", generator=g) * 2 - 1
    w = (torch.rand(k, n, device="cuda", generator=g) * 2 - 1) / k ** 0.5
    b = torch.rand(n, device="cuda", generator=g) * 0.2 - 0.1
    y = torch.relu(torch.addmm(b, x, w))
    ref = torch.relu(x.double().cpu() @ w.double().cpu() + b.double().cpu())
    rel = ((y.double().cpu() - ref).norm() / ref.norm()).item()
    if not rel < (1e-2 if tf32 else 1e-5):
        sys.exit(f"torch_layer: {k}x{n} batch={batch}: relative error {rel:.3g}")
    for _ in range(10):
        torch.relu(torch.addmm(b, x, w))
    torch.cuda.synchronize()
    wall, events = [], []
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        start.record()
        torch.relu(torch.addmm(b, x, w))
        end.record()
        torch.cuda.synchronize()
        wall.append(time.perf_counter() - t0)
        events.append(start.elapsed_time(end) / 1e3)
    return median(wall), median(events)


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def torch_pass(rounds):
    return {s: time_layer(*s, rounds, False) + time_layer(*s, rounds, True)[1:] for s in SHAPES}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", help="the benchmark binary to run between two torch passes")
    ap.add_argument("--rounds", type=int, default=50)
    a = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_layer: no CUDA device")
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name(0)}")
    first = torch_pass(a.rounds)
    ours = {}
    if a.bench:
        out = subprocess.run([a.bench], capture_output=True, text=True)
        sys.stdout.write(out.stdout)
        sys.stderr.write(out.stderr)
        # rows of section 2: device in out batch ours CLBlast OpenBLAS
        # vs-CLBlast vs-OpenBLAS ours-kernel
        for m in re.finditer(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+[\d.]+\s+"
                             r"[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", out.stdout, re.M):
            ours[(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))] = (
                float(m.group(5)), float(m.group(6)))
    second = torch_pass(a.rounds)
    print(f"\nPyTorch forward layer (relu(addmm)) in GFLOP/s, medians of {a.rounds}; "
          "the mean of two passes bracketing the benchmark")
    print(f"{'in':>6} {'out':>6} {'batch':>6} {'fp32 wall':>10} {'fp32 event':>10} {'tf32 event':>10}"
          f" {'spread':>7}" + ("  device  ours wall  ratio  ours kernel  ratio" if ours else ""))
    for s in SHAPES:
        wall, ev, tf = ((first[s][i] + second[s][i]) / 2 for i in range(3))
        spread = abs(first[s][0] - second[s][0]) / wall
        g = lambda t: flops(*s) / t / 1e9
        line = f"{s[0]:>6} {s[1]:>6} {s[2]:>6} {g(wall):>10.1f} {g(ev):>10.1f} {g(tf):>10.1f} {spread:>6.1%}"
        for (dev, k, n, bt), (ow, ok) in sorted(ours.items()):
            if (k, n, bt) == s:
                line += f"  {dev:<6} {ow:>9.1f} {ow / g(wall):>6.2f} {ok:>12.1f} {ok / g(ev):>6.2f}"
        print(line)
    print("spread: between the two torch passes (wall); ratio = torch's fp32 time / ours, "
          "wall to wall and kernel events to CUDA events (targets: >= 0.9 at 2048 x 2048 x 1024 "
          "and the network shapes, >= 1.0 at 1024 x 1024 up to batch 256)")


if __name__ == "__main__":
    main()
