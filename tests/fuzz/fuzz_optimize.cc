// fuzz_optimize — the optimiser, differentially: the bytes describe a valid model (built in
// the text syntax from a small grammar of the nodes the default passes act on: no-ops,
// duplicates, constants, Shape scaffolds, Transpose and Reshape pairs, dead nodes), which
// runs on inputs the bytes also give. Optimised with the default passes (folding through the
// evaluator's kernels, the model verified after every pass), it must pass the checker, give
// the same outputs bit for bit (none of these nodes is fused, so folding computes with the
// kernels a run uses), and optimise again to the same bytes after a write and a read.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/passes/optimize.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_optimize: %s\n  %s\n", what, detail.c_str());
  __builtin_trap();
}

// Reads the fuzzer's bytes front to back; zeros once they run out.
class Bytes {
 public:
  explicit Bytes(std::string_view bytes) : bytes_(bytes) {}
  uint8_t next() { return at_ < bytes_.size() ? static_cast<uint8_t>(bytes_[at_++]) : 0; }
  bool done() const { return at_ >= bytes_.size(); }
  // A small float, exact in binary, of either sign.
  float number() { return static_cast<float>(static_cast<int>(next()) - 128) / 16.0f; }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

// Every value is float, of shape [2,3] (`wide`) or [3,2].
struct Defined {
  std::string name;
  bool wide;
};

class ModelWriter {
 public:
  explicit ModelWriter(Bytes& bytes) : bytes_(bytes) {
    values_.push_back({"x", true});
    values_.push_back({"y", true});
  }

  std::string write() {
    size_t nodes = 1 + bytes_.next() % 24;
    for (size_t i = 0; i < nodes; ++i) addNode();
    // The last value and up to two more, each once, are the outputs.
    std::vector<size_t> outputs;
    for (size_t i = values_.size(); i-- > 2 && outputs.size() < 3;) {
      if (outputs.empty() || bytes_.next() % 3 == 0) outputs.push_back(i);
    }
    if (outputs.empty()) {
      line(fresh(true), "Identity(x)");
      outputs.push_back(values_.size() - 1);
    }
    std::string text =
        "<ir_version: 8, opset_import: [\"\" : 13]>\ng (float[2,3] x, float[2,3] y) => (";
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Defined& output = values_[outputs[i]];
      text += (i > 0 ? ", " : "") + std::string(output.wide ? "float[2,3] " : "float[3,2] ") +
              output.name;
    }
    return text + ") {\n" + body_ + "}\n";
  }

 private:
  const Defined& pick() { return values_[bytes_.next() % values_.size()]; }
  // A value of the same shape as `like`, or `like` itself when none other has it.
  const Defined& pickLike(const Defined& like) {
    size_t start = bytes_.next() % values_.size();
    for (size_t k = 0; k < values_.size(); ++k) {
      const Defined& candidate = values_[(start + k) % values_.size()];
      if (candidate.wide == like.wide) return candidate;
    }
    return like;
  }
  std::string fresh(bool wide) {
    std::string name = "v" + std::to_string(values_.size());
    values_.push_back({name, wide});
    return name;
  }
  void line(const std::string& output, const std::string& call) {
    body_ += "  " + output + " = " + call + "\n";
  }
  std::string shapeConstant(bool wide) {
    std::string name = "s" + std::to_string(constants_++);
    line(name, std::string("Constant <value = int64[2] {") + (wide ? "2, 3" : "3, 2") + "}> ()");
    return name;
  }
  std::string axesConstant() {
    std::string name = "a" + std::to_string(constants_++);
    line(name, "Constant <value = int64[1] {0}> ()");
    return name;
  }
  std::string floatConstant(bool wide) {
    std::string name = "c" + std::to_string(constants_++);
    std::string elements;
    for (int i = 0; i < 6; ++i) elements += (i > 0 ? ", " : "") + std::to_string(bytes_.number());
    line(name, std::string("Constant <value = float[") + (wide ? "2,3" : "3,2") + "] {" + elements +
                   "}> ()");
    values_.push_back({name, wide});
    return name;
  }

  // The operands are named before the result is defined, so no node reads its own output.
  void unary(const char* op, const Defined& a) {
    std::string call = std::string(op) + "(" + a.name + ")";
    line(fresh(a.wide), call);
  }
  void binary(const char* op, const Defined& a) {
    std::string call = std::string(op) + "(" + a.name + ", " + pickLike(a).name + ")";
    line(fresh(a.wide), call);
  }

