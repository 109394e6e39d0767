#!/usr/bin/python3
"""torch_adapter.py — PyTorch as a breakeven device (docs/devices.md, protocol 1).

breakeven starts it as `/usr/bin/python3 torch_adapter.py DEVICE --fd 3`, DEVICE
being `cpu`, `cuda:N` or `mps`, and keeps it for the whole run.  It computes the
workload of src/machine/backend.h as a PyTorch user writes it: an
nn.Sequential of nn.Linear and nn.ReLU (none after the last layer when
linear_last), called as a module, model(x); inference under
torch.inference_mode(), training as a training loop's step: zero_grad, the
loss ½·Σy², loss.backward() and torch.optim.SGD's step with the given rate,
so that its state verifies against breakeven's host reference.  Each step is
timed here, the device synchronised before the clock stops.  Its hello says
which BLAS and threads this torch runs on (blas_props).
"""
import ctypes
import os
import re
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


# The BLAS libraries a torch may run on, by the start of their file's name
BLAS_FILES = ("libopenblas", "libmkl_rt", "libmkl_core", "libblis", "libblas.so")
# openblas_get_parallel(): how that OpenBLAS was built to run its threads
OPENBLAS_VARIANT = {0: "serial", 1: "pthread", 2: "openmp"}


def blas_props(torch):
    """The BLAS and threads this torch computes with, as hello properties
    (docs/devices.md): the BLAS its build asked for (torch-blas-info), the
    library this process mapped (blas-library: a Debian torch calls the
    system's libblas.so.3, whichever alternative that is) and, for
    OpenBLAS, its own word on its build (blas), how it runs threads
    (blas-variant: pthread, openmp or serial) and how many (blas-threads);
    and torch's own threads (torch-parallel, omp-threads).  A pthread
    OpenBLAS called from torch's OpenMP threads runs two pools of threads
    on the same CPUs; breakeven warns of it (q_blas_contends)."""
    props = {}
    info = re.search(r"BLAS_INFO=([^,\s]+)", torch.__config__.show())
    if info:
        props["torch-blas-info"] = info.group(1)
    par = torch.__config__.parallel_info()
    props["torch-parallel"] = "unknown"
    for line in par.splitlines():
        if line.startswith("ATen parallel backend:"):
            props["torch-parallel"] = line.split(":", 1)[1].strip()
        elif "omp_get_max_threads()" in line:
            props["omp-threads"] = line.split(":", 1)[1].strip()
    mapped = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                if os.path.basename(path).startswith(BLAS_FILES) and path not in mapped:
                    mapped.append(path)
    except OSError:
        pass  # not Linux: the library stays unsaid
    # the library that does the work: OpenBLAS where it is mapped (Debian's
    # libblas.so.3 is a thin front of it), else the first one found
    work = [p for p in mapped if os.path.basename(p).startswith("libopenblas")] or mapped
    if work:
        props["blas-library"] = work[0]
    if work and os.path.basename(work[0]).startswith("libopenblas"):
        try:
            lib = ctypes.CDLL(work[0])
            lib.openblas_get_config.restype = ctypes.c_char_p
            props["blas"] = lib.openblas_get_config().decode(errors="replace")
            props["blas-variant"] = OPENBLAS_VARIANT.get(lib.openblas_get_parallel(), "unknown")
            props["blas-threads"] = str(lib.openblas_get_num_threads())
        except (OSError, AttributeError):
            pass  # an OpenBLAS without these entry points: its path says what it is
    return props


def blas_parker(props):
    """What ends the OpenBLAS threads between visits: the pthread build's
    threads spin on their cores for about 0.1 s after its last call, beside
    whichever device breakeven visits next (docs/statistics.md, "No library
    slows another"), and counted as this adapter's load outside its
    requests.  The library's own shutdown, which it runs before a fork,
    ends them; its next call starts them again, in the next visit's
    warm-up, so the timed steps are as a user runs them.  A no-op where the
    library has no such threads or entry point."""
    path = props.get("blas-library", "")
    if props.get("blas-variant") != "pthread" or not path:
        return lambda: None
    try:
        shutdown = ctypes.CDLL(path).blas_thread_shutdown_
    except (OSError, AttributeError):
        return lambda: None
    return shutdown


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
        library = None  # the BLAS it runs on (blas_props)
        sync = lambda: None  # noqa: E731
    # every device this PyTorch can compute on here, so that `--devices
    # all` starts the others only where they exist
    here = ["cpu"] + ["cuda:%d" % i for i in range(torch.cuda.device_count())]
    if hasattr(torch.backends, "mps") and torch.backends.mps.is_available():
        here.append("mps")
    props = blas_props(torch)
    park = blas_parker(props)
    if library is None:
        blas = (" ".join(props["blas"].split()[:2]) if "blas" in props
                else os.path.basename(props.get("blas-library", "an unknown BLAS")))
        if "blas-variant" in props:
            blas += " (%s)" % props["blas-variant"]
        library = "%s; torch BLAS_INFO=%s, parallel %s" % (
            blas, props.get("torch-blas-info", "unknown"), props["torch-parallel"])
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
    ] + ["prop %s %s" % kv for kv in sorted(props.items())]
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
                # the first step since RSET keeps its layers' outputs for
                # STAT (training's, which breakeven checks after it alone)
                wall = net.step(record=net.steps == 0)
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
                data = net.state()
                if data is None:
                    fail_reply(sock, "error", "STAT after %d steps since RSET; in training "
                               "this adapter keeps the state of the first step only" % net.steps)
                else:
                    send(sock, b"DATA", data)
            elif typ == b"RELS":
                net = None
                if device.type == "cuda":
                    torch.cuda.empty_cache()
                park()
                send(sock, b"OKAY")
            elif typ == b"BYE!":
                return
            else:
                sys.exit("unknown message %r" % typ)
        except RuntimeError as exc:  # CUDA out of memory is a RuntimeError in 1.13
            msg = str(exc).splitlines()[0][:300]
            fail_reply(sock, "oom" if "out of memory" in msg else "error", msg)


