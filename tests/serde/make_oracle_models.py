#!/usr/bin/python3
"""Writes models with initializers in every storage form python3-onnx knows, for the oracle
test: raw_data and the typed fields (float_data, int32_data, int64_data, double_data,
uint64_data), strings, a subgraph with its own initializer, a sparse initializer, metadata.
Usage: make_oracle_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(7)


def typed(name, data_type, values, dims):
    return helper.make_tensor(name, data_type, dims, values, raw=False)


inits = [
    numpy_helper.from_array(rng.standard_normal((4, 8)).astype(np.float32), "raw_f32"),
    typed("typed_f32", TensorProto.FLOAT, rng.standard_normal(32).astype(np.float32).tolist(), [32]),
    typed("typed_f64", TensorProto.DOUBLE, rng.standard_normal(20).tolist(), [20]),
    typed("typed_i64", TensorProto.INT64, list(range(-50, 50)), [100]),
    typed("typed_i32", TensorProto.INT32, list(range(-40, 40)), [80]),
    typed("typed_i8", TensorProto.INT8, [(-128 + i) % 256 - 128 for i in range(64)], [64]),
    typed("typed_u16", TensorProto.UINT16, list(range(0, 65536, 997)), [66]),
    typed("typed_f16", TensorProto.FLOAT16, np.arange(24, dtype=np.float16).tolist(), [24]),
    typed("typed_bool", TensorProto.BOOL, [i % 3 == 0 for i in range(40)], [40]),
    typed("typed_u32", TensorProto.UINT32, list(range(0, 4000000000, 97000000)), [42]),
    typed("typed_u64", TensorProto.UINT64, [2**63 + i for i in range(10)], [10]),
    helper.make_tensor("strings", TensorProto.STRING, [3], [b"a", b"bc", b"def"]),
    numpy_helper.from_array(np.arange(5000, dtype=np.float32), "big"),
]
sparse = helper.make_sparse_tensor(
    numpy_helper.from_array(np.array([1.5, 2.5], dtype=np.float32), "sparse_w"),
    numpy_helper.from_array(np.array([1, 7], dtype=np.int64), "sparse_w_idx"), [10])

then_graph = helper.make_graph(
    [helper.make_node("Add", ["x", "then_bias"], ["then_out"])], "then",
    [], [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [32])],
    [numpy_helper.from_array(np.ones(32, dtype=np.float32) * 3, "then_bias")])
else_graph = helper.make_graph(
    [helper.make_node("Identity", ["x"], ["else_out"])], "else",
    [], [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [32])])
nodes = [
    helper.make_node("Add", ["x", "typed_f32"], ["y"], name="add"),
    helper.make_node("Constant", [], ["cond"], value=helper.make_tensor("c", TensorProto.BOOL, [], [True])),
    helper.make_node("If", ["cond"], ["z"], then_branch=then_graph, else_branch=else_graph),
]
graph = helper.make_graph(
    nodes, "storage_forms", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [32])],
    inits, sparse_initializer=[sparse])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="onyx-tests")
model.ir_version = 8
helper.set_model_props(model, {"purpose": "oracle", "empty": ""})
onnx.save(model, os.path.join(out, "storage_forms.onnx"))
