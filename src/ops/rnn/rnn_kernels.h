// Internal: one kernel for RNN, GRU and LSTM (directions, layouts, sequence lengths, initial
// states, activations, clip, GRU's linear_before_reset, LSTM's peepholes and input_forget).
// It computes in float for float tensors (as onnxruntime does) and in double for the others,
// and stores the results in X's element type.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "onyx/ir/attribute.h"
#include "ops/kernels.h"
#include "ops/math/vector_math.h"

namespace onyx::ops {

enum class RecurrentKind { kRnn, kGru, kLstm };

struct RecurrentActivation {
  enum class Kind {
    kRelu,
    kTanh,
    kSigmoid,
    kAffine,
    kLeakyRelu,
    kThresholdedRelu,
    kScaledTanh,
    kHardSigmoid,
    kElu,
    kSoftsign,
    kSoftplus
  };
  Kind kind = Kind::kTanh;
  double alpha = 0;
  double beta = 0;

  /// Applies the activation to values[0, count) in place: one switch, then a loop that
  /// vectorizes for the float sigmoid and tanh.
  template <class T>
  void applyTo(T* values, size_t count) const {
    switch (kind) {
      case Kind::kSigmoid:
        for (size_t i = 0; i < count; ++i) values[i] = sigmoid(values[i]);
        return;
      case Kind::kTanh:
        for (size_t i = 0; i < count; ++i) values[i] = tanh(values[i]);
        return;
      default:
        for (size_t i = 0; i < count; ++i) values[i] = (*this)(values[i]);
    }
  }

  /// In the kernel's compute type T (float for float tensors, else double).
  template <class T>
  T operator()(T x) const {
    const T a = static_cast<T>(alpha);
    const T b = static_cast<T>(beta);
    switch (kind) {
      case Kind::kRelu: return x > 0 ? x : T(0);
      case Kind::kTanh: return tanh(x);
      case Kind::kSigmoid: return sigmoid(x);
      case Kind::kAffine: return a * x + b;
      case Kind::kLeakyRelu: return x >= 0 ? x : a * x;
      case Kind::kThresholdedRelu: return x > a ? x : T(0);
      case Kind::kScaledTanh: return a * std::tanh(b * x);
      case Kind::kHardSigmoid: return std::clamp(a * x + b, T(0), T(1));
      case Kind::kElu: return x >= 0 ? x : a * (std::exp(x) - T(1));
      case Kind::kSoftsign: return x / (T(1) + std::abs(x));
      case Kind::kSoftplus: return std::log1p(std::exp(x));
    }
    return x;
  }

 private:
  template <class T>
  static T sigmoid(T x) {
    if constexpr (std::is_same_v<T, float>) return vector_math::sigmoidFloat(x);
    return T(1) / (T(1) + std::exp(-x));
  }
  template <class T>
  static T tanh(T x) {
    if constexpr (std::is_same_v<T, float>) return vector_math::tanhFloat(x);
    return std::tanh(x);
  }
};

/// The activation named `name` (any case) with its default alpha and beta; `uses` gets how
/// many of alpha and beta it reads (0, 1 or 2). nullopt for an unknown name.
inline std::optional<RecurrentActivation> recurrentActivation(std::string_view name, int& uses) {
  std::string lower;
  for (char c : name)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  using K = RecurrentActivation::Kind;
  struct Entry {
    const char* name;
    K kind;
    int uses;
    double alpha, beta;
  };
  static constexpr Entry kEntries[] = {
      {"relu", K::kRelu, 0, 0, 0},
      {"tanh", K::kTanh, 0, 0, 0},
      {"sigmoid", K::kSigmoid, 0, 0, 0},
      {"affine", K::kAffine, 2, 1, 0},
      {"leakyrelu", K::kLeakyRelu, 1, 0.01, 0},
      {"thresholdedrelu", K::kThresholdedRelu, 1, 1, 0},
      {"scaledtanh", K::kScaledTanh, 2, 1, 1},
      {"hardsigmoid", K::kHardSigmoid, 2, 0.2, 0.5},
      {"elu", K::kElu, 1, 1, 0},
      {"softsign", K::kSoftsign, 0, 0, 0},
      {"softplus", K::kSoftplus, 0, 0, 0},
  };
  for (const Entry& entry : kEntries) {
    if (lower == entry.name) {
      uses = entry.uses;
      return RecurrentActivation{entry.kind, entry.alpha, entry.beta};
    }
  }
  return std::nullopt;
}

/// A tensor input's elements in the compute type T (empty when absent): the input's own
/// elements when they already are of that type (the weights are read on every run, and a
/// copy of them would cost more than a short sequence's work), else a converted copy.
template <class T>
class RecurrentValues {
 public:
  explicit RecurrentValues(const Array* array) {
    if (array == nullptr) return;
    size_ = array->size();
    if constexpr (std::is_same_v<T, float>) {
      if (array->type() == ElementType::kFloat) {
        data_ = array->data<float>();
        return;
      }
    }
    converted_.resize(size_);
    for (size_t i = 0; i < size_; ++i) converted_[i] = static_cast<T>(elementAsDouble(*array, i));
    data_ = converted_.data();
  }
  RecurrentValues(const RecurrentValues&) = delete;
  RecurrentValues& operator=(const RecurrentValues&) = delete;

