// Internal: the kernels of Einsum and Det.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "onyx/core/quote.h"
#include "ops/kernels.h"
#include "ops/math/matmul_kernels.h"

namespace onyx::ops {

namespace einsum_detail {

constexpr int kLetters = 52;  // a-z then A-Z; ellipsis axes take the ids after them

inline int letterId(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

// One side of a term: its letters, and where "..." stands (-1 when absent).
struct Term {
  std::vector<int> letters;
  int ellipsis_at = -1;
};

// Parses "ab...c" (spaces already removed); false on anything else.
inline bool parseTerm(std::string_view text, Term& term) {
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i, 3) == "...") {
      if (term.ellipsis_at >= 0) return false;
      term.ellipsis_at = static_cast<int>(term.letters.size());
      i += 3;
      continue;
    }
    int id = letterId(text[i]);
    if (id < 0) return false;
    term.letters.push_back(id);
    ++i;
  }
  return true;
}

}  // namespace einsum_detail

/// Einsum: numpy's einsum over the inputs (explicit "->" output or the implicit one: the
/// ellipsis axes, then the letters seen once, in ASCII order). Repeated letters in one input
/// take diagonals; size-1 axes broadcast. Every output element sums its products in the
/// row-major order of the summed labels.
inline Status runEinsumKernel(KernelContext& ctx) {
  using namespace einsum_detail;
  std::string equation(ctx.stringAttribute("equation").value_or(""));
  equation.erase(std::remove_if(equation.begin(), equation.end(),
                                [](char c) { return c == ' ' || c == '\t' || c == '\n'; }),
                 equation.end());
  size_t arrow = equation.find("->");
  std::string left = equation.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    size_t comma = left.find(',', start);
    Term term;
    if (!parseTerm(std::string_view(left).substr(
                       start, comma == std::string::npos ? std::string::npos : comma - start),
                   term)) {
      return ctx.fail("cannot read the equation " + quoted(equation));
    }
    terms.push_back(std::move(term));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  size_t inputs = ctx.inputCount();
  if (terms.size() != inputs)
    return ctx.fail("the equation's terms and the inputs differ in number");
  std::vector<const Array*> arrays(inputs);
  ElementType type = ElementType::kFloat;
  for (size_t j = 0; j < inputs; ++j) {
    arrays[j] = ctx.inputArray(j);
    if (arrays[j] == nullptr) return ctx.fail("every input must be a tensor");
    if (j == 0) type = arrays[j]->type();
    if (arrays[j]->type() != type) return ctx.fail("inputs of different element types");
  }
  // The ellipsis axes of each input, right-aligned to the widest.
  size_t ellipsis_rank = 0;
  for (size_t j = 0; j < inputs; ++j) {
    size_t rank = arrays[j]->rank();
    if (terms[j].ellipsis_at < 0) {
      if (rank != terms[j].letters.size()) {
        return ctx.fail("input " + std::to_string(j) + " has rank " + std::to_string(rank) +
                        " but its term has " + std::to_string(terms[j].letters.size()) +
                        " letters");
      }
    } else {
      if (rank < terms[j].letters.size()) {
        return ctx.fail("input " + std::to_string(j) + " has too few axes for its term");
      }
      ellipsis_rank = std::max(ellipsis_rank, rank - terms[j].letters.size());
    }
  }
  size_t labels = kLetters + ellipsis_rank;
  std::vector<int64_t> size(labels, -1);
  std::vector<int> seen(labels, 0);
  // Each input's axes as label ids.
  std::vector<std::vector<int>> axes_of(inputs);
  for (size_t j = 0; j < inputs; ++j) {
    const Term& term = terms[j];
    size_t rank = arrays[j]->rank();
    size_t own_ellipsis = term.ellipsis_at < 0 ? 0 : rank - term.letters.size();
    for (size_t i = 0; i < term.letters.size(); ++i) {
      if (static_cast<int>(i) == term.ellipsis_at) {
        for (size_t e = 0; e < own_ellipsis; ++e) {
          axes_of[j].push_back(static_cast<int>(kLetters + ellipsis_rank - own_ellipsis + e));
        }
      }
      axes_of[j].push_back(term.letters[i]);
    }
    if (term.ellipsis_at == static_cast<int>(term.letters.size())) {
      for (size_t e = 0; e < own_ellipsis; ++e) {
        axes_of[j].push_back(static_cast<int>(kLetters + ellipsis_rank - own_ellipsis + e));
      }
    }
    for (size_t a = 0; a < rank; ++a) {
      int label = axes_of[j][a];
      int64_t dim = arrays[j]->dim(a);
      if (label < kLetters) ++seen[label];
      if (size[label] < 0 || size[label] == 1) {
        size[label] = dim;
      } else if (dim != 1 && dim != size[label]) {
        return ctx.fail("sizes " + std::to_string(size[label]) + " and " + std::to_string(dim) +
                        " of one label differ");
      }
    }
  }
  for (size_t e = 0; e < ellipsis_rank; ++e) {
    if (size[kLetters + e] < 0) size[kLetters + e] = 1;
  }
  std::vector<int> out_labels;
  if (arrow != std::string::npos) {
    Term out_term;
    if (!parseTerm(std::string_view(equation).substr(arrow + 2), out_term)) {
      return ctx.fail("cannot read the equation's output " + quoted(equation.substr(arrow + 2)));
    }
    for (size_t i = 0; i <= out_term.letters.size(); ++i) {
      if (static_cast<int>(i) == out_term.ellipsis_at) {
        for (size_t e = 0; e < ellipsis_rank; ++e)
          out_labels.push_back(static_cast<int>(kLetters + e));
      }
      if (i < out_term.letters.size()) out_labels.push_back(out_term.letters[i]);
    }
    if (out_term.ellipsis_at < 0 && ellipsis_rank > 0) {
      return ctx.fail("the inputs have '...' axes but the output does not say where they go");
    }
  } else {
    for (size_t e = 0; e < ellipsis_rank; ++e) out_labels.push_back(static_cast<int>(kLetters + e));
    // ASCII order: upper case before lower case.
    for (int id = 26; id < kLetters; ++id) {
      if (seen[id] == 1) out_labels.push_back(id);
    }
    for (int id = 0; id < 26; ++id) {
      if (seen[id] == 1) out_labels.push_back(id);
    }
  }
  std::vector<bool> in_output(labels, false);
  for (int label : out_labels) {
    if (size[label] < 0) return ctx.fail("an output label does not occur in the inputs");
    if (in_output[label]) return ctx.fail("an output label is repeated");
    in_output[label] = true;
  }
  std::vector<int> sum_labels;
  for (size_t label = 0; label < labels; ++label) {
    if (size[label] >= 0 && !in_output[label]) sum_labels.push_back(static_cast<int>(label));
  }
  // Per input, the stride of each label (summed over its repeats; 0 where it broadcasts).
  std::vector<std::vector<size_t>> stride(inputs, std::vector<size_t>(labels, 0));
  for (size_t j = 0; j < inputs; ++j) {
    std::vector<size_t> strides = stridesOf(arrays[j]->shape());
    for (size_t a = 0; a < arrays[j]->rank(); ++a) {
      int label = axes_of[j][a];
      if (arrays[j]->dim(a) != 1 || size[label] == 1) stride[j][label] += strides[a];
    }
  }
  std::vector<int64_t> out_shape;
  for (int label : out_labels) out_shape.push_back(size[label]);
  std::vector<int64_t> sum_dims;
  for (int label : sum_labels) sum_dims.push_back(size[label]);
  std::vector<Array> wide(inputs);
  for (size_t j = 0; j < inputs; ++j) wide[j] = widenToFloat(*arrays[j]);
  ElementType computed = wide[0].type();
  Result<Array> made = Array::allocate(computed, out_shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  size_t sum_count = 1;
  for (int64_t dim : sum_dims) sum_count *= static_cast<size_t>(dim);
  bool ok = dispatchMatmul(computed, [&]<class T>() {
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
    std::vector<const T*> data(inputs);
    for (size_t j = 0; j < inputs; ++j) data[j] = wide[j].data<T>();
    T* result = out.data<T>();
    parallelFor(ctx, out.size(), std::max<size_t>(1, 4096 / std::max<size_t>(1, sum_count)),
                [&](size_t begin, size_t end) {
                  std::vector<size_t> base(inputs), offset(inputs);
                  std::vector<int64_t> index(sum_labels.size());
                  for (size_t o = begin; o < end; ++o) {
                    std::fill(base.begin(), base.end(), size_t{0});
                    size_t rest = o;
                    for (size_t d = out_labels.size(); d-- > 0;) {
                      size_t coordinate = rest % static_cast<size_t>(out_shape[d]);
                      rest /= static_cast<size_t>(out_shape[d]);
                      for (size_t j = 0; j < inputs; ++j) {
                        base[j] += coordinate * stride[j][out_labels[d]];
                      }
                    }
                    offset = base;
                    std::fill(index.begin(), index.end(), 0);
                    Acc acc = Acc(0);
                    for (size_t s = 0; s < sum_count; ++s) {
                      Acc product = static_cast<Acc>(data[0][offset[0]]);
                      for (size_t j = 1; j < inputs; ++j) {
                        product = mulAdd(Acc(0), product, static_cast<Acc>(data[j][offset[j]]));
                      }
                      acc = mulAdd(acc, product, Acc(1));
                      for (size_t d = sum_labels.size(); d-- > 0;) {
                        int label = sum_labels[d];
                        if (++index[d] < sum_dims[d]) {
                          for (size_t j = 0; j < inputs; ++j) offset[j] += stride[j][label];
                          break;
                        }
                        for (size_t j = 0; j < inputs; ++j) {
                          offset[j] -= stride[j][label] * static_cast<size_t>(sum_dims[d] - 1);
                        }
                        index[d] = 0;
                      }
                    }
                    result[o] = static_cast<T>(acc);
                  }
                });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(type)));
  ctx.setOutput(0, narrowFromFloat(out, type));
  return Status::ok();
}

/// Det: the determinants of X [*, M, M] by LU decomposition with partial pivoting, in double.
inline Status runDetKernel(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  size_t rank = x->rank();
  if (rank < 2 || x->dim(rank - 1) != x->dim(rank - 2)) {
    return ctx.fail("X must hold square matrices ([*, M, M])");
  }
  size_t m = static_cast<size_t>(x->dim(rank - 1));
  std::vector<int64_t> shape(x->shape().begin(), x->shape().end() - 2);
  Array wide = widenToFloat(*x);
  Array out(wide.type(), shape);
  bool ok = dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    parallelFor(ctx, out.size(), 1, [&](size_t begin, size_t end) {
      std::vector<double> a(m * m);
      for (size_t b = begin; b < end; ++b) {
        for (size_t i = 0; i < m * m; ++i) a[i] = static_cast<double>(in[b * m * m + i]);
        double det = 1;
        for (size_t c = 0; c < m; ++c) {
          size_t pivot = c;
          for (size_t r = c + 1; r < m; ++r) {
            if (std::fabs(a[r * m + c]) > std::fabs(a[pivot * m + c])) pivot = r;
          }
          if (a[pivot * m + c] == 0) {
            det = 0;
            break;
          }
          if (pivot != c) {
            for (size_t k = 0; k < m; ++k) std::swap(a[c * m + k], a[pivot * m + k]);
            det = -det;
          }
          double diagonal = a[c * m + c];
          det *= diagonal;
          for (size_t r = c + 1; r < m; ++r) {
            double factor = a[r * m + c] / diagonal;
            if (factor == 0) continue;
            for (size_t k = c; k < m; ++k) a[r * m + k] -= factor * a[c * m + k];
          }
        }
        result[b] = static_cast<T>(det);
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(out, x->type()));
  return Status::ok();
}

}  // namespace onyx::ops
