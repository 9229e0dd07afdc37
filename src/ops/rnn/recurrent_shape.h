// Internal: the output shapes RNN, GRU and LSTM share.
#pragma once

#include "onyx/ops/inference_context.h"

namespace onyx::ops {

/// X is (seq_length, batch_size, input_size), or (batch_size, seq_length, input_size) with
/// layout = 1. Y is (seq_length, num_directions, batch_size, hidden_size) (layout 1:
/// batch_size first); Y_h and LSTM's Y_c are (num_directions, batch_size, hidden_size)
/// (layout 1: batch_size first). hidden_size is the attribute, else R's last dimension.
void inferRecurrent(InferenceContext& ctx);

}  // namespace onyx::ops
