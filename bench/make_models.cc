// onyx_make_bench_models — writes the models the load/save benchmark reads.
//
//   onyx_make_bench_models [FOLDER] [--force]
//
// FOLDER (default build/bench-models) receives:
//   graph200k.onnx        200,000 nodes in residual blocks (Conv, Relu, Add, MatMul, Mul,
//                         Softmax, Gemm, LayerNormalization) with names, int/ints/float
//                         attributes, a group of small initializers every 50 nodes and
//                         value_info for the block outputs; IR 8, opset 17.
//   graph5k/10k/20k.onnx  the first 5,000 / 10,000 / 20,000 nodes of the same graph, for
//                         onnx::ImportModelProto, which is too slow for 200,000 nodes.
//   weights1200m.onnx     300 float initializers of 4,000,000 bytes (1.2 GB) in raw_data,
//                         used by a chain of 300 MatMul + 300 Relu.
//   weights1200m_ext.onnx the same model with its weights in weights1200m_ext.bin
//   + weights1200m_ext.bin (written by onyx::saveModel, external_threshold 1024).
//   weights12m.onnx       the same graph with 100x smaller weights (40,000 bytes each), to
//                         show that load time does not depend on the weight bytes.
// The protobuf files are written by libprotobuf (onnx::ModelProto), as an exporter would.
// Existing files are kept unless --force is given. Everything is generated.
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "onnx/onnx_pb.h"
#include "onyx/serde/model_io.h"

namespace {

constexpr int kGraphBlocks = 20000;  // 10 nodes per block: 200,000 nodes
constexpr int kBlocksPerGroup = 5;   // a new group of small initializers every 50 nodes
constexpr int kWeightTensors = 300;

bool fileExists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

/// Deterministic pseudo-random floats in [-1, 1), as little-endian bytes.
class FloatSource {
 public:
  std::string bytes(size_t count) {
    std::string out(count * sizeof(float), '\0');
    char* at = out.data();
    for (size_t i = 0; i < count; ++i) {
      state_ ^= state_ << 13;
      state_ ^= state_ >> 7;
      state_ ^= state_ << 17;
      float value = static_cast<float>(state_ >> 40) * (2.0f / 16777216.0f) - 1.0f;
      std::memcpy(at + i * sizeof(float), &value, sizeof(float));
    }
    return out;
  }

 private:
  uint64_t state_ = 0x9e3779b97f4a7c15ull;
};

void setFloatType(onnx::TypeProto* type, std::initializer_list<int64_t> dims,
                  const char* symbolic_dim = nullptr, int symbolic_at = -1) {
  onnx::TypeProto_Tensor* tensor = type->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto_DataType_FLOAT);
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  int index = 0;
  for (int64_t dim : dims) {
    onnx::TensorShapeProto_Dimension* d = shape->add_dim();
    if (index++ == symbolic_at) {
      d->set_dim_param(symbolic_dim);
    } else {
      d->set_dim_value(dim);
    }
  }
}

void addRawInitializer(onnx::GraphProto* graph, FloatSource& source, const std::string& name,
                       std::initializer_list<int64_t> dims) {
  onnx::TensorProto* tensor = graph->add_initializer();
  size_t count = 1;
  for (int64_t dim : dims) {
    tensor->add_dims(dim);
    count *= static_cast<size_t>(dim);
  }
  tensor->set_data_type(onnx::TensorProto_DataType_FLOAT);
  tensor->set_name(name);
  tensor->set_raw_data(source.bytes(count));
}

void addInts(onnx::NodeProto* node, const char* name, std::initializer_list<int64_t> values) {
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto_AttributeType_INTS);
  for (int64_t value : values) attribute->add_ints(value);
}

void addInt(onnx::NodeProto* node, const char* name, int64_t value) {
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto_AttributeType_INT);
  attribute->set_i(value);
}

void addFloat(onnx::NodeProto* node, const char* name, float value) {
  onnx::AttributeProto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto_AttributeType_FLOAT);
  attribute->set_f(value);
}

void startModel(onnx::ModelProto& model, const char* graph_name) {
  model.set_ir_version(8);
  model.set_producer_name("onyx_make_bench_models");
  model.set_producer_version("1");
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(17);
  model.mutable_graph()->set_name(graph_name);
}

/// One block of 10 nodes reading `x`; returns the name of its output.
class GraphBuilder {
 public:
  explicit GraphBuilder(onnx::GraphProto* graph) : graph_(graph) {}