  void addNode() {
    Defined a = pick();
    std::string in = a.name;
    switch (bytes_.next() % 20) {
      case 0: unary("Identity", a); break;
      case 1: unary("Relu", a); break;
      case 2: unary("Neg", a); break;
      case 3: unary("Abs", a); break;
      case 4: binary("Add", a); break;
      case 5: binary("Mul", a); break;
      case 6: binary("Sub", a); break;
      case 7: binary("Max", a); break;
      case 8: floatConstant(bytes_.next() % 2 == 0); break;
      case 9: {
        std::string scalar = "k" + std::to_string(constants_++);
        line(scalar, "Constant <value_float = " + std::to_string(bytes_.number()) + "> ()");
        line(fresh(a.wide), "Add(" + in + ", " + scalar + ")");
        break;
      }
      case 10: line(fresh(!a.wide), "Transpose <perm = [1, 0]> (" + in + ")"); break;
      case 11: {
        bool to_wide = bytes_.next() % 2 == 0;
        std::string shape = shapeConstant(to_wide);
        line(fresh(to_wide), "Reshape(" + in + ", " + shape + ")");
        break;
      }
      case 12: line(fresh(a.wide), "Cast <to = 1> (" + in + ")"); break;
      case 13: line(fresh(a.wide), "Dropout(" + in + ")"); break;
      case 14: {
        std::string axes = axesConstant();
        std::string up = "u" + std::to_string(constants_++);
        line(up, "Unsqueeze(" + in + ", " + axes + ")");
        line(fresh(a.wide), "Squeeze(" + up + ", " + axes + ")");
        break;
      }
      case 15: {
        std::string shape = "h" + std::to_string(constants_++);
        line(shape, "Shape(" + pickLike(a).name + ")");
        line(fresh(a.wide), "Expand(" + in + ", " + shape + ")");
        break;
      }
      case 16: {
        std::string shape = "h" + std::to_string(constants_++);
        line(shape, "Shape(" + in + ")");
        line(fresh(a.wide), "ConstantOfShape <value = float[1] {" +
                                std::to_string(bytes_.number()) + "}> (" + shape + ")");
        break;
      }
      case 17: unary("Sigmoid", a); break;
      case 18: {
        // The same product twice, then their sum: a duplicate to merge.
        std::string other = pickLike(a).name;
        std::string first = fresh(a.wide);
        line(first, "Mul(" + in + ", " + other + ")");
        std::string second = fresh(a.wide);
        line(second, "Mul(" + in + ", " + other + ")");
        line(fresh(a.wide), "Add(" + first + ", " + second + ")");
        break;
      }
      default: {
        std::string constant = floatConstant(a.wide);
        line(fresh(a.wide), "Identity(" + constant + ")");
        break;
      }
    }
  }

  Bytes& bytes_;
  std::vector<Defined> values_;
  std::string body_;
  size_t constants_ = 0;
};

std::vector<NamedValue> inputsFrom(Bytes& bytes) {
  std::vector<NamedValue> inputs;
  for (const char* name : {"x", "y"}) {
    Array array(ElementType::kFloat, {2, 3});
    for (size_t i = 0; i < 6; ++i) array.data<float>()[i] = bytes.number();
    inputs.push_back({name, EvalValue::of(std::move(array))});
  }
  return inputs;
}

bool sameBits(const Array& a, const Array& b) {
  if (a.type() != ElementType::kFloat || b.type() != ElementType::kFloat) return false;
  if (a.shape() != b.shape()) return false;
  return std::memcmp(a.data<float>(), b.data<float>(), a.size() * sizeof(float)) == 0;
}

std::string optimizedBytes(Model& model, const std::string& text) {
  KernelNodeEvaluator node_evaluator;
  OptimizeOptions options;
  options.node_evaluator = &node_evaluator;
  options.manager.verify = true;
  if (Result<OptimizeReport> done = optimize(model, options); !done) {
    broken("optimize failed", done.status().toString() + "\n" + text);
  }
  Result<std::string> bytes = serializeModel(model);
  if (!bytes) broken("the optimised model does not serialize", bytes.status().toString());
  return *bytes;
}

void run(std::string_view data) {
  Bytes bytes(data);
  std::vector<NamedValue> inputs = inputsFrom(bytes);
  std::string text = ModelWriter(bytes).write();
  Result<Model> model = parseText(text);
  if (!model) broken("the generated text does not parse", model.status().toString() + "\n" + text);
  Result<std::vector<EvalValue>> before = evaluate(*model, inputs);
  if (!before) broken("the generated model does not run", before.status().toString() + "\n" + text);

  std::string once = optimizedBytes(*model, text);
  Diagnostics diagnostics = checkModel(*model);
  if (diagnostics.errorCount() > 0) {
    broken("the optimised model fails the checker", diagnostics.all()[0].toString() + "\n" + text);
  }
  Result<std::vector<EvalValue>> after = evaluate(*model, inputs);
  if (!after) broken("the optimised model does not run", after.status().toString() + "\n" + text);
  if (after->size() != before->size()) broken("the outputs changed in number", text);
  for (size_t i = 0; i < before->size(); ++i) {
    if (!sameBits((*before)[i].tensor, (*after)[i].tensor)) {
      broken("an output changed", "output " + std::to_string(i) + "\n" + text);
    }
  }

  Result<Model> reread = parseModel(once, nullptr);
  if (!reread) broken("the optimised model does not read back", reread.status().toString());
  if (optimizedBytes(*reread, text) != once) {
    broken("optimising the written model again changes it", text);
  }
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
