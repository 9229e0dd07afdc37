// Internal: version adapters that many operators share (OpSchema::step). An adapter that
// only one operator needs lives in that operator's file.
#pragma once

#include "onyx/core/status.h"
#include "ops/node_draft.h"

namespace onyx::ops {

/// Up from a version with the legacy `consumed_inputs` attribute (an in-place hint of
/// opset 1 that later versions dropped): the hint goes; nothing else changes.
Status dropConsumedInputs(NodeDraft& draft);

// ---- broadcasting (the binary operators before opset 7) ----------------------------------

/// Up to the numpy broadcasting of opset 7, which lines the second input up with the first's
/// last dimensions, from the legacy `broadcast`/`axis`, which stretch it over the first from
/// `axis` on. Where the two differ, a constant second input takes the trailing 1s that make
/// them agree; any other is refused (it would need an Unsqueeze node).
Status legacyBroadcastToNumpy(NodeDraft& draft);
/// Down to legacy broadcasting, which stretches only the second input, over the first, and
/// only when it has the first's last dimensions or one element; equal shapes need none.
Status numpyBroadcastToLegacy(NodeDraft& draft);
/// The step of the binary operators to opset 7 (Add, Sub, Mul, Div, Pow, And, Or, Xor,
/// Equal, Greater, Less), written once for all of them.
inline constexpr VersionStep kNumpyBroadcastStep = {
    .reviewed = true,
    .change = "numpy broadcasting replaces broadcast/axis",
    .up = legacyBroadcastToNumpy,
    .down = numpyBroadcastToLegacy,
    .up_refuses = "axis off the first input's last dimensions, the second input not a constant",
    .down_refuses =
        "the second input not known to be the first's shape, its last dimensions or "
        "one element"};
/// Down to a variadic version that does not broadcast: every input must be known to have
/// the first one's shape.
Status requireOneShape(NodeDraft& draft);

// ---- axes counted from the back ----------------------------------------------------------

/// Down to a version that does not count `axis` from the back: a negative axis becomes
/// axis + the first input's rank, which must be known.
Status axisFromFront(NodeDraft& draft);
/// The same for every entry of `axes`.
Status axesFromFront(NodeDraft& draft);

// ---- the reductions' axes, attribute and input -------------------------------------------

/// Up to the version that takes `axes` as input 1. No axes, or an empty list, reduces over
/// all axes in both versions (noop_with_empty_axes is 0 by default).
Status axesAttributeToInput(NodeDraft& draft);
/// Down to the version that takes `axes` as an attribute: the input must be a constant, and
/// noop_with_empty_axes must not apply (the older version cannot reduce over no axes).
Status axesInputToAttribute(NodeDraft& draft);

// ---- families: recurrent, Lp pooling, float8 casts, scatters, quantization, arg extremes ---

/// Version 7 drops output_sequence: a Y the node names is produced, as output_sequence 1 said.
Status dropOutputSequence(NodeDraft& draft);
/// Back before version 7, a node that names Y says output_sequence 1: with 0, Y is optional.
Status keepOutputSequence(NodeDraft& draft);
/// Down from version 14: only layout 0 (sequence first), the one the older versions have.
Status dropLayout(NodeDraft& draft);
/// Version 2 makes p an int (its default 2, as 2.0 was): a whole float p becomes that int.
Status pToInt(NodeDraft& draft);
/// Back to version 1's float p.
Status pToFloat(NodeDraft& draft);
/// Down to version 13: saturate applies to the float8 types only, which version 13 lacks.
Status dropSaturate(NodeDraft& draft);
/// Down to version 16, which reduces by none, add or mul only.
Status refuseMaxMin(NodeDraft& draft);
/// Down to version 10, which quantizes per tensor only (a scalar scale) and has no axis.
Status perTensorOnly(NodeDraft& draft);
/// Softmax, LogSoftmax and Hardmax across version 13: versions 1 and 11 work on the input
/// coerced to 2-D, over every dimension from axis on, version 13 along axis alone. The two
/// agree when every dimension after axis is 1 (axis -1 always); the axis is written out, as
/// its default changed from 1 to -1. Going down, another axis of an input of known rank is
/// moved last by a Transpose before the node and back by one after it; going up, a static
/// input is flattened at axis before the node and reshaped back after it.
Status alongOneAxis(NodeDraft& draft);
/// Down to version 11, which picks the first of equal extremes: select_last_index must be 0.
Status dropSelectLastIndex(NodeDraft& draft);

}  // namespace onyx::ops
