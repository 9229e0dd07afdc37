// fuzz_optimize — the optimiser, differentially: the bytes describe a valid model (built in
// the text syntax from a grammar of what the default passes act on: no-ops, duplicates,
// constants, Shape scaffolds, Transpose and Reshape pairs, dead nodes; Conv, ConvTranspose,
// Gemm and MatMul followed by BatchNormalization and by Add, Sub and Mul of constants or
// values; If with a constant or a computed condition, Loop, model-local functions, each with
// a body from the same grammar), which runs on inputs the bytes also give. Optimised with the
// default passes (folding through the evaluator's kernels, the model verified after every
// pass), it must pass the checker, give the same outputs, and optimise again to the same
// bytes after a write and a read. The inliner, on a model of its own, must be all or nothing:
// a model it refuses writes the bytes it had; one it inlines verifies, passes the checker and
// computes the same bits.
//
// "The same outputs" is bit for bit, except when the fusions changed the model: a folded
// BatchNormalization or a Gemm made of MatMul + Add rounds differently from the nodes it
// replaced. Then each output element may differ by a bound derived from the values (the
// companion model below): 1024 rounding errors of the magnitudes it was computed from. The
// differences seen stay within 3 of them; a wrong channel, a lost bias or a misplaced scale
// is far beyond.
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/ir/verify.h"
#include "onyx/passes/inline_functions.h"
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

// A number as the text syntax reads it back to the same float, and as a float (an attribute
// written "2" would be an integer).
std::string decimal(double number) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", number);
  std::string written = text;
  if (written.find_first_of(".en") == std::string::npos) written += ".0";
  return written;
}

std::string dimsText(const std::vector<int64_t>& dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) text += (i > 0 ? "," : "") + std::to_string(dims[i]);
  return text;
}

// The model is written twice: as itself, and as its companion, which computes beside each
// float value v a bound m_v on the magnitudes v was computed from (v with every operand made
// positive: |x| + |y| for x - y, |W| |x| for a product with weights, ...), scaled so that
// wherever the optimised model's v' differs from v by rounding alone, |v' - v| is a small
// multiple of m_v times float's epsilon: products double the bound (each factor's difference
// times the other factor), and a branch's condition is computed only from values no fusion
// reaches, so both models always take the same branch. Every line of the model is a line of
// the companion; the companion's lines that compute the bounds are its own.
struct Lines {
  std::string model;
  std::string companion;
};

std::string bound(const std::string& name) { return "m_" + name; }

// Every float value is of shape [2,3] (`wide`) or [3,2]. `exact` when no fusion acts on
// anything it is computed from, so it is the same bits before and after optimising.
struct Defined {
  std::string name;
  bool wide;
  bool exact;
};

int64_t rowsOf(bool wide) { return wide ? 2 : 3; }
int64_t columnsOf(bool wide) { return wide ? 3 : 2; }
std::string typeOf(bool wide) { return wide ? "float[2,3]" : "float[3,2]"; }

// A model-local function: its parameters' and result's shapes, whether its result is exact
// when its arguments are, and its definitions (model and companion).
struct Function {
  std::string name;
  std::vector<bool> parameters_wide;
  bool result_wide;
  bool exact;
  Lines text;
};

// What the graphs and functions of one model share: the bytes, unique names, functions.
struct Shared {
  explicit Shared(Bytes& b) : bytes(b) {}
  Bytes& bytes;
  size_t names = 0;
  std::vector<Function> functions;
  std::string fresh(const char* prefix) { return prefix + std::to_string(names++); }
};

// The nodes of one graph (the main graph, a branch, a loop body or a function body), written
// from the grammar; sees the values of the graphs it nests in.
class GraphWriter {
 public:
  GraphWriter(Shared& shared, std::vector<Defined> visible, int depth)
      : shared_(shared),
        bytes_(shared.bytes),
        values_(std::move(visible)),
        first_local_(values_.size()),
        depth_(depth) {}

  void addNodes(size_t count) {
    for (size_t i = 0; i < count; ++i) addNode();
  }
  const Lines& lines() const { return lines_; }
  // Values this graph defines (not its inputs, not captured ones).
  std::vector<size_t> locals() const {
    std::vector<size_t> indices;
    for (size_t i = first_local_; i < values_.size(); ++i) indices.push_back(i);
    return indices;
  }
  const Defined& value(size_t index) const { return values_[index]; }
  // A value this graph defines, of the shape asked, to be an output: one the bytes pick, or
  // one made from a visible value.
  Defined result(bool wide) {
    std::vector<size_t> fitting;
    for (size_t i : locals()) {
      if (values_[i].wide == wide) fitting.push_back(i);
    }
    if (!fitting.empty()) return values_[fitting[bytes_.next() % fitting.size()]];
    Defined from = pick();
    if (from.wide == wide) {
      unary("Identity", "Identity", from);
    } else {
      transpose(from);
    }
    return values_.back();
  }