  std::string block(int b, const std::string& x) {
    std::string group = "layers." + std::to_string(b / kBlocksPerGroup * kBlocksPerGroup);
    if (b % kBlocksPerGroup == 0) addGroupInitializers(group);
    std::string prefix = "/model/layers." + std::to_string(b) + "/";

    std::string c1 = node(prefix + "conv1/Conv", "Conv",
                          {x, group + ".conv1.weight", group + ".conv1.bias"}, [](auto* n) {
                            addInts(n, "dilations", {1, 1});
                            addInt(n, "group", 1);
                            addInts(n, "kernel_shape", {3, 3});
                            addInts(n, "pads", {1, 1, 1, 1});
                            addInts(n, "strides", {1, 1});
                          });
    std::string r1 = node(prefix + "act1/Relu", "Relu", {c1});
    std::string c2 =
        node(prefix + "conv2/Conv", "Conv", {r1, group + ".conv2.weight"}, [](auto* n) {
          addInts(n, "kernel_shape", {1, 1});
          addInts(n, "strides", {1, 1});
        });
    std::string a1 = node(prefix + "residual1/Add", "Add", {c2, x});
    valueInfo(a1);
    std::string r2 = node(prefix + "act2/Relu", "Relu", {a1});
    std::string m1 = node(prefix + "proj/MatMul", "MatMul", {r2, group + ".proj.weight"});
    std::string m2 = b % 2 == 0 ? node(prefix + "scale/Mul", "Mul", {m1, group + ".scale"})
                                : node(prefix + "softmax/Softmax", "Softmax", {m1},
                                       [](auto* n) { addInt(n, "axis", -1); });
    std::string a2 = node(prefix + "bias/Add", "Add", {m2, group + ".bias"});
    std::string g;
    if (b % 3 == 0) {
      g = node(prefix + "norm/LayerNormalization", "LayerNormalization",
               {a2, group + ".norm.weight", group + ".norm.bias"}, [](auto* n) {
                 addInt(n, "axis", -1);
                 addFloat(n, "epsilon", 1e-5f);
               });
    } else {
      g = node(prefix + "fc/Gemm", "Gemm", {a2, group + ".fc.weight", group + ".fc.bias"},
               [](auto* n) {
                 addFloat(n, "alpha", 1.0f);
                 addFloat(n, "beta", 1.0f);
                 addInt(n, "transB", 1);
               });
    }
    std::string out = node(prefix + "residual2/Add", "Add", {g, r2});
    valueInfo(out);
    return out;
  }

 private:
  template <class Attributes = void (*)(onnx::NodeProto*)>
  std::string node(
      const std::string& name, const char* op_type, std::initializer_list<std::string> inputs,
      Attributes attributes = [](onnx::NodeProto*) {}) {
    onnx::NodeProto* n = graph_->add_node();
    for (const std::string& input : inputs) n->add_input(input);
    std::string output = name + "_output_0";
    n->add_output(output);
    n->set_name(name);
    n->set_op_type(op_type);
    attributes(n);
    return output;
  }

  void valueInfo(const std::string& name) {
    onnx::ValueInfoProto* info = graph_->add_value_info();
    info->set_name(name);
    setFloatType(info->mutable_type(), {1, 0, 8}, "sequence_length", 1);
  }

  void addGroupInitializers(const std::string& group) {
    addRawInitializer(graph_, source_, group + ".conv1.weight", {4, 4, 3, 3});
    addRawInitializer(graph_, source_, group + ".conv1.bias", {4});
    addRawInitializer(graph_, source_, group + ".conv2.weight", {4, 4, 1, 1});
    addRawInitializer(graph_, source_, group + ".proj.weight", {8, 8});
    // A scalar in float_data (the typed field), as some exporters write small constants.
    onnx::TensorProto* scale = graph_->add_initializer();
    scale->set_data_type(onnx::TensorProto_DataType_FLOAT);
    scale->set_name(group + ".scale");
    scale->add_float_data(0.125f);
    addRawInitializer(graph_, source_, group + ".bias", {8});
    addRawInitializer(graph_, source_, group + ".fc.weight", {8, 8});
    addRawInitializer(graph_, source_, group + ".fc.bias", {8});
    addRawInitializer(graph_, source_, group + ".norm.weight", {8});
    addRawInitializer(graph_, source_, group + ".norm.bias", {8});
  }

  onnx::GraphProto* graph_;
  FloatSource source_;
};

bool writeProto(const onnx::ModelProto& model, const std::string& path) {
  std::string temp = path + ".partial";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out || !model.SerializeToOstream(&out)) {
      std::cerr << "cannot write " << temp << "\n";
      return false;
    }
    out.close();
    if (!out) {
      std::cerr << "cannot write " << temp << "\n";
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::perror(path.c_str());
    return false;
  }
  return true;
}

bool makeGraph(const std::string& path, int blocks, const char* graph_name) {
  onnx::ModelProto model;
  startModel(model, graph_name);
  onnx::GraphProto* graph = model.mutable_graph();
  onnx::ValueInfoProto* input = graph->add_input();
  input->set_name("input");
  setFloatType(input->mutable_type(), {1, 0, 8}, "sequence_length", 1);
  GraphBuilder builder(graph);
  std::string x = "input";
  for (int b = 0; b < blocks; ++b) x = builder.block(b, x);
  onnx::ValueInfoProto* output = graph->add_output();
  output->set_name(x);
  setFloatType(output->mutable_type(), {1, 0, 8}, "sequence_length", 1);
  return writeProto(model, path);
}

