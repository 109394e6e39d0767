#!/usr/bin/node
// ort_adapter.js — ONNX Runtime as a breakeven device (docs/devices.md,
// protocol 1), inference only.
//
// breakeven starts it as `node ort_adapter.js cpu --fd 3` and keeps it for
// the whole run.  For each point it builds the layer stack as an ONNX graph
// (Gemm, then Relu unless linear_last on the last layer) from the sizes and
// weights it is given, the weights as the graph's initializers, and opens
// an InferenceSession on it; a step is one session.run on the input, timed
// here.  onnxruntime-node comes from npm (`npm install --ignore-scripts
// onnxruntime-node`: its install script fetches GPU parts, which the CPU
// does not need), found beside this file or on NODE_PATH.
"use strict";
const net = require("net");

const PROTOCOL = 1;
// the most steps one STPN may ask for (docs/devices.md)
const STEPS_MAX = 64;

// ---- a minimal protobuf writer, for onnx.proto's ModelProto -------------

function varint(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => Buffer.concat([key(field, 0), varint(n)]);
const bytes = (field, buf) => Buffer.concat([key(field, 2), varint(buf.length), buf]);
const str = (field, s) => bytes(field, Buffer.from(s, "utf8"));
const msg = (field, parts) => bytes(field, Buffer.concat(parts));

const FLOAT = 1; // TensorProto.DataType

function tensor(name, dims, raw) {
  // TensorProto: dims 1, data_type 2, name 8, raw_data 9
  return [...dims.map((d) => int(1, d)), int(2, FLOAT), str(8, name), bytes(9, raw)];
}

function valueInfo(field, name, dims) {
  // ValueInfoProto { name 1, type 2 { tensor_type 1 { elem_type 1, shape 2 { dim 1 { dim_value 1 } } } } }
  const shape = dims.map((d) => msg(1, [int(1, d)]));
  return msg(field, [str(1, name), msg(2, [msg(1, [int(1, FLOAT), msg(2, shape)])])]);
}

function node(inputs, outputs, op) {
  // NodeProto: input 1, output 2, op_type 4
  return msg(1, [...inputs.map((s) => str(1, s)), ...outputs.map((s) => str(2, s)), str(4, op)]);
}

// The model of one point: input x (batch × d0), outputs a1 … aL.
function model(w) {
  const g = [str(2, "breakeven")];
  let a = "x";
  for (let l = 0; l < w.L; l++) {
    const y = "y" + (l + 1), out = "a" + (l + 1);
    g.push(msg(5, tensor("W" + l, [w.dims[l], w.dims[l + 1]], w.W[l])));
    g.push(msg(5, tensor("b" + l, [w.dims[l + 1]], w.b[l])));
    if (w.relu[l]) {
      g.push(node([a, "W" + l, "b" + l], [y], "Gemm"));
      g.push(node([y], [out], "Relu"));
    } else {
      g.push(node([a, "W" + l, "b" + l], [out], "Gemm"));
    }
    a = out;
  }
  g.push(valueInfo(11, "x", [w.batch, w.dims[0]]));
  for (let l = 1; l <= w.L; l++) g.push(valueInfo(12, "a" + l, [w.batch, w.dims[l]]));
  // ModelProto: ir_version 1, opset_import 8 { version 2 }, producer_name 2, graph 7
  return Buffer.concat([int(1, 8), msg(8, [int(2, 17)]), str(2, "breakeven"), msg(7, g)]);
}

// ---- the protocol --------------------------------------------------------

function header(type, len) {
  const h = Buffer.alloc(16);
  h.write("BEDP", 0, "ascii");
  h.write(type, 4, "ascii");
  h.writeBigUInt64LE(BigInt(len), 8);
  return h;
}

function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf("--fd");
  const fd = i >= 0 ? Number(args[i + 1]) : 3;
  const sock = new net.Socket({ fd, readable: true, writable: true });
  const send = (type, payload = Buffer.alloc(0)) => {
    sock.write(Buffer.concat([header(type, payload.length), payload]));
  };
  const fail = (cls, text) => send("FAIL", Buffer.from(cls + " " + text + "\n"));
  let ort = null, threads = 1, point = null;
  let buf = Buffer.alloc(0), busy = false;

  async function handle(type, payload) {
    if (type === "HELO") {
      const req = payload.toString("utf8");
      const m = /^threads (\d+)$/m.exec(req);
      threads = m ? Number(m[1]) : 1;
      ort = require("onnxruntime-node"); // a missing package ends the adapter with its error
      const version = require("onnxruntime-node/package.json").version;
      send("HELO", Buffer.from([
        "protocol " + PROTOCOL, "name ONNX Runtime CPU", "framework ONNX Runtime",
        "framework-version " + version, "type CPU", "vendor Microsoft",
        "library ONNX Runtime " + version + " (CPU execution provider, MLAS)",
        "devices cpu", "steps " + STEPS_MAX, "prop ort-threads " + threads,
        "prop node " + process.version,
      ].join("\n") + "\n"));
    } else if (type === "PREP") {
      const [mode, L, batch, linearLast] = [0, 4, 8, 12].map((o) => payload.readInt32LE(o));
      if (mode !== 0) return fail("error", "ONNX Runtime's adapter measures inference only");
      const dims = [];
      for (let l = 0; l <= L; l++) dims.push(payload.readInt32LE(24 + 4 * l));
      let off = 24 + 4 * (L + 1);
      const take = (n) => { const b = payload.subarray(off, off + 4 * n); off += 4 * n; return b; };
      const w = { L, batch, dims, W: [], b: [], relu: [] };
      const x = take(batch * dims[0]);
      for (let l = 0; l < L; l++) {
        w.W.push(take(dims[l] * dims[l + 1]));
        w.b.push(take(dims[l + 1]));
        w.relu.push(!(linearLast && l === L - 1));
      }
      const session = await ort.InferenceSession.create(model(w), {
        executionProviders: ["cpu"], intraOpNumThreads: threads, interOpNumThreads: 1,
        graphOptimizationLevel: "all",
      });
      const xf = new Float32Array(x.buffer.slice(x.byteOffset, x.byteOffset + x.length));
      point = { session, feeds: { x: new ort.Tensor("float32", xf, [batch, dims[0]]) }, x, L, out: null };
      send("OKAY");
    } else if (type === "RSET") {
      point.out = null; // inference changes nothing
      send("OKAY");
    } else if (type === "STEP" || type === "STPN") {
      // STPN: several steps back to back, each timed as STEP's
      const k = type === "STPN" ? payload.readUInt32LE(0) : 1;
      if (k < 1 || k > STEPS_MAX) throw new Error("STPN of " + k + " steps");
      const t = Buffer.alloc(48 * k);
      for (let j = 0; j < k; j++) {
        const t0 = process.hrtime.bigint();
        point.out = await point.session.run(point.feeds);
        const wall = Number(process.hrtime.bigint() - t0) / 1e9;
        [Math.max(wall, 1e-9), -1, -1, -1, -1, -1].forEach((v, i) => t.writeDoubleLE(v, 48 * j + 8 * i));
      }
      send(type === "STPN" ? "TIMS" : "TIME", t);
    } else if (type === "STAT") {
      const parts = [point.x];
      for (let l = 1; l <= point.L; l++) {
        const d = point.out["a" + l].data;
        parts.push(Buffer.from(d.buffer, d.byteOffset, d.byteLength));
      }
      send("DATA", Buffer.concat(parts));
    } else if (type === "RELS") {
      if (point) await point.session.release();
      point = null;
      send("OKAY");
    } else if (type === "BYE!") {
      process.exit(0);
    } else {
      console.error("unknown message " + type);
      process.exit(1);
    }
  }

  async function pump() {
    if (busy) return;
    busy = true;
    while (buf.length >= 16) {
      if (buf.toString("ascii", 0, 4) !== "BEDP") {
        console.error("not the protocol");
        process.exit(1);
      }
      const n = Number(buf.readBigUInt64LE(8));
      if (buf.length < 16 + n) break;
      const type = buf.toString("ascii", 4, 8), payload = buf.subarray(16, 16 + n);
      buf = buf.subarray(16 + n);
      try {
        await handle(type, payload);
      } catch (e) {
        if (type === "HELO") throw e;
        const text = String(e && e.message ? e.message : e).split("\n")[0].slice(0, 300);
        fail(/memory|alloc/i.test(text) ? "oom" : "error", text);
      }
    }
    busy = false;
  }

  sock.on("data", (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    pump().catch((e) => {
      console.error(String(e && e.message ? e.message : e).split("\n")[0]);
      process.exit(1);
    });
  });
  sock.on("end", () => process.exit(0)); // breakeven went away
  sock.on("error", () => process.exit(0));
}

main();