 private:
  // Values are picked by copy: adding a value may move the others.
  Defined pick() { return values_[bytes_.next() % values_.size()]; }
  // A visible value of the shape asked, if there is one.
  std::optional<Defined> pickShaped(bool wide) {
    size_t start = bytes_.next() % values_.size();
    for (size_t k = 0; k < values_.size(); ++k) {
      const Defined& candidate = values_[(start + k) % values_.size()];
      if (candidate.wide == wide) return candidate;
    }
    return std::nullopt;
  }
  // A value of the same shape as `like`, or `like` itself when none other has it.
  Defined pickLike(const Defined& like) { return pickShaped(like.wide).value_or(like); }
  Defined pickExact() {
    size_t start = bytes_.next() % values_.size();
    for (size_t k = 0; k < values_.size(); ++k) {
      const Defined& candidate = values_[(start + k) % values_.size()];
      if (candidate.exact) return candidate;
    }
    // A function body's parameters are exact or not as its callers' arguments are: a constant
    // then.
    return floatConstant(true);
  }
  std::string fresh(bool wide, bool exact) {
    std::string name = shared_.fresh("v");
    values_.push_back({name, wide, exact});
    return name;
  }
  // A line of both texts, and a line of the companion only.
  void line(const std::string& output, const std::string& call) {
    std::string text = "  " + output + " = " + call + "\n";
    lines_.model += text;
    lines_.companion += text;
  }
  void companionLine(const std::string& output, const std::string& call) {
    lines_.companion += "  " + output + " = " + call + "\n";
  }
  void boundLine(const std::string& output, const std::string& call) {
    companionLine(bound(output), call);
  }
  // A float scalar constant of the model, or (`bound_only`) of the companion alone.
  std::string scalar(float number, bool bound_only = false) {
    std::string name = shared_.fresh("k");
    std::string call = "Constant <value_float = " + decimal(number) + "> ()";
    if (bound_only) {
      companionLine(name, call);
    } else {
      line(name, call);
    }
    return name;
  }
  // A float tensor of these dims from the bytes (scaled by `scale`), and its absolute values
  // as its bound.
  std::string tensor(const std::vector<int64_t>& dims, float scale = 1.0f) {
    int64_t count = 1;
    for (int64_t dim : dims) count *= dim;
    std::string elements, magnitudes;
    for (int64_t i = 0; i < count; ++i) {
      float number = bytes_.number() * scale;
      elements += (i > 0 ? ", " : "") + decimal(number);
      magnitudes += (i > 0 ? ", " : "") + decimal(std::fabs(number));
    }
    std::string name = shared_.fresh("c");
    std::string type = "float[" + dimsText(dims) + "]";
    line(name, "Constant <value = " + type + " {" + elements + "}> ()");
    boundLine(name, "Constant <value = " + type + " {" + magnitudes + "}> ()");
    return name;
  }
  std::string intTensor(const std::vector<int64_t>& elements) {
    std::string name = shared_.fresh("s");
    line(name, "Constant <value = int64[" + std::to_string(elements.size()) + "] {" +
                   dimsText(elements) + "}> ()");
    return name;
  }
  Defined floatConstant(bool wide) {
    std::string name =
        tensor({rowsOf(wide), columnsOf(wide)}, bytes_.next() % 4 == 0 ? 1.0f / 16 : 1.0f);
    values_.push_back({name, wide, true});
    return values_.back();
  }

  // The operands are named before the result is defined, so no node reads its own output.
  void unary(const char* op, const char* bound_op, Defined a) {
    std::string output = fresh(a.wide, a.exact);
    line(output, std::string(op) + "(" + a.name + ")");
    boundLine(output, std::string(bound_op) + "(" + bound(a.name) + ")");
  }
  void transpose(Defined a) {
    std::string output = fresh(!a.wide, a.exact);
    line(output, "Transpose <perm = [1, 0]> (" + a.name + ")");
    boundLine(output, "Transpose <perm = [1, 0]> (" + bound(a.name) + ")");
  }
  // x + y, x - y: |x| + |y|. max(x, y): max(|x|, |y|).
  void binary(const char* op, Defined a) {
    Defined b = pickLike(a);
    std::string output = fresh(a.wide, a.exact && b.exact);
    line(output, std::string(op) + "(" + a.name + ", " + b.name + ")");
    boundLine(output, std::string(std::strcmp(op, "Max") == 0 ? "Max" : "Add") + "(" +
                          bound(a.name) + ", " + bound(b.name) + ")");
  }
  // x y: 2 |x| |y| (each factor's difference times the other factor).
  Defined product(Defined a, Defined b) {
    std::string output = fresh(a.wide, a.exact && b.exact);
    line(output, "Mul(" + a.name + ", " + b.name + ")");
    std::string once = shared_.fresh("t");
    companionLine(once, "Mul(" + bound(a.name) + ", " + bound(b.name) + ")");
    boundLine(output, "Add(" + once + ", " + once + ")");
    return values_.back();
  }

