// Internal: the output shapes RNN, GRU and LSTM share.
#pragma once

#include <string>

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// X is (seq_length, batch_size, input_size), or (batch_size, seq_length, input_size) with
/// layout = 1. Y is (seq_length, num_directions, batch_size, hidden_size) (layout 1:
/// batch_size first); Y_h and LSTM's Y_c are (num_directions, batch_size, hidden_size)
/// (layout 1: batch_size first). hidden_size is the attribute, else R's last dimension.
inline void inferRecurrent(InferenceContext& ctx);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

inline void inferRecurrent(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() != 3) {
    ctx.fail("X has rank " + std::to_string(input->size()) + "; a recurrent operator needs 3");
    return;
  }
  int64_t layout = ctx.intAttribute("layout").value_or(0);
  if (layout != 0 && layout != 1) {
    ctx.fail("layout is " + std::to_string(layout) + "; it must be 0 or 1");
    return;
  }
  DimValue sequence = (*input)[layout == 0 ? 0 : 1];
  DimValue batch = (*input)[layout == 0 ? 1 : 0];
  bool bidirectional = ctx.stringAttribute("direction").value_or("forward") == "bidirectional";
  DimValue directions = DimValue::known(bidirectional ? 2 : 1);
  DimValue hidden = ctx.dims().fresh();
  if (std::optional<int64_t> size = ctx.intAttribute("hidden_size")) {
    if (*size <= 0) {
      ctx.fail("hidden_size is " + std::to_string(*size) + "; it must be positive");
      return;
    }
    hidden = DimValue::known(*size);
  } else if (const Dims* recurrence = ctx.inputShape(2);
             recurrence != nullptr && recurrence->size() == 3) {
    hidden = (*recurrence)[2];
  }
  if (ctx.hasOutput(0)) {
    if (layout == 0) {
      ctx.setOutputShape(0, {sequence, directions, batch, hidden});
    } else {
      ctx.setOutputShape(0, {batch, sequence, directions, hidden});
    }
  }
  for (size_t i = 1; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    if (layout == 0) {
      ctx.setOutputShape(i, {directions, batch, hidden});
    } else {
      ctx.setOutputShape(i, {batch, directions, hidden});
    }
  }
}

}  // namespace onyx::ops