bool makeWeights(const std::string& path, int64_t side, const char* graph_name) {
  onnx::ModelProto model;
  startModel(model, graph_name);
  onnx::GraphProto* graph = model.mutable_graph();
  onnx::ValueInfoProto* input = graph->add_input();
  input->set_name("x");
  setFloatType(input->mutable_type(), {1, side});
  FloatSource source;
  std::string h = "x";
  for (int i = 0; i < kWeightTensors; ++i) {
    std::string weight = "layers." + std::to_string(i) + ".weight";
    addRawInitializer(graph, source, weight, {side, side});
    std::string prefix = "/layers." + std::to_string(i) + "/";
    onnx::NodeProto* matmul = graph->add_node();
    matmul->add_input(h);
    matmul->add_input(weight);
    matmul->add_output(prefix + "MatMul_output_0");
    matmul->set_name(prefix + "MatMul");
    matmul->set_op_type("MatMul");
    onnx::NodeProto* relu = graph->add_node();
    relu->add_input(prefix + "MatMul_output_0");
    relu->add_output(prefix + "Relu_output_0");
    relu->set_name(prefix + "Relu");
    relu->set_op_type("Relu");
    h = prefix + "Relu_output_0";
  }
  onnx::ValueInfoProto* output = graph->add_output();
  output->set_name(h);
  setFloatType(output->mutable_type(), {1, side});
  return writeProto(model, path);
}

bool makeExternal(const std::string& inline_path, const std::string& path,
                  const std::string& data_file) {
  auto model = onyx::loadModel(inline_path);
  if (!model) {
    std::cerr << model.status().toString() << "\n";
    return false;
  }
  onyx::SaveOptions options;
  options.external_threshold = 1024;
  options.external_file = data_file;
  onyx::Status saved = onyx::saveModel(*model, path, options);
  if (!saved) {
    std::cerr << saved.toString() << "\n";
    return false;
  }
  return true;
}

/// Loads `path` with onyx as a check of what was written, and prints what it holds.
bool describe(const std::string& path) {
  auto model = onyx::loadModel(path);
  if (!model) {
    std::cerr << path << ": " << model.status().toString() << "\n";
    return false;
  }
  struct stat info;
  ::stat(path.c_str(), &info);
  std::cout << path << ": " << info.st_size << " bytes, " << model->graph->nodeCount() << " nodes, "
            << model->graph->initializers.size() << " initializers, "
            << model->graph->value_info.size() << " value_info\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string folder = "build/bench-models";
  bool force = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--force") {
      force = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "usage: onyx_make_bench_models [FOLDER] [--force]\n";
      return 2;
    } else {
      folder = arg;
    }
  }
  ::mkdir(folder.c_str(), 0755);
  GOOGLE_PROTOBUF_VERIFY_VERSION;

  auto need = [&](const std::string& name) {
    bool make = force || !fileExists(folder + "/" + name);
    if (make) std::cout << "writing " << folder << "/" << name << "\n" << std::flush;
    return make;
  };
  bool ok = true;
  if (ok && need("graph200k.onnx")) {
    ok = makeGraph(folder + "/graph200k.onnx", kGraphBlocks, "graph200k");
  }
  // Smaller graphs of the same blocks, for onnx::ImportModelProto, whose time grows with
  // the square of the node count (onnx::Graph::isNameUnique scans every node).
  for (int k : {5, 10, 20}) {
    std::string name = "graph" + std::to_string(k) + "k";
    if (ok && need(name + ".onnx")) {
      ok = makeGraph(folder + "/" + name + ".onnx", k * 100, name.c_str());
    }
  }
  if (ok && need("weights1200m.onnx")) {
    ok = makeWeights(folder + "/weights1200m.onnx", 1000, "weights1200m");
  }
  if (ok && (need("weights1200m_ext.onnx") || !fileExists(folder + "/weights1200m_ext.bin"))) {
    ok = makeExternal(folder + "/weights1200m.onnx", folder + "/weights1200m_ext.onnx",
                      "weights1200m_ext.bin");
  }
  if (ok && need("weights12m.onnx")) {
    ok = makeWeights(folder + "/weights12m.onnx", 100, "weights12m");
  }
  for (const char* name : {"graph200k.onnx", "graph5k.onnx", "graph10k.onnx", "graph20k.onnx",
                           "weights1200m.onnx", "weights1200m_ext.onnx", "weights12m.onnx"}) {
    if (ok) ok = describe(folder + "/" + name);
  }
  google::protobuf::ShutdownProtobufLibrary();
  return ok ? 0 : 1;
}