  void addNode() {
    Defined a = pick();
    std::string in = a.name;
    switch (bytes_.next() % 27) {
      case 0: unary("Identity", "Identity", a); break;
      case 1: unary("Relu", "Identity", a); break;
      case 2: unary("Neg", "Identity", a); break;
      case 3: unary("Abs", "Identity", a); break;
      case 4: binary("Add", a); break;
      case 5: product(a, pickLike(a)); break;
      case 6: binary("Sub", a); break;
      case 7: binary("Max", a); break;
      case 8: floatConstant(bytes_.next() % 2 == 0); break;
      case 9: {
        float number = bytes_.number();
        std::string added = scalar(number);
        std::string magnitude = scalar(std::fabs(number), true);
        std::string output = fresh(a.wide, a.exact);
        line(output, "Add(" + in + ", " + added + ")");
        boundLine(output, "Add(" + bound(in) + ", " + magnitude + ")");
        break;
      }
      case 10: transpose(a); break;
      case 11: {
        bool to_wide = bytes_.next() % 2 == 0;
        std::string shape = intTensor({rowsOf(to_wide), columnsOf(to_wide)});
        std::string output = fresh(to_wide, a.exact);
        line(output, "Reshape(" + in + ", " + shape + ")");
        boundLine(output, "Reshape(" + bound(in) + ", " + shape + ")");
        break;
      }
      case 12: unary("Cast <to = 1>", "Identity", a); break;
      case 13: unary("Dropout", "Identity", a); break;
      case 14: {
        std::string axes = intTensor({0});
        std::string up = shared_.fresh("u");
        line(up, "Unsqueeze(" + in + ", " + axes + ")");
        boundLine(up, "Unsqueeze(" + bound(in) + ", " + axes + ")");
        std::string output = fresh(a.wide, a.exact);
        line(output, "Squeeze(" + up + ", " + axes + ")");
        boundLine(output, "Squeeze(" + bound(up) + ", " + axes + ")");
        break;
      }
      case 15: {
        std::string shape = shared_.fresh("h");
        line(shape, "Shape(" + pickLike(a).name + ")");
        std::string output = fresh(a.wide, a.exact);
        line(output, "Expand(" + in + ", " + shape + ")");
        boundLine(output, "Expand(" + bound(in) + ", " + shape + ")");
        break;
      }
      case 16: {
        std::string shape = shared_.fresh("h");
        line(shape, "Shape(" + in + ")");
        float number = bytes_.number();
        std::string output = fresh(a.wide, true);
        line(output,
             "ConstantOfShape <value = float[1] {" + decimal(number) + "}> (" + shape + ")");
        boundLine(output, "ConstantOfShape <value = float[1] {" + decimal(std::fabs(number)) +
                              "}> (" + shape + ")");
        break;
      }
      case 17: {
        // |sigmoid(x) - sigmoid(x')| <= |x - x'| / 4, plus the kernel's rounding below 1.
        std::string output = fresh(a.wide, a.exact);
        line(output, "Sigmoid(" + in + ")");
        std::string quarter = scalar(0.25f, true), one = scalar(1.0f, true);
        std::string scaled = shared_.fresh("t");
        companionLine(scaled, "Mul(" + bound(in) + ", " + quarter + ")");
        boundLine(output, "Add(" + scaled + ", " + one + ")");
        break;
      }
      case 18: {
        // The same product twice, then their sum: a duplicate to merge.
        Defined other = pickLike(a);
        Defined first = product(a, other);
        Defined second = product(a, other);
        std::string output = fresh(a.wide, first.exact);
        line(output, "Add(" + first.name + ", " + second.name + ")");
        boundLine(output, "Add(" + bound(first.name) + ", " + bound(second.name) + ")");
        break;
      }
      case 19: matmul(a); break;
      case 20: gemm(a); break;
      case 21: convolution(a); break;
      case 22: matmul(a); break;
      case 23: branch(a.wide); break;
      case 24: loop(a); break;
      case 25: call(a); break;
      default: {
        Defined constant = floatConstant(a.wide);
        unary("Identity", "Identity", constant);
        break;
      }
    }
  }
  // --- What the fusions act on ---------------------------------------------------------

  // The value a weighted node (and what follows it) computes: its name and dims, the
  // channels on axis 1.
  struct Weighted {
    std::string name;
    std::vector<int64_t> dims;
  };

  // A constant the fusions may fold into a bias or weights: per channel ((C), (1,C), (C,1,1),
  // (1,C,1,1)), one element, or (to be refused) one per element of the output.
  std::vector<int64_t> channelConstantDims(const std::vector<int64_t>& dims) {
    int64_t channels = dims[1];
    bool four = dims.size() == 4;
    switch (bytes_.next() % 5) {
      case 0: return four ? std::vector<int64_t>{channels, 1, 1} : std::vector<int64_t>{channels};
      case 1:
        return four ? std::vector<int64_t>{1, channels, 1, 1} : std::vector<int64_t>{1, channels};
      case 2: return {1};
      case 3: return dims;
      default: return four ? std::vector<int64_t>{dims[2], 1} : std::vector<int64_t>{dims[0], 1};
    }
  }