  bool empty() const { return size_ == 0; }
  const T* data() const { return data_; }
  T operator[](size_t i) const { return data_[i]; }

 private:
  std::vector<T> converted_;
  const T* data_ = nullptr;
  size_t size_ = 0;
};

/// The dot product of a[0, n) and b[0, n), in eight partial sums that vectorize.
template <class T>
T recurrentDot(const T* a, const T* b, size_t n) {
  constexpr size_t kLanes = 8;
  T lanes[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t k = 0; k < kLanes; ++k) lanes[k] += a[i + k] * b[i + k];
  }
  T sum = 0;
  for (; i < n; ++i) sum += a[i] * b[i];
  for (size_t k = 0; k < kLanes; ++k) sum += lanes[k];
  return sum;
}

/// What runRecurrent has read and checked, for its loop.
struct RecurrentSetup {
  RecurrentKind kind;
  size_t gates, per_direction, dirs, seq, batch, input, hidden;
  int64_t layout;
  bool reverse_only;  // direction "reverse"
  std::vector<int64_t> lens;
  std::vector<RecurrentActivation> activations;
  std::optional<float> clip;
  bool linear_before_reset, input_forget;
};

/// The recurrence in compute type T: float for float tensors (as onnxruntime computes them),
/// double for the others.
template <class T>
Status runRecurrentAs(KernelContext& ctx, const RecurrentSetup& setup) {
  const RecurrentKind kind = setup.kind;
  const size_t dirs = setup.dirs, seq = setup.seq, batch = setup.batch, input = setup.input,
               hidden = setup.hidden, per_direction = setup.per_direction;
  const size_t gh = setup.gates * hidden;
  const int64_t layout = setup.layout;
  const int64_t D = static_cast<int64_t>(dirs), B = static_cast<int64_t>(batch),
                H = static_cast<int64_t>(hidden);
  const RecurrentValues<T> x(ctx.inputArray(0));
  const RecurrentValues<T> w(ctx.inputArray(1));
  const RecurrentValues<T> r(ctx.inputArray(2));
  const RecurrentValues<T> bias(ctx.inputArray(3));
  const RecurrentValues<T> h0(ctx.inputArray(5));
  const RecurrentValues<T> c0(kind == RecurrentKind::kLstm ? ctx.inputArray(6) : nullptr);
  const RecurrentValues<T> peep(kind == RecurrentKind::kLstm ? ctx.inputArray(7) : nullptr);
  const std::vector<int64_t>& lens = setup.lens;
  auto x_at = [&](size_t t, size_t b) {
    return x.data() + (layout == 0 ? (t * batch + b) : (b * seq + t)) * input;
  };
  auto state_index = [&](size_t d, size_t b) {
    return (layout == 0 ? (d * batch + b) : (b * dirs + d)) * hidden;
  };
  // Results in layout 0: Y [seq, dirs, batch, hidden], Y_h / Y_c [dirs, batch, hidden].
  std::vector<T> y(seq * dirs * batch * hidden, T(0));
  std::vector<T> yh(dirs * batch * hidden, T(0)), yc(dirs * batch * hidden, T(0));
  const T clip = static_cast<T>(setup.clip.value_or(0));
  auto clipped = [&](T v) { return setup.clip ? std::clamp(v, -clip, clip) : v; };
  // The gates R h feeds through `pre`: all but GRU's hidden gate, computed apart.
  const size_t recurrent_gates = kind == RecurrentKind::kGru ? 2 * hidden : gh;
  for (size_t d = 0; d < dirs; ++d) {
    bool reverse = setup.reverse_only || d == 1;
    const T* wd = w.data() + d * gh * input;
    const T* rd = r.data() + d * gh * hidden;
    const T* wb = bias.empty() ? nullptr : bias.data() + d * 2 * gh;
    const T* rb = bias.empty() ? nullptr : wb + gh;
    const T* pd = peep.empty() ? nullptr : peep.data() + d * 3 * hidden;
    const RecurrentActivation* f = setup.activations.data() + d * per_direction;
    // Batch entries are independent: each writes only its own outputs.
    parallelFor(ctx, batch, 1, [&](size_t begin, size_t end) {
      std::vector<T> pre(gh), h(hidden), c(hidden), gate_z(hidden), rgate(hidden),
          hidden_gate(hidden);
      for (size_t b = begin; b < end; ++b) {
        for (size_t k = 0; k < hidden; ++k) {
          h[k] = h0.empty() ? T(0) : h0[state_index(d, b) + k];
          c[k] = c0.empty() ? T(0) : c0[state_index(d, b) + k];
        }
        size_t length = static_cast<size_t>(lens[b]);
        for (size_t s = 0; s < length; ++s) {
          size_t t = reverse ? length - 1 - s : s;
          const T* xt = x_at(t, b);
          // pre = Wb + W x (+ Rb + R h, except GRU's hidden gate, done below).
          for (size_t g = 0; g < gh; ++g) {
            T sum = recurrentDot(wd + g * input, xt, input);
            if (g < recurrent_gates) sum += recurrentDot(rd + g * hidden, h.data(), hidden);
            if (wb != nullptr) sum += wb[g];
            if (rb != nullptr && g < recurrent_gates) sum += rb[g];
            pre[g] = sum;
          }
          if (kind == RecurrentKind::kRnn) {
            for (size_t k = 0; k < hidden; ++k) h[k] = f[0](clipped(pre[k]));
          } else if (kind == RecurrentKind::kGru) {
            // Gates z, r, h.
            std::vector<T>& z = gate_z;
            for (size_t k = 0; k < hidden; ++k) {
              z[k] = f[0](clipped(pre[k]));
              rgate[k] = f[0](clipped(pre[hidden + k]));
            }
            for (size_t k = 0; k < hidden; ++k) {
              const T* rrow = rd + (2 * hidden + k) * hidden;
              T rbh = rb != nullptr ? rb[2 * hidden + k] : T(0);
              T sum = 0;
              if (setup.linear_before_reset) {
                for (size_t i = 0; i < hidden; ++i) sum += rrow[i] * h[i];
                sum = rgate[k] * (sum + rbh);
              } else {
                for (size_t i = 0; i < hidden; ++i) sum += rrow[i] * rgate[i] * h[i];
                sum += rbh;
              }
              hidden_gate[k] = f[1](clipped(pre[2 * hidden + k] + sum));
            }
            for (size_t k = 0; k < hidden; ++k) {
              h[k] = (T(1) - z[k]) * hidden_gate[k] + z[k] * h[k];
            }
          } else if (pd == nullptr && !setup.clip && !setup.input_forget) {
            // Gates i, o, f, c, none reading the cell: each activation over its gates at
            // once, then the cell and the state.
            f[0].applyTo(pre.data(), 3 * hidden);
            f[1].applyTo(pre.data() + 3 * hidden, hidden);
            const T* ig = pre.data();
            const T* og = pre.data() + hidden;
            const T* fg = pre.data() + 2 * hidden;
            const T* cg = pre.data() + 3 * hidden;
            for (size_t k = 0; k < hidden; ++k) c[k] = fg[k] * c[k] + ig[k] * cg[k];
            std::copy(c.begin(), c.end(), h.begin());
            f[2].applyTo(h.data(), hidden);
            for (size_t k = 0; k < hidden; ++k) h[k] *= og[k];
          } else {
            // Gates i, o, f, c; peepholes i, o, f.
            for (size_t k = 0; k < hidden; ++k) {
              T pi = pd != nullptr ? pd[k] : T(0);
              T po = pd != nullptr ? pd[hidden + k] : T(0);
              T pf = pd != nullptr ? pd[2 * hidden + k] : T(0);
              T ig = f[0](clipped(pre[k] + pi * c[k]));
              T fg =
                  setup.input_forget ? T(1) - ig : f[0](clipped(pre[2 * hidden + k] + pf * c[k]));
              T cg = f[1](clipped(pre[3 * hidden + k]));
              T cell = fg * c[k] + ig * cg;
              T og = f[0](clipped(pre[hidden + k] + po * cell));
              c[k] = cell;
              h[k] = og * f[2](cell);
            }
          }
          T* yt = y.data() + ((t * dirs + d) * batch + b) * hidden;
          std::copy(h.begin(), h.end(), yt);
        }
        std::copy(h.begin(), h.end(),
                  yh.begin() + static_cast<std::ptrdiff_t>((d * batch + b) * hidden));
        std::copy(c.begin(), c.end(),
                  yc.begin() + static_cast<std::ptrdiff_t>((d * batch + b) * hidden));
      }
    });
  }
  ElementType type = ctx.inputArray(0)->type();
  auto store = [&](const std::vector<T>& values, std::vector<int64_t> shape, auto index_of) {
    Array out(type, std::move(shape));
    if constexpr (std::is_same_v<T, float>) {
      if (type == ElementType::kFloat) {
        float* to = out.data<float>();
        for (size_t i = 0; i < values.size(); ++i) to[index_of(i)] = values[i];
        return out;
      }
    }
    for (size_t i = 0; i < values.size(); ++i) {
      storeDouble(out, index_of(i), static_cast<double>(values[i]));
    }
    return out;
  };
  if (ctx.hasOutput(0)) {
    if (layout == 0) {
      ctx.setOutput(0, store(y, {static_cast<int64_t>(seq), D, B, H}, [](size_t i) { return i; }));
    } else {
      // [seq, dirs, batch, hidden] -> [batch, seq, dirs, hidden]
      ctx.setOutput(0, store(y, {B, static_cast<int64_t>(seq), D, H}, [&](size_t i) {
                      size_t k = i % hidden, rest = i / hidden;
                      size_t b = rest % batch;
                      rest /= batch;
                      size_t d = rest % dirs, t = rest / dirs;
                      return ((b * seq + t) * dirs + d) * hidden + k;
                    }));
    }
  }
  auto state_out = [&](const std::vector<T>& values) {
    if (layout == 0) return store(values, {D, B, H}, [](size_t i) { return i; });
    return store(values, {B, D, H}, [&](size_t i) {
      size_t k = i % hidden, rest = i / hidden;
      size_t b = rest % batch, d = rest / batch;
      return (b * dirs + d) * hidden + k;
    });
  };
  if (ctx.hasOutput(1)) ctx.setOutput(1, state_out(yh));
  if (kind == RecurrentKind::kLstm && ctx.hasOutput(2)) ctx.setOutput(2, state_out(yc));
  return Status::ok();
}

