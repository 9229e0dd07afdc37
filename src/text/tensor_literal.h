// Internal: a TensorProto as a tensor literal of the text syntax.
//
// onnx's parser reads a literal's elements into the typed field the element type uses, one
// number per field element: int32_data for the 8- and 16-bit types, BOOL and the narrow
// floats (as bit patterns: FLOAT16 1.0 is 15360), int64_data, uint64_data (UINT32 and UINT64),
// float_data (FLOAT, COMPLEX64 as real, imaginary pairs), double_data, string_data. The
// 2- and 4-bit types are the exception worth knowing: onnx.proto packs two (four) of their
// elements into each int32_data entry, and the parser stores each literal number as one
// entry, so their literals are the packed bytes, not the elements.
#pragma once

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "text/loss_log.h"
#include "text/text_writer.h"

namespace onyx::text {

/// Where a literal stands, which decides how its name may be written.
enum class TensorPlace {
  kInitializer,  // `type name = data` in a graph's lists: the name may be quoted
  kAttribute,    // `type name data` as an attribute value: the name must be an identifier
};

struct TensorFormat {
  TensorPlace place = TensorPlace::kAttribute;
  bool write_data = true;  // false: walk the data for losses but write no elements
  int indent = 0;          // of the line the literal starts on, for wrapped elements
  int indent_unit = 2;
  /// A literal of more elements writes only its first `elided_shown` and a count
  /// (PrintOptions::elide_tensors_over); 0: every element.
  uint64_t elide_over = 0;
  uint64_t elided_shown = 0;
};

/// The row of the element type a literal can be written for, or null: tensors of an element
/// type the syntax has no name for (UNDEFINED, unknown codes) cannot be written.
const ElementTypeInfo* literalElementType(const Tensor& tensor);

/// Writes `tensor` as a literal, recording in `log` (at the tensor's place) what the
/// literal cannot hold. Call only when literalElementType(tensor) is not null.
void writeTensorLiteral(TextWriter& writer, LossLog& log, const Tensor& tensor,
                        const TensorFormat& format);

}  // namespace onyx::text
