// Internal: one kernel for RNN, GRU and LSTM (directions, layouts, sequence lengths, initial
// states, activations, clip, GRU's linear_before_reset, LSTM's peepholes and input_forget).
// It computes in double and stores the results in X's element type.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ir/attribute.h"
#include "ops/kernels.h"

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

  double operator()(double x) const {
    switch (kind) {
      case Kind::kRelu: return x > 0 ? x : 0;
      case Kind::kTanh: return std::tanh(x);
      case Kind::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
      case Kind::kAffine: return alpha * x + beta;
      case Kind::kLeakyRelu: return x >= 0 ? x : alpha * x;
      case Kind::kThresholdedRelu: return x > alpha ? x : 0;
      case Kind::kScaledTanh: return alpha * std::tanh(beta * x);
      case Kind::kHardSigmoid: return std::clamp(alpha * x + beta, 0.0, 1.0);
      case Kind::kElu: return x >= 0 ? x : alpha * (std::exp(x) - 1);
      case Kind::kSoftsign: return x / (1 + std::abs(x));
      case Kind::kSoftplus: return std::log1p(std::exp(x));
    }
    return x;
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

/// A tensor input's elements as doubles (empty when absent).
inline std::vector<double> recurrentValues(const Array* array) {
  std::vector<double> values;
  if (array == nullptr) return values;
  values.resize(array->size());
  for (size_t i = 0; i < values.size(); ++i) values[i] = elementAsDouble(*array, i);
  return values;
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
  double clip = clip_attribute ? *clip_attribute : 0;
  if (clip_attribute && !(clip > 0)) return ctx.fail("clip must be positive");
  bool linear_before_reset = ctx.intAttribute("linear_before_reset").value_or(0) != 0;
  bool input_forget = ctx.intAttribute("input_forget").value_or(0) != 0;

  std::vector<double> x = recurrentValues(x_array), w = recurrentValues(w_array),
                      r = recurrentValues(r_array), bias = recurrentValues(b_array),
                      h0 = recurrentValues(h0_array), c0 = recurrentValues(c0_array),
                      peep = recurrentValues(p_array);
  auto x_at = [&](size_t t, size_t b) {
    return x.data() + (layout == 0 ? (t * batch + b) : (b * seq + t)) * input;
  };
  auto state_index = [&](size_t d, size_t b) {
    return (layout == 0 ? (d * batch + b) : (b * dirs + d)) * hidden;
  };
  // Results in layout 0: Y [seq, dirs, batch, hidden], Y_h / Y_c [dirs, batch, hidden].
  std::vector<double> y(seq * dirs * batch * hidden, 0.0);
  std::vector<double> yh(dirs * batch * hidden, 0.0), yc(dirs * batch * hidden, 0.0);
  auto clipped = [&](double v) { return clip_attribute ? std::clamp(v, -clip, clip) : v; };
  for (size_t d = 0; d < dirs; ++d) {
    bool reverse = direction == "reverse" || d == 1;
    const double* wd = w.data() + d * gh * input;
    const double* rd = r.data() + d * gh * hidden;
    const double* wb = bias.empty() ? nullptr : bias.data() + d * 2 * gh;
    const double* rb = bias.empty() ? nullptr : wb + gh;
    const double* pd = peep.empty() ? nullptr : peep.data() + d * 3 * hidden;
    const RecurrentActivation* f = activations.data() + d * per_direction;
    // Batch entries are independent: each writes only its own outputs.
    parallelFor(ctx, batch, 1, [&](size_t begin, size_t end) {
      std::vector<double> pre(gh), h(hidden), c(hidden), gate_z(hidden), rgate(hidden),
          hidden_gate(hidden);
      for (size_t b = begin; b < end; ++b) {
        for (size_t k = 0; k < hidden; ++k) {
          h[k] = h0.empty() ? 0.0 : h0[state_index(d, b) + k];
          c[k] = c0.empty() ? 0.0 : c0[state_index(d, b) + k];
        }
        size_t length = static_cast<size_t>(lens[b]);
        for (size_t s = 0; s < length; ++s) {
          size_t t = reverse ? length - 1 - s : s;
          const double* xt = x_at(t, b);
          // pre = W x + Wb (+ R h + Rb, except GRU's hidden gate, done below).
          for (size_t g = 0; g < gh; ++g) {
            double sum = wb != nullptr ? wb[g] : 0.0;
            const double* row = wd + g * input;
            for (size_t i = 0; i < input; ++i) sum += row[i] * xt[i];
            bool gru_hidden_gate = kind == RecurrentKind::kGru && g >= 2 * hidden;
            if (!gru_hidden_gate) {
              const double* rrow = rd + g * hidden;
              for (size_t i = 0; i < hidden; ++i) sum += rrow[i] * h[i];
              if (rb != nullptr) sum += rb[g];
            }
            pre[g] = sum;
          }
          if (kind == RecurrentKind::kRnn) {
            for (size_t k = 0; k < hidden; ++k) h[k] = f[0](clipped(pre[k]));
          } else if (kind == RecurrentKind::kGru) {
            // Gates z, r, h.
            std::vector<double>& z = gate_z;
            for (size_t k = 0; k < hidden; ++k) {
              z[k] = f[0](clipped(pre[k]));
              rgate[k] = f[0](clipped(pre[hidden + k]));
            }
            for (size_t k = 0; k < hidden; ++k) {
              const double* rrow = rd + (2 * hidden + k) * hidden;
              double rbh = rb != nullptr ? rb[2 * hidden + k] : 0.0;
              double sum = 0;
              if (linear_before_reset) {
                for (size_t i = 0; i < hidden; ++i) sum += rrow[i] * h[i];
                sum = rgate[k] * (sum + rbh);
              } else {
                for (size_t i = 0; i < hidden; ++i) sum += rrow[i] * rgate[i] * h[i];
                sum += rbh;
              }
              hidden_gate[k] = f[1](clipped(pre[2 * hidden + k] + sum));
            }
            for (size_t k = 0; k < hidden; ++k) {
              h[k] = (1 - z[k]) * hidden_gate[k] + z[k] * h[k];
            }
          } else {
            // Gates i, o, f, c; peepholes i, o, f.
            for (size_t k = 0; k < hidden; ++k) {
              double pi = pd != nullptr ? pd[k] : 0.0;
              double po = pd != nullptr ? pd[hidden + k] : 0.0;
              double pf = pd != nullptr ? pd[2 * hidden + k] : 0.0;
              double ig = f[0](clipped(pre[k] + pi * c[k]));
              double fg = input_forget ? 1 - ig : f[0](clipped(pre[2 * hidden + k] + pf * c[k]));
              double cg = f[1](clipped(pre[3 * hidden + k]));
              double cell = fg * c[k] + ig * cg;
              double og = f[0](clipped(pre[hidden + k] + po * cell));
              c[k] = cell;
              h[k] = og * f[2](cell);
            }
          }
          double* yt = y.data() + ((t * dirs + d) * batch + b) * hidden;
          std::copy(h.begin(), h.end(), yt);
        }
        std::copy(h.begin(), h.end(),
                  yh.begin() + static_cast<std::ptrdiff_t>((d * batch + b) * hidden));
        std::copy(c.begin(), c.end(),
                  yc.begin() + static_cast<std::ptrdiff_t>((d * batch + b) * hidden));
      }
    });
  }
  ElementType type = x_array->type();
  auto store = [&](const std::vector<double>& values, std::vector<int64_t> shape, auto index_of) {
    Array out(type, std::move(shape));
    for (size_t i = 0; i < values.size(); ++i) storeDouble(out, index_of(i), values[i]);
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
  auto state_out = [&](const std::vector<double>& values) {
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

}  // namespace onyx::ops