  // After a weighted node: up to three of BatchNormalization, Add, Sub and Mul of a constant,
  // Add of a value; a 2-D step's result is a value later nodes may also read (then the
  // fusions must leave it).
  void followUps(Weighted& current) {
    size_t count = bytes_.next() % 4;
    for (size_t i = 0; i < count; ++i) {
      std::string output = shared_.fresh("w");
      switch (bytes_.next() % 5) {
        case 0: batchNormalization(current, output); break;
        case 1:
        case 2: {
          std::string constant = tensor(channelConstantDims(current.dims));
          bool sub = bytes_.next() % 3 == 0;
          bool swap = !sub && bytes_.next() % 2 == 0;
          line(output,
               std::string(sub ? "Sub" : "Add") + "(" +
                   (swap ? constant + ", " + current.name : current.name + ", " + constant) + ")");
          boundLine(output, "Add(" + bound(current.name) + ", " + bound(constant) + ")");
          break;
        }
        case 3: {
          std::string constant = tensor(channelConstantDims(current.dims));
          bool swap = bytes_.next() % 2 == 0;
          line(output,
               "Mul(" + (swap ? constant + ", " + current.name : current.name + ", " + constant) +
                   ")");
          boundLine(output, "Mul(" + bound(current.name) + ", " + bound(constant) + ")");
          break;
        }
        default: {
          if (current.dims.size() != 2) {
            batchNormalization(current, output);
            break;
          }
          Defined other = pickLike({current.name, current.dims[0] == 2, false});
          line(output, "Add(" + current.name + ", " + other.name + ")");
          boundLine(output, "Add(" + bound(current.name) + ", " + bound(other.name) + ")");
          break;
        }
      }
      current.name = output;
      if (current.dims.size() == 2) {
        values_.push_back({output, current.dims[0] == 2, false});
      } else if (bytes_.next() % 4 == 0) {
        // A second reader of a 4-D step.
        back(current, rowsOf(true) == current.dims[1]);
      }
    }
  }

  // y = (x - mean) gamma / sqrt(var + epsilon) + beta; bound (m_x + |mean|) |s| + |beta|,
  // s rounded up.
  void batchNormalization(const Weighted& current, const std::string& output) {
    int64_t channels = current.dims[1];
    std::vector<float> gamma, beta, mean, variance;
    for (int64_t c = 0; c < channels; ++c) {
      gamma.push_back(bytes_.number() / 4);
      beta.push_back(bytes_.number());
      mean.push_back(bytes_.number());
      variance.push_back(std::fabs(bytes_.number()) + 0.0625f);
    }
    static constexpr float kEpsilons[] = {1e-5f, 1e-3f, 0.0f};
    uint8_t choice = bytes_.next() % 3;
    float epsilon = kEpsilons[choice];
    std::vector<int64_t> dims = {channels};
    std::vector<int64_t> bound_dims =
        current.dims.size() == 4 ? std::vector<int64_t>{channels, 1, 1} : dims;
    auto constant = [&](const std::vector<float>& elements, const std::vector<int64_t>& shape,
                        bool magnitude) {
      std::string list;
      for (size_t c = 0; c < elements.size(); ++c) {
        list += (c > 0 ? ", " : "") + decimal(magnitude ? std::fabs(elements[c]) : elements[c]);
      }
      std::string name = shared_.fresh("b");
      std::string text = "Constant <value = float[" + dimsText(shape) + "] {" + list + "}> ()";
      if (magnitude) {
        companionLine(name, text);
      } else {
        line(name, text);
      }
      return name;
    };
    std::string g = constant(gamma, dims, false), b = constant(beta, dims, false);
    std::string m = constant(mean, dims, false), v = constant(variance, dims, false);
    line(output, "BatchNormalization " +
                     (choice == 0 ? std::string() : "<epsilon = " + decimal(epsilon) + "> ") + "(" +
                     current.name + ", " + g + ", " + b + ", " + m + ", " + v + ")");
    std::vector<float> scale;
    for (int64_t c = 0; c < channels; ++c) {
      double s = std::fabs(gamma[c]) / std::sqrt(static_cast<double>(variance[c]) + epsilon);
      scale.push_back(static_cast<float>(s * (1 + 1e-6)));
    }
    std::string shifted = shared_.fresh("t"), scaled = shared_.fresh("t");
    companionLine(shifted,
                  "Add(" + bound(current.name) + ", " + constant(mean, bound_dims, true) + ")");
    companionLine(scaled, "Mul(" + shifted + ", " + constant(scale, bound_dims, true) + ")");
    boundLine(output, "Add(" + scaled + ", " + constant(beta, bound_dims, true) + ")");
  }

  // MatMul(a, W) with W a constant (C, C): the shape of a.
  void matmul(const Defined& a) {
    int64_t columns = columnsOf(a.wide);
    std::string weights = tensor({columns, columns});
    Weighted current{shared_.fresh("w"), {rowsOf(a.wide), columns}};
    line(current.name, "MatMul(" + a.name + ", " + weights + ")");
    boundLine(current.name, "MatMul(" + bound(a.name) + ", " + bound(weights) + ")");
    values_.push_back({current.name, a.wide, false});
    followUps(current);
  }

