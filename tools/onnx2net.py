#!/usr/bin/python3
"""onnx2net.py MODEL.onnx: the breakeven --net line of a chain of dense layers.

Reads an ONNX model with Debian's python3-onnx and prints `--net SIZES`
(layer sizes from input to output, as `breakeven run --net` takes them)
when the graph is a chain of dense layers: Gemm, or MatMul followed by an
Add of a bias, each optionally followed by Relu.  The sizes come from the
weights' shapes (the graph's initializers), so no input shape is needed.
Anything else gets one line naming the first node that is not supported,
and exit status 2; a file that is not an ONNX model gets exit status 2 too.

breakeven puts ReLU between layers and none after the last; where the model
differs (no Relu between two layers, or one after the last), a note on
stderr says so, since the time of an elementwise pass is not the question.
"""
import sys

SUPPORTED = "Gemm, MatMul, Add (a bias after MatMul) and Relu"


def fail(msg):
    sys.stderr.write("onnx2net: %s\n" % msg)
    sys.exit(2)


def attr(node, name, default):
    import onnx.helper

    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def describe(i, node):
    return 'node %d "%s"%s' % (i, node.op_type, " (%s)" % node.name if node.name else "")


def layers_of(path):
    import warnings

    import onnx

    try:
        with warnings.catch_warnings():  # protobuf warns on bad bytes before it fails
            warnings.simplefilter("ignore")
            model = onnx.load(path)
    except Exception as exc:  # the library raises many kinds on bad input
        fail("%s: not an ONNX model (%s)" % (path, str(exc).splitlines()[0][:200]))
    weights = {t.name: list(t.dims) for t in model.graph.initializer}
    layers = []  # [k, n, relu]
    pending = None  # a MatMul waiting for its bias
    for i, node in enumerate(model.graph.node):
        op = node.op_type
        if op == "Gemm":
            if attr(node, "transA", 0):
                fail("%s: %s has transA=1, which is not a dense layer on its input"
                     % (path, describe(i, node)))
            shape = weights.get(node.input[1]) if len(node.input) > 1 else None
            if not shape or len(shape) != 2:
                fail("%s: %s: its weights are not a 2-D initializer" % (path, describe(i, node)))
            k, n = (shape[1], shape[0]) if attr(node, "transB", 0) else (shape[0], shape[1])
            layers.append([k, n, False])
            pending = None
        elif op == "MatMul":
            shape = weights.get(node.input[1]) if len(node.input) > 1 else None
            if not shape or len(shape) != 2:
                fail("%s: %s: its second input is not a 2-D initializer (weights)"
                     % (path, describe(i, node)))
            layers.append([shape[0], shape[1], False])
            pending = node.output[0]
        elif op == "Add" and pending is not None and pending in node.input:
            other = [x for x in node.input if x != pending]
            shape = weights.get(other[0]) if other else None
            if not shape or shape[-1] != layers[-1][1] or any(d != 1 for d in shape[:-1]):
                fail("%s: %s is not the bias of the MatMul before it" % (path, describe(i, node)))
            pending = None
        elif op == "Relu" and layers and not layers[-1][2]:
            layers[-1][2] = True
            pending = None
        else:
            fail("%s: %s is not supported (only %s)" % (path, describe(i, node), SUPPORTED))
    if not layers:
        fail("%s: no dense layer in the graph" % path)
    for j in range(1, len(layers)):
        if layers[j][0] != layers[j - 1][1]:
            fail("%s: layer %d has %d inputs but layer %d has %d outputs: not a chain"
                 % (path, j + 1, layers[j][0], j, layers[j - 1][1]))
    return layers


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write("usage: onnx2net.py MODEL.onnx\n")
        return 2
    layers = layers_of(argv[1])
    for j, (k, n, relu) in enumerate(layers):
        last = j == len(layers) - 1
        if not relu and not last:
            sys.stderr.write("onnx2net: note: no Relu after layer %d (%dx%d); breakeven puts one "
                             "there\n" % (j + 1, k, n))
        if relu and last:
            sys.stderr.write("onnx2net: note: a Relu after the last layer; breakeven puts none "
                             "there\n")
    sizes = [layers[0][0]] + [n for _, n, _ in layers]
    if any(s < 1 or s > 65536 for s in sizes):
        fail("%s: a size outside breakeven's 1..65536: %s"
             % (argv[1], "-".join(str(s) for s in sizes)))
    print("--net " + "-".join(str(s) for s in sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
