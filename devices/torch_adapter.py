#!/usr/bin/python3
"""torch_adapter.py — PyTorch as a breakeven device (docs/devices.md, protocol 1).

breakeven starts it as `/usr/bin/python3 torch_adapter.py DEVICE --fd 3`, DEVICE
being `cpu`, `cuda:N` or `mps`, and keeps it for the whole run.  It computes the
workload of src/machine/backend.h with PyTorch: forward (Linear + ReLU per layer,
none after the last when linear_last), and in training the loss ½·Σy², backward
and one SGD step with the given rate, so that its state verifies against
breakeven's host reference.  Inference runs under torch.inference_mode().  Each
step is timed here, the device synchronised before the clock stops.
"""
import math
import os
import socket
import struct
import sys
import time

PROTOCOL = 1
# the most steps one STPN may ask for (docs/devices.md)
STEPS_MAX = 64
TEXT_MAX = 65536


def fail_reply(sock, cls, msg):
    send(sock, b"FAIL", ("%s %s\n" % (cls, msg)).encode())


def send(sock, typ, payload=b""):
    sock.sendall(b"BEDP" + typ + struct.pack("<Q", len(payload)))
    if payload:
        sock.sendall(payload)


def recv_exact(sock, n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            sys.exit(0)  # breakeven went away: nothing more to do
        got += k
    return buf


def main():
    args = sys.argv[1:]
    fd = 3
    if "--fd" in args:
        i = args.index("--fd")
        fd = int(args[i + 1])
        del args[i:i + 2]
    dev_name = args[0] if args else "cpu"
    sock = socket.socket(fileno=fd)

    # the hello comes first; torch is imported after it is read, so that a
    # missing torch is said in the FAIL-free way breakeven reads: the
    # adapter's last line, then its exit
    hdr = recv_exact(sock, 16)
    if hdr[:4] != b"BEDP" or hdr[4:8] != b"HELO":
        sys.exit("the first message is not HELO")
    (n,) = struct.unpack("<Q", hdr[8:16])
    req = dict(line.split(" ", 1) for line in recv_exact(sock, n).decode().splitlines() if " " in line)
    threads = int(req.get("threads", "0")) or os.cpu_count() or 1

    import torch  # noqa: E402  (a missing torch ends the adapter with its error)

    torch.set_num_threads(threads)
    device = torch.device(dev_name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            sys.exit("no CUDA: torch.cuda.is_available() is False (PyTorch %s)" % torch.__version__)
        if device.index is not None and device.index >= torch.cuda.device_count():
            sys.exit("no %s: %d CUDA device(s)" % (dev_name, torch.cuda.device_count()))
        name = torch.cuda.get_device_name(device)
        typ, vendor = "GPU", "NVIDIA"
        library = "CUDA %s, cuDNN %s" % (torch.version.cuda, torch.backends.cudnn.version())
        sync = lambda: torch.cuda.synchronize(device)  # noqa: E731
    elif device.type == "mps":
        if not (hasattr(torch.backends, "mps") and torch.backends.mps.is_available()):
            sys.exit("no MPS: torch.backends.mps.is_available() is False (PyTorch %s)" % torch.__version__)
        name, typ, vendor, library = "Apple GPU (MPS)", "GPU", "Apple", "Metal Performance Shaders"
        sync = torch.mps.synchronize if hasattr(torch, "mps") else (lambda: None)
    else:
        name, typ, vendor = "PyTorch CPU", "CPU", "PyTorch"
        cfg = torch.__config__.show()
        blas = [l.strip() for l in cfg.splitlines() if "BLAS_INFO" in l or "USE_MKLDNN" in l]
        library = "; ".join(blas)[:250] or "unknown"
        sync = lambda: None  # noqa: E731
    # every device this PyTorch can compute on here, so that `--devices
    # all` starts the others only where they exist
    here = ["cpu"] + ["cuda:%d" % i for i in range(torch.cuda.device_count())]
    if hasattr(torch.backends, "mps") and torch.backends.mps.is_available():
        here.append("mps")
    hello = [
        "protocol %d" % PROTOCOL,
        "devices %s" % " ".join(here),
        "name %s" % name,
        "framework PyTorch",
        "framework-version %s" % torch.__version__,
        "type %s" % typ,
        "vendor %s" % vendor,
        "library %s" % library,
        "steps %d" % STEPS_MAX,
        "prop torch-threads %d" % torch.get_num_threads(),
        "prop torch-device %s" % dev_name,
        "prop python %s" % sys.version.split()[0],
    ]
    send(sock, b"HELO", ("\n".join(hello) + "\n").encode())

    net = None
    while True:
        hdr = recv_exact(sock, 16)
        if hdr[:4] != b"BEDP":
            sys.exit("not the protocol")
        typ = bytes(hdr[4:8])
        (n,) = struct.unpack("<Q", hdr[8:16])
        payload = recv_exact(sock, n) if n else b""
        try:
            if typ == b"PREP":
                net = Net(torch, device, payload, sync)
                send(sock, b"OKAY")
            elif typ == b"RSET":
                net.reset()
                send(sock, b"OKAY")
            elif typ == b"STEP":
                wall = net.step()
                send(sock, b"TIME", struct.pack("<6d", wall, -1.0, -1.0, -1.0, -1.0, -1.0))
            elif typ == b"STPN":
                # several steps back to back, each timed as STEP's
                (k,) = struct.unpack("<I", payload)
                if not 1 <= k <= STEPS_MAX:
                    sys.exit("STPN of %d steps" % k)
                walls = [net.step() for _ in range(k)]
                send(sock, b"TIMS", b"".join(
                    struct.pack("<6d", w, -1.0, -1.0, -1.0, -1.0, -1.0) for w in walls))
            elif typ == b"STAT":
                send(sock, b"DATA", net.state())
            elif typ == b"RELS":
                net = None
                if device.type == "cuda":
                    torch.cuda.empty_cache()
                send(sock, b"OKAY")
            elif typ == b"BYE!":
                return
            else:
                sys.exit("unknown message %r" % typ)
        except RuntimeError as exc:  # CUDA out of memory is a RuntimeError in 1.13
            msg = str(exc).splitlines()[0][:300]
            fail_reply(sock, "oom" if "out of memory" in msg else "error", msg)


class Net:
    """One point's network on the device, from breakeven's numbers."""

    def __init__(self, torch, device, payload, sync):
        self.torch, self.device, self.sync = torch, device, sync
        mode, layers, batch, linear_last, _whost = struct.unpack_from("<5i", payload, 0)
        (self.lr,) = struct.unpack_from("<f", payload, 20)
        dims = struct.unpack_from("<%di" % (layers + 1), payload, 24)
        off = 24 + 4 * (layers + 1)
        self.training, self.L, self.B = mode == 1, layers, batch
        self.relu = [not (linear_last and l == layers - 1) for l in range(layers)]
        self.dims = dims

        def take(count, shape):
            nonlocal off
            t = torch.frombuffer(payload, dtype=torch.float32, count=count, offset=off).reshape(shape)
            off += 4 * count
            return t

        x0 = take(batch * dims[0], (batch, dims[0]))
        w0, b0 = [], []
        for l in range(layers):
            w0.append(take(dims[l] * dims[l + 1], (dims[l], dims[l + 1])))
            b0.append(take(dims[l + 1], (dims[l + 1],)))
        # the initial parameters, resident on the device; the working ones
        # are copies that a training step changes
        self.x = x0.to(device).clone()
        self.w0 = [w.to(device).clone() for w in w0]
        self.b0 = [b.to(device).clone() for b in b0]
        self.reset()

    def reset(self):
        self.w = [w.clone().requires_grad_(self.training) for w in self.w0]
        self.b = [b.clone().requires_grad_(self.training) for b in self.b0]
        self.acts = None
        self.dx = None
        self.sync()

    def forward(self, grad):
        """The activations of every layer, the input first; with grad the
        input takes a gradient too (dx of the first layer)."""
        t = self.torch
        a = self.x.detach().requires_grad_(True) if grad else self.x
        acts = [a]
        for l in range(self.L):
            y = t.addmm(self.b[l], a, self.w[l])
            a = t.relu(y) if self.relu[l] else y
            acts.append(a)
        return acts

    def step(self):
        self.sync()
        t0 = time.perf_counter()
        self.run_step()
        self.sync()
        return max(time.perf_counter() - t0, 1e-9)

    def run_step(self):
        """One step, not synchronised (tests/bench_torch times this too)."""
        t = self.torch
        if self.training:
            acts = self.forward(True)
            loss = 0.5 * (acts[-1] * acts[-1]).sum()
            grads = t.autograd.grad(loss, acts[:-1] + self.w + self.b)
            L = self.L
            with t.no_grad():
                for l in range(L):
                    self.w[l].sub_(self.lr * grads[L + l])
                    self.b[l].sub_(self.lr * grads[2 * L + l])
            self.acts, self.dx = acts, grads[:L]
        else:
            with t.inference_mode():
                self.acts = self.forward(False)

    def state(self):
        parts = [a.detach() for a in self.acts]
        if self.training:
            parts += [d.detach() for d in self.dx]
            for l in range(self.L):
                parts += [self.w[l].detach(), self.b[l].detach()]
        out = bytearray()
        for p in parts:
            out += p.to("cpu").contiguous().numpy().tobytes()
        return bytes(out)


if __name__ == "__main__":
    main()