  // Gemm(a, W, C) with alpha, beta, transB and C (or none) of any shape Gemm broadcasts.
  void gemm(const Defined& a) {
    int64_t rows = rowsOf(a.wide), columns = columnsOf(a.wide);
    std::string weights = tensor({columns, columns});
    static constexpr float kFactors[] = {1.0f, 0.5f, 2.0f, -1.0f};
    float alpha = kFactors[bytes_.next() % 4], beta = kFactors[bytes_.next() % 4];
    bool transposed = bytes_.next() % 2 == 0;
    std::string bias;
    switch (bytes_.next() % 6) {
      case 0: break;
      case 1: bias = tensor({columns}); break;
      case 2: bias = tensor({1, columns}); break;
      case 3: bias = tensor({rows, columns}); break;
      case 4: bias = tensor({rows, 1}); break;
      default: bias = tensor({1}); break;
    }
    auto attributes = [&](float alpha_value, float beta_value) {
      return "Gemm <alpha = " + decimal(alpha_value) + ", beta = " + decimal(beta_value) +
             ", transB = " + (transposed ? "1" : "0") + "> (";
    };
    Weighted current{shared_.fresh("w"), {rows, columns}};
    line(current.name, attributes(alpha, beta) + a.name + ", " + weights +
                           (bias.empty() ? "" : ", " + bias) + ")");
    boundLine(current.name, attributes(std::fabs(alpha), std::fabs(beta)) + bound(a.name) + ", " +
                                bound(weights) + (bias.empty() ? "" : ", " + bound(bias)) + ")");
    values_.push_back({current.name, a.wide, false});
    followUps(current);
  }

  // a (R, C) as (1, R, C, 1): R channels; a Conv or ConvTranspose keeping the shape, what
  // follows it, and back to (R, C).
  void convolution(const Defined& a) {
    int64_t rows = rowsOf(a.wide), columns = columnsOf(a.wide);
    std::string to_four = intTensor({1, rows, columns, 1});
    std::string four = shared_.fresh("f");
    line(four, "Reshape(" + a.name + ", " + to_four + ")");
    boundLine(four, "Reshape(" + bound(a.name) + ", " + to_four + ")");
    bool transposed = bytes_.next() % 3 == 0;
    int64_t group = bytes_.next() % 3 == 0 ? rows : 1;
    int64_t kernel = bytes_.next() % 2 == 0 ? 1 : 3;
    std::string weights = tensor({rows, rows / group, kernel, 1}, 0.25f);
    std::string bias = bytes_.next() % 2 == 0 ? tensor({rows}) : std::string();
    std::string op = std::string(transposed ? "ConvTranspose" : "Conv") +
                     " <group = " + std::to_string(group) + ", kernel_shape = [" +
                     std::to_string(kernel) + ", 1], pads = [" +
                     (kernel == 3 ? "1, 0, 1, 0" : "0, 0, 0, 0") + "]> (";
    Weighted current{shared_.fresh("w"), {1, rows, columns, 1}};
    line(current.name, op + four + ", " + weights + (bias.empty() ? "" : ", " + bias) + ")");
    boundLine(current.name, op + bound(four) + ", " + bound(weights) +
                                (bias.empty() ? "" : ", " + bound(bias)) + ")");
    if (bytes_.next() % 4 == 0) back(current, a.wide);
    followUps(current);
    back(current, a.wide);
  }
  // A 4-D (1, R, C, 1) value back as (R, C).
  void back(const Weighted& current, bool wide) {
    std::string shape = intTensor({rowsOf(wide), columnsOf(wide)});
    std::string output = fresh(wide, false);
    line(output, "Reshape(" + current.name + ", " + shape + ")");
    boundLine(output, "Reshape(" + bound(current.name) + ", " + shape + ")");
  }

  // --- Nested graphs and functions -------------------------------------------------------

  // A graph's or function's signature in the model and in the companion (which adds the
  // bounds of its float inputs and outputs). A function's is untyped.
  struct Signature {
    std::vector<std::string> inputs;  // "float[2,3] v1", "int64 i2", ...; "p3" in a function
    std::vector<Defined> float_inputs;
    std::vector<std::string> outputs;
    std::vector<Defined> float_outputs;
    bool typed = true;
  };
  static Lines graphText(const std::string& name, const Signature& signature, const Lines& body) {
    auto list = [&](const std::vector<std::string>& entries, const std::vector<Defined>& floats,
                    bool companion) {
      std::string text;
      for (const std::string& entry : entries) text += (text.empty() ? "" : ", ") + entry;
      if (companion) {
        for (const Defined& value : floats) {
          text += (text.empty() ? "" : ", ") +
                  (signature.typed ? typeOf(value.wide) + " " : std::string()) + bound(value.name);
        }
      }
      return text;
    };
    Lines text;
    for (bool companion : {false, true}) {
      std::string& to = companion ? text.companion : text.model;
      to = name + " (" + list(signature.inputs, signature.float_inputs, companion) + ") => (" +
           list(signature.outputs, signature.float_outputs, companion) + ") {\n" +
           (companion ? body.companion : body.model) + "}";
    }
    return text;
  }
  static std::string typed(const Defined& value) { return typeOf(value.wide) + " " + value.name; }