class Net:
    """One point's network on the device, from breakeven's numbers, as a
    PyTorch user has it: an nn.Sequential of nn.Linear and nn.ReLU, and in
    training torch.optim.SGD over its parameters."""

    def __init__(self, torch, device, payload, sync):
        nn = torch.nn
        self.torch, self.device, self.sync = torch, device, sync
        mode, layers, batch, linear_last, _whost = struct.unpack_from("<5i", payload, 0)
        (self.lr,) = struct.unpack_from("<f", payload, 20)
        dims = struct.unpack_from("<%di" % (layers + 1), payload, 24)
        off = 24 + 4 * (layers + 1)
        self.training, self.L, self.B = mode == 1, layers, batch

        def take(count, shape):
            nonlocal off
            t = torch.frombuffer(payload, dtype=torch.float32, count=count, offset=off).reshape(shape)
            off += 4 * count
            return t

        x0 = take(batch * dims[0], (batch, dims[0]))
        mods, self.ends, self.w0, self.b0 = [], [], [], []
        for l in range(layers):
            # breakeven's W is in × out (y = x·W + b); nn.Linear keeps its
            # weight out × in and computes x·weightᵀ + b: the transpose,
            # laid out as nn.Linear's own.  skip_init: the weights are
            # breakeven's, so torch's random initialisation would be wasted
            w = take(dims[l] * dims[l + 1], (dims[l], dims[l + 1]))
            self.w0.append(w.t().contiguous().to(device))
            self.b0.append(take(dims[l + 1], (dims[l + 1],)).to(device).clone())
            mods.append(nn.utils.skip_init(nn.Linear, dims[l], dims[l + 1], device=device))
            if not (linear_last and l == layers - 1):
                mods.append(nn.ReLU())
            # the module whose output is act[l + 1]
            self.ends.append(len(mods) - 1)
        self.model = nn.Sequential(*mods)
        self.linears = [m for m in mods if isinstance(m, nn.Linear)]
        self.model.train(self.training)
        # the input; in training it takes a gradient (dx[0]), as breakeven's
        # own training step computes it (workload_flops_per_layer)
        self.x = x0.to(device).clone().requires_grad_(self.training)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=self.lr) if self.training else None
        self.reset()

    def reset(self):
        """The parameters back to breakeven's; the next step is recorded
        for STAT."""
        with self.torch.no_grad():
            for lin, w, b in zip(self.linears, self.w0, self.b0):
                lin.weight.copy_(w)
                lin.bias.copy_(b)
        if self.opt is not None:
            self.opt.zero_grad(set_to_none=True)
        self.x.grad = None
        self.steps, self.acts, self.dx, self.y = 0, None, None, None
        self.sync()

    def step(self, record=False):
        self.sync()
        t0 = time.perf_counter()
        self.run_step(record)
        self.sync()
        return max(time.perf_counter() - t0, 1e-9)

    def run_step(self, record=False):
        """One step, not synchronised (tests/bench_torch times this too).
        With record, the step keeps every layer's output (and in training
        its gradient) for STAT: it calls the Sequential's modules in turn,
        as nn.Sequential.forward does, rather than model(x)."""
        t = self.torch
        self.steps += 1
        self.acts = None
        if self.training:
            self.opt.zero_grad(set_to_none=True)
            self.x.grad = None
            y = self.forward_kept() if record else self.model(self.x)
            loss = 0.5 * (y * y).sum()
            loss.backward()
            self.opt.step()
        else:
            with t.inference_mode():
                y = self.forward_kept() if record else self.model(self.x)
        self.y = y

    def forward_kept(self):
        """model(x), keeping act[0] … act[L] (and in training their
        gradients: dx[l] is act[l]'s)."""
        a, self.acts = self.x, [self.x]
        for i, m in enumerate(self.model):
            a = m(a)
            if i in self.ends:
                if self.training and len(self.acts) < self.L:
                    a.retain_grad()
                self.acts.append(a)
        return a

    def state(self):
        """act, dx, W, b of the last step: in training the one step since
        the last RSET (the one recorded; None after any other number); in
        inference any step, every one of which gives the same outputs from
        the same input and weights: the layers' outputs are walked again
        when the step kept none (model(x) as users call it), and the
        output is the step's own."""
        if self.steps < 1 or (self.training and (self.steps != 1 or self.acts is None)):
            return None
        if self.acts is None:
            with self.torch.inference_mode():
                self.forward_kept()
            self.acts[-1] = self.y
        parts = [a.detach() for a in self.acts]
        if self.training:
            parts += [a.grad for a in self.acts[:-1]]
            for lin in self.linears:
                parts += [lin.weight.detach().t(), lin.bias.detach()]
        out = bytearray()
        for p in parts:
            out += p.to("cpu").contiguous().numpy().tobytes()
        return bytes(out)


if __name__ == "__main__":
    main()