inline Status runRecurrent(KernelContext& ctx, RecurrentKind kind) {
  const size_t gates = kind == RecurrentKind::kRnn ? 1 : kind == RecurrentKind::kGru ? 3 : 4;
  const size_t per_direction = kind == RecurrentKind::kRnn   ? 1
                               : kind == RecurrentKind::kGru ? 2
                                                             : 3;
  const Array* x_array = ctx.inputArray(0);
  const Array* w_array = ctx.inputArray(1);
  const Array* r_array = ctx.inputArray(2);
  if (x_array == nullptr || w_array == nullptr || r_array == nullptr) {
    return ctx.fail("X, W and R are required tensors");
  }
  if (x_array->rank() != 3 || w_array->rank() != 3 || r_array->rank() != 3) {
    return ctx.fail("X, W and R must be 3-D");
  }
  int64_t layout = ctx.intAttribute("layout").value_or(0);
  if (layout != 0 && layout != 1) return ctx.fail("layout must be 0 or 1");
  std::string direction(ctx.stringAttribute("direction").value_or("forward"));
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    return ctx.fail("direction " + direction + " is not forward, reverse or bidirectional");
  }
  const size_t dirs = direction == "bidirectional" ? 2 : 1;
  const size_t seq = static_cast<size_t>(x_array->dim(layout == 0 ? 0 : 1));
  const size_t batch = static_cast<size_t>(x_array->dim(layout == 0 ? 1 : 0));
  const size_t input = static_cast<size_t>(x_array->dim(2));
  const size_t hidden = static_cast<size_t>(r_array->dim(2));
  if (std::optional<int64_t> h = ctx.intAttribute("hidden_size"); h && *h != r_array->dim(2)) {
    return ctx.fail("hidden_size is " + std::to_string(*h) + ", R says " +
                    std::to_string(r_array->dim(2)));
  }
  const size_t gh = gates * hidden;
  auto shaped = [](const Array* a, std::vector<int64_t> want) {
    return a == nullptr || a->shape() == want;
  };
  const int64_t D = static_cast<int64_t>(dirs), B = static_cast<int64_t>(batch),
                H = static_cast<int64_t>(hidden), G = static_cast<int64_t>(gh);
  if (!shaped(w_array, {D, G, static_cast<int64_t>(input)})) {
    return ctx.fail("W must be [num_directions, " + std::to_string(gates) +
                    "*hidden_size, input_size]");
  }
  if (!shaped(r_array, {D, G, H})) {
    return ctx.fail("R must be [num_directions, " + std::to_string(gates) +
                    "*hidden_size, hidden_size]");
  }
  const Array* b_array = ctx.inputArray(3);
  if (!shaped(b_array, {D, 2 * G}))
    return ctx.fail("B must be [num_directions, 2*gates*hidden_size]");
  const Array* lens_array = ctx.inputArray(4);
  if (lens_array != nullptr && lens_array->shape() != std::vector<int64_t>{B}) {
    return ctx.fail("sequence_lens must be [batch_size]");
  }
  std::vector<int64_t> state_shape =
      layout == 0 ? std::vector<int64_t>{D, B, H} : std::vector<int64_t>{B, D, H};
  const Array* h0_array = ctx.inputArray(5);
  if (!shaped(h0_array, state_shape)) return ctx.fail("initial_h does not have the state's shape");
  const Array* c0_array = kind == RecurrentKind::kLstm ? ctx.inputArray(6) : nullptr;
  if (!shaped(c0_array, state_shape)) return ctx.fail("initial_c does not have the state's shape");
  const Array* p_array = kind == RecurrentKind::kLstm ? ctx.inputArray(7) : nullptr;
  if (!shaped(p_array, {D, 3 * H})) return ctx.fail("P must be [num_directions, 3*hidden_size]");

  std::vector<int64_t> lens(batch, static_cast<int64_t>(seq));
  if (lens_array != nullptr) {
    std::optional<std::vector<int64_t>> given = integersOf(*lens_array);
    if (!given) return ctx.fail("sequence_lens must be int32");
    for (size_t b = 0; b < batch; ++b) {
      if ((*given)[b] < 0 || (*given)[b] > static_cast<int64_t>(seq)) {
        return ctx.fail("sequence_lens[" + std::to_string(b) + "] is outside [0, seq_length]");
      }
      lens[b] = (*given)[b];
    }
  }
  // Activations: per_direction of them for each direction.
  std::vector<std::string> names;
  if (const Attribute* attribute = ctx.attribute("activations"); attribute != nullptr) {
    for (std::string_view name : attribute->rare().strings) names.emplace_back(name);
  }
  if (names.empty()) {
    if (kind == RecurrentKind::kRnn) names = {"Tanh"};
    if (kind == RecurrentKind::kGru) names = {"Sigmoid", "Tanh"};
    if (kind == RecurrentKind::kLstm) names = {"Sigmoid", "Tanh", "Tanh"};
  }
  // RNN's schema default lists two; a single direction uses the first.
  if (names.size() > per_direction * dirs && kind == RecurrentKind::kRnn) names.resize(dirs);
  if (names.size() == per_direction && dirs == 2) {
    std::vector<std::string> twice = names;
    names.insert(names.end(), twice.begin(), twice.end());
  }
  if (names.size() != per_direction * dirs) {
    return ctx.fail("activations needs " + std::to_string(per_direction * dirs) + " names");
  }
  std::vector<float> alphas =
      ctx.floatsAttribute("activation_alpha").value_or(std::vector<float>{});
  std::vector<float> betas = ctx.floatsAttribute("activation_beta").value_or(std::vector<float>{});
  size_t next_alpha = 0, next_beta = 0;
  std::vector<RecurrentActivation> activations;
  for (const std::string& name : names) {
    int uses = 0;
    std::optional<RecurrentActivation> activation = recurrentActivation(name, uses);
    if (!activation) return ctx.fail("unknown activation " + name);
    if (uses >= 1 && next_alpha < alphas.size()) activation->alpha = alphas[next_alpha++];
    if (uses >= 2 && next_beta < betas.size()) activation->beta = betas[next_beta++];
    activations.push_back(*activation);
  }
  std::optional<float> clip_attribute = ctx.floatAttribute("clip");
  if (clip_attribute && !(*clip_attribute > 0)) return ctx.fail("clip must be positive");
  RecurrentSetup setup{
      .kind = kind,
      .gates = gates,
      .per_direction = per_direction,
      .dirs = dirs,
      .seq = seq,
      .batch = batch,
      .input = input,
      .hidden = hidden,
      .layout = layout,
      .reverse_only = direction == "reverse",
      .lens = std::move(lens),
      .activations = std::move(activations),
      .clip = clip_attribute,
      .linear_before_reset = ctx.intAttribute("linear_before_reset").value_or(0) != 0,
      .input_forget = ctx.intAttribute("input_forget").value_or(0) != 0};
  // Float tensors compute in float, as onnxruntime's kernels do; the others in double.
  if (x_array->type() == ElementType::kFloat) return runRecurrentAs<float>(ctx, setup);
  return runRecurrentAs<double>(ctx, setup);
}

}  // namespace onyx::ops