  // If with a constant condition (folded away) or one computed from exact values.
  void branch(bool wide) {
    if (depth_ >= 2) return unary("Relu", "Identity", pick());
    std::string condition = shared_.fresh("q");
    if (bytes_.next() % 2 == 0) {
      line(condition,
           std::string("Constant <value = bool {") + (bytes_.next() % 2 ? "1" : "0") + "}> ()");
    } else {
      Defined from = pickExact();
      std::string largest = shared_.fresh("r");
      line(largest, "ReduceMax <keepdims = 0> (" + from.name + ")");
      line(condition, "Greater(" + largest + ", " + scalar(bytes_.number()) + ")");
    }
    Lines branches[2];
    bool exact = true;
    for (Lines& text : branches) {
      GraphWriter body(shared_, values_, depth_ + 1);
      body.addNodes(1 + bytes_.next() % 4);
      Defined result = body.result(wide);
      exact = exact && result.exact;
      Signature signature;
      signature.outputs = {typed(result)};
      signature.float_outputs = {result};
      text = graphText(shared_.fresh("g"), signature, body.lines());
    }
    std::string output = fresh(wide, exact);
    lines_.model += "  " + output + " = If (" + condition +
                    ") <then_branch = " + branches[0].model +
                    ", else_branch = " + branches[1].model + ">\n";
    lines_.companion += "  " + output + ", " + bound(output) + " = If (" + condition +
                        ") <then_branch = " + branches[0].companion +
                        ", else_branch = " + branches[1].companion + ">\n";
  }

  // Loop with a constant trip count (0 to 3), carrying a value through a body.
  void loop(const Defined& start) {
    if (depth_ >= 2) return unary("Neg", "Identity", start);
    std::string trips = shared_.fresh("n");
    line(trips, "Constant <value = int64 {" + std::to_string(bytes_.next() % 4) + "}> ()");
    std::string iteration = shared_.fresh("i"), go = shared_.fresh("q"), go_on = shared_.fresh("q");
    // The carried value is taken as inexact: a fusion in one iteration reaches the next.
    Defined carried{shared_.fresh("v"), start.wide, false};
    std::vector<Defined> visible = values_;
    visible.push_back(carried);
    GraphWriter body(shared_, std::move(visible), depth_ + 1);
    body.line(go_on, "Identity(" + go + ")");
    body.addNodes(1 + bytes_.next() % 4);
    Defined result = body.result(start.wide);
    Signature signature;
    signature.inputs = {"int64 " + iteration, "bool " + go, typed(carried)};
    signature.float_inputs = {carried};
    signature.outputs = {"bool " + go_on, typed(result)};
    signature.float_outputs = {result};
    Lines text = graphText(shared_.fresh("g"), signature, body.lines());
    std::string output = fresh(start.wide, false);
    lines_.model += "  " + output + " = Loop (" + trips + ", \"\", " + start.name +
                    ") <body = " + text.model + ">\n";
    lines_.companion += "  " + output + ", " + bound(output) + " = Loop (" + trips + ", \"\", " +
                        start.name + ", " + bound(start.name) + ") <body = " + text.companion +
                        ">\n";
  }

  // A call of a model-local function defined before, with arguments of its shapes.
  void call(const Defined& a) {
    if (shared_.functions.empty()) return unary("Abs", "Identity", a);
    const Function& function = shared_.functions[bytes_.next() % shared_.functions.size()];
    bool exact = function.exact;
    std::string list, bounds;
    for (bool wide : function.parameters_wide) {
      std::optional<Defined> argument = pickShaped(wide);
      if (!argument) return unary("Abs", "Identity", a);
      exact = exact && argument->exact;
      list += (list.empty() ? "" : ", ") + argument->name;
      bounds += ", " + bound(argument->name);
    }
    std::string output = fresh(function.result_wide, exact);
    lines_.model += "  " + output + " = local." + function.name + " (" + list + ")\n";
    lines_.companion += "  " + output + ", " + bound(output) + " = local." + function.name + " (" +
                        list + bounds + ")\n";
  }

 public:
  // Defines a model-local function from the grammar (its body may call those defined
  // before it): one or two parameters, one result.
  static void defineFunction(Shared& shared) {
    Bytes& bytes = shared.bytes;
    Function function;
    function.name = shared.fresh("fn");
    std::vector<Defined> parameters;
    size_t count = 1 + bytes.next() % 2;
    for (size_t i = 0; i < count; ++i) {
      parameters.push_back({shared.fresh("p"), bytes.next() % 2 == 0, false});
      function.parameters_wide.push_back(parameters.back().wide);
    }
    function.result_wide = bytes.next() % 2 == 0;
    GraphWriter body(shared, parameters, 1);
    body.addNodes(1 + bytes.next() % 5);
    Defined result = body.result(function.result_wide);
    function.exact = result.exact;
    Signature signature;
    signature.typed = false;
    for (const Defined& parameter : parameters) signature.inputs.push_back(parameter.name);
    signature.float_inputs = parameters;
    signature.outputs = {result.name};
    signature.float_outputs = {result};
    Lines text = graphText(function.name, signature, body.lines());
    std::string header = "<domain: \"local\", opset_import: [\"\" : 13, \"local\" : 1]>\n";
    function.text.model = header + text.model + "\n";
    function.text.companion = header + text.companion + "\n";
    shared.functions.push_back(std::move(function));
  }

 private:
  Shared& shared_;
  Bytes& bytes_;
  std::vector<Defined> values_;
  size_t first_local_;
  int depth_;
  Lines lines_;
};

// The model and its companion (the same inputs, then their bounds m_x and m_y; the bounds of
// the model's outputs as its outputs).
Lines writeModel(Bytes& bytes) {
  Shared shared(bytes);
  size_t functions = bytes.next() % 3;
  for (size_t i = 0; i < functions; ++i) GraphWriter::defineFunction(shared);
  GraphWriter graph(shared, {{"x", true, true}, {"y", true, true}}, 0);
  graph.addNodes(1 + bytes.next() % 24);
  // The last value and up to two more, each once, are the outputs.
  std::vector<Defined> outputs;
  std::vector<size_t> locals = graph.locals();
  for (size_t i = locals.size(); i-- > 0 && outputs.size() < 3;) {
    if (outputs.empty() || bytes.next() % 3 == 0) outputs.push_back(graph.value(locals[i]));
  }
  if (outputs.empty()) outputs.push_back(graph.result(true));
  std::string model_outputs, companion_outputs;
  for (const Defined& output : outputs) {
    model_outputs += (model_outputs.empty() ? "" : ", ") + typeOf(output.wide) + " " + output.name;
    companion_outputs +=
        (companion_outputs.empty() ? "" : ", ") + typeOf(output.wide) + " " + bound(output.name);
  }
  std::string header = "<ir_version: 8, opset_import: [\"\" : 13, \"local\" : 1]>\n";
  Lines text;
  text.model = header + "g (float[2,3] x, float[2,3] y) => (" + model_outputs + ") {\n" +
               graph.lines().model + "}\n";
  text.companion = header + "g (float[2,3] x, float[2,3] y, float[2,3] m_x, float[2,3] m_y) => (" +
                   companion_outputs + ") {\n" + graph.lines().companion + "}\n";
  for (const Function& function : shared.functions) {
    text.model += function.text.model;
    text.companion += function.text.companion;
  }
  return text;
}

std::vector<NamedValue> inputsFrom(Bytes& bytes) {
  std::vector<NamedValue> inputs;
  for (const char* name : {"x", "y"}) {
    Array array(ElementType::kFloat, {2, 3});
    for (size_t i = 0; i < 6; ++i) array.data<float>()[i] = bytes.number();
    inputs.push_back({name, EvalValue::of(std::move(array))});
  }
  return inputs;
}

// The inputs, then their bounds: their absolute values.
std::vector<NamedValue> companionInputs(const std::vector<NamedValue>& inputs) {
  std::vector<NamedValue> all = inputs;
  for (const NamedValue& input : inputs) {
    Array magnitude(ElementType::kFloat, {2, 3});
    for (size_t i = 0; i < 6; ++i) {
      magnitude.data<float>()[i] = std::fabs(input.value.tensor.data<float>()[i]);
    }
    all.push_back({bound(input.name), EvalValue::of(std::move(magnitude))});
  }
  return all;
}

bool sameBits(const Array& a, const Array& b) {
  if (a.type() != ElementType::kFloat || b.type() != ElementType::kFloat) return false;
  if (a.shape() != b.shape()) return false;
  return std::memcmp(a.data<float>(), b.data<float>(), a.size() * sizeof(float)) == 0;
}

// Each element within 2^-14 of its bound (2^10 rounding errors of float, 2^-24 each): a
// fusion rounds a few times per term it sums, and every operation after it where the two
// models differ adds one more rounding error of the bound at most. An element whose bound
// is not finite (or near it: an overflow may round either way) is not compared.
std::optional<size_t> outsideBound(const Array& before, const Array& after, const Array& bounds) {
  if (after.type() != ElementType::kFloat || after.shape() != before.shape() ||
      bounds.shape() != before.shape()) {
    return 0;
  }
  for (size_t i = 0; i < before.size(); ++i) {
    float a = before.data<float>()[i], b = after.data<float>()[i], m = bounds.data<float>()[i];
    if (!(m < FLT_MAX / 16) || std::memcmp(&a, &b, sizeof a) == 0) continue;
    if (!(std::fabs(static_cast<double>(a) - b) <= std::ldexp(static_cast<double>(m), -14))) {
      return i;
    }
  }
  return std::nullopt;
}

// Runs a node alone with its kernel: the evaluator's own plan-time fusions would round the
// unoptimised model as the passes' fusions do, and differently from one graph to the other.
EvalOptions literally() {
  EvalOptions options;
  options.fusions = false;
  options.threads = 1;
  return options;
}

// Optimises `model` and returns its bytes; `fused` tells whether the fusions changed it.
std::string optimizedBytes(Model& model, const std::string& text, bool* fused) {
  KernelNodeEvaluator node_evaluator;
  OptimizeOptions options;
  options.node_evaluator = &node_evaluator;
  options.manager.verify = true;
  Result<OptimizeReport> done = optimize(model, options);
  if (!done) broken("optimize failed", done.status().toString() + "\n" + text);
  if (fused != nullptr) {
    *fused = false;
    for (const PassStats& pass : done->passes) {
      if (pass.name == "standard-fusions" && pass.changes.changed()) *fused = true;
    }
  }
  Result<std::string> bytes = serializeModel(model);
  if (!bytes) broken("the optimised model does not serialize", bytes.status().toString());
  return *bytes;
}

// Inlines every model-local function call of a fresh parse of `text` (in place, journalled)
// and holds it to what the inliner promises.
void checkInlining(const std::string& text, const std::vector<NamedValue>& inputs,
                   const std::vector<EvalValue>& before) {
  Result<Model> model = parseText(text);
  if (!model) broken("the generated text does not parse twice", model.status().toString());
  Result<std::string> original = serializeModel(*model);
  if (!original) broken("the generated model does not serialize", original.status().toString());
  Result<InlineReport> inlined = inlineAllFunctions(*model);
  if (!inlined) {
    Result<std::string> after = serializeModel(*model);
    if (!after || *after != *original) {
      broken("a refused inline changed the model", inlined.status().toString() + "\n" + text);
    }
    return;
  }
  if (Diagnostics broken_links = verifyModel(*model); broken_links.hasErrors()) {
    broken("the inlined model is inconsistent", broken_links.all()[0].toString() + "\n" + text);
  }
  if (Diagnostics diagnostics = checkModel(*model); diagnostics.errorCount() > 0) {
    broken("the inlined model fails the checker", diagnostics.all()[0].toString() + "\n" + text);
  }
  Result<std::vector<EvalValue>> after = evaluate(*model, inputs, literally());
  if (!after) broken("the inlined model does not run", after.status().toString() + "\n" + text);
  if (after->size() != before.size()) broken("inlining changed the outputs in number", text);
  for (size_t i = 0; i < before.size(); ++i) {
    if (!sameBits(before[i].tensor, (*after)[i].tensor)) {
      broken("an output changed when inlined", "output " + std::to_string(i) + "\n" + text);
    }
  }
}

void run(std::string_view data) {
  Bytes bytes(data);
  std::vector<NamedValue> inputs = inputsFrom(bytes);
  Lines text = writeModel(bytes);
  Result<Model> model = parseText(text.model);
  if (!model) {
    broken("the generated text does not parse", model.status().toString() + "\n" + text.model);
  }
  if (Diagnostics generated = checkModel(*model); generated.errorCount() > 0) {
    broken("the generated model fails the checker",
           generated.all()[0].toString() + "\n" + text.model);
  }
  Result<std::vector<EvalValue>> before = evaluate(*model, inputs, literally());
  if (!before) {
    broken("the generated model does not run", before.status().toString() + "\n" + text.model);
  }

  checkInlining(text.model, inputs, *before);

  bool fused = false;
  std::string once = optimizedBytes(*model, text.model, &fused);
  Diagnostics diagnostics = checkModel(*model);
  if (diagnostics.errorCount() > 0) {
    broken("the optimised model fails the checker",
           diagnostics.all()[0].toString() + "\n" + text.model);
  }
  Result<std::vector<EvalValue>> after = evaluate(*model, inputs, literally());
  if (!after) {
    broken("the optimised model does not run", after.status().toString() + "\n" + text.model);
  }
  if (after->size() != before->size()) broken("the outputs changed in number", text.model);
  if (fused) {
    Result<Model> companion = parseText(text.companion);
    if (!companion) {
      broken("the companion does not parse", companion.status().toString() + "\n" + text.companion);
    }
    Result<std::vector<EvalValue>> bounds =
        evaluate(*companion, companionInputs(inputs), literally());
    if (!bounds || bounds->size() != before->size()) {
      broken("the companion does not run",
             (bounds ? std::string("outputs differ in number") : bounds.status().toString()) +
                 "\n" + text.companion);
    }
    for (size_t i = 0; i < before->size(); ++i) {
      if (std::optional<size_t> element =
              outsideBound((*before)[i].tensor, (*after)[i].tensor, (*bounds)[i].tensor)) {
        broken("a fused output changed beyond rounding",
               "output " + std::to_string(i) + " element " + std::to_string(*element) + "\n" +
                   text.model);
      }
    }
  } else {
    for (size_t i = 0; i < before->size(); ++i) {
      if (!sameBits((*before)[i].tensor, (*after)[i].tensor)) {
        broken("an output changed", "output " + std::to_string(i) + "\n" + text.model);
      }
    }
  }

  Result<Model> reread = parseModel(once, nullptr);
  if (!reread) broken("the optimised model does not read back", reread.status().toString());
  if (optimizedBytes(*reread, text.model, nullptr) != once) {
    broken("optimising the written model again changes it", text.model);
  }
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
