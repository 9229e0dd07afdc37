// The sparse-tensor rules R76–R82. The indices are read where they lie (raw_data, int64_data
// or the mapped external file), one value at a time, never copied: the check is linear in
// their size and allocates only one coordinate tuple.
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "check/value_rules.h"
#include "check/value_text.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor_data.h"
#include "wire/reader.h"

namespace onyx::check {

namespace {

// Reads int64 values in order from raw little-endian bytes or from a packed varint payload.
class IndexStream {
 public:
  static IndexStream words(std::string_view bytes) { return IndexStream(bytes, false); }
  static IndexStream varints(std::string_view payload) { return IndexStream(payload, true); }

  /// False when the data ends (or a varint is malformed) before a value.
  bool next(int64_t& value) {
    if (varints_) {
      uint64_t raw = 0;
      if (!reader_.readVarint(raw)) return false;
      value = static_cast<int64_t>(raw);
      return true;
    }
    if (bytes_.size() - at_ < 8) return false;
    std::memcpy(&value, bytes_.data() + at_, 8);  // little-endian, as is every onyx target
    at_ += 8;
    return true;
  }

 private:
  IndexStream(std::string_view bytes, bool varints)
      : bytes_(bytes), reader_(bytes), varints_(varints) {}
  std::string_view bytes_;
  size_t at_ = 0;
  wire::Reader reader_;
  bool varints_;
};

// Counts problems of one kind and keeps the first, so that a million bad indices make one
// diagnostic, not a million.
struct FirstProblem {
  std::string text;
  uint64_t count = 0;
  void add(std::string description) {
    if (count++ == 0) text = std::move(description);
  }
  void report(std::string_view rule, const std::string& path, std::string_view summary,
              Diagnostics& out) const {
    if (count == 0) return;
    std::string message = text;
    if (count > 1) {
      message += " (" + std::to_string(count) + " indices ";
      message += summary;
      message += ")";
    }
    out.error(rule, path, std::move(message));
  }
};

std::string at(uint64_t i) { return "[" + std::to_string(i) + "]"; }

// R79, R80 over linear indices: each in [0, dense_size), strictly ascending.
void checkLinearIndices(IndexStream stream, uint64_t nnz, uint64_t dense_size,
                        const std::string& shape, const std::string& path, Diagnostics& out) {
  FirstProblem outside;
  FirstProblem unordered;
  int64_t previous = -1;
  for (uint64_t i = 0; i < nnz; ++i) {
    int64_t index = 0;
    if (!stream.next(index)) break;  // counted beforehand; a malformed varint ends the walk
    if (index < 0 || static_cast<uint64_t>(index) >= dense_size) {
      outside.add("indices" + at(i) + " is " + std::to_string(index) + ", outside the " +
                  std::to_string(dense_size) + " positions of the dense shape " + shape);
    }
    if (i > 0 && index <= previous) {
      unordered.add("indices" + at(i) + " (" + std::to_string(index) +
                    ") does not come after indices" + at(i - 1) + " (" + std::to_string(previous) +
                    "); indices must be strictly ascending, without repeats");
    }
    previous = index;
  }
  outside.report("R79", path + ".indices", "are out of range", out);
  unordered.report("R80", path + ".indices", "are out of order", out);
}

// R79, R80 over coordinate tuples [NNZ, rank]: coordinate j in [0, dims[j]), tuples in
// strictly ascending lexicographic order.
void checkCoordinateIndices(IndexStream stream, uint64_t nnz, std::span<const int64_t> dims,
                            const std::string& path, Diagnostics& out) {
  const size_t rank = dims.size();
  FirstProblem outside;
  FirstProblem unordered;
  std::vector<int64_t> previous(rank);
  std::vector<int64_t> current(rank);
  for (uint64_t i = 0; i < nnz; ++i) {
    for (size_t j = 0; j < rank; ++j) {
      if (!stream.next(current[j])) return;
      if (current[j] < 0 || current[j] >= dims[j]) {
        outside.add("indices[" + std::to_string(i) + ", " + std::to_string(j) + "] is " +
                    std::to_string(current[j]) + ", outside [0, " + std::to_string(dims[j]) +
                    ") for dims[" + std::to_string(j) + "]");
      }
    }
    if (i > 0 && !std::lexicographical_compare(previous.begin(), previous.end(), current.begin(),
                                               current.end())) {
      unordered.add("indices" + at(i) + " " + formatDims(current) + " does not come after indices" +
                    at(i - 1) + " " + formatDims(previous) +
                    "; index tuples must be strictly ascending in lexicographic order");
    }
    previous.swap(current);
  }
  outside.report("R79", path + ".indices", "are out of range", out);
  unordered.report("R80", path + ".indices", "are out of order", out);
}

// R81: a stream over exactly `needed` index values, or nullopt (reported) when the indices
// tensor does not hold them where they can be read.
std::optional<IndexStream> indexData(const Tensor& indices, uint64_t needed,
                                     const ValueContext& context, const std::string& path,
                                     Diagnostics& out) {
  const std::string where = path + ".indices";
  auto holds = [&](uint64_t held) {
    if (held == needed) return true;
    out.error("R81", where,
              "the indices tensor holds " + countOf(held, "value", "values") +
                  "; its layout needs " + std::to_string(needed));
    return false;
  };
  auto fromBytes = [&](std::string_view bytes) -> std::optional<IndexStream> {
    if (bytes.size() % 8 != 0) {
      out.error("R81", where,
                "the indices' data has " + countOf(bytes.size(), "byte", "bytes") +
                    ", not a whole number of int64 values; " + std::to_string(needed) +
                    " are needed");
      return std::nullopt;
    }
    if (!holds(bytes.size() / 8)) return std::nullopt;
    return IndexStream::words(bytes);
  };
  const TensorRareFields& more = indices.rare();
  switch (tensorStorage(indices)) {
    case TensorStorage::kExternal:
      if (!more.external_bytes) {
        if (!context.open_external_files) return std::nullopt;  // asked to read the model alone
        out.warning("R81", where,
                    "the indices are in an external file that was not loaded, so their bounds "
                    "and order were not checked");
        return std::nullopt;
      }
      return fromBytes(*more.external_bytes);
    case TensorStorage::kRaw: return fromBytes(*indices.raw_data);
    case TensorStorage::kTyped:
      if (more.int64_data.count == 0) break;
      if (!holds(more.int64_data.count)) return std::nullopt;
      return IndexStream::varints(more.int64_data.payload);
    case TensorStorage::kNone:
    case TensorStorage::kStrings:
    case TensorStorage::kComputed: break;  // no pass computes indices
  }
  if (needed != 0) {
    out.error("R81", where,
              "no int64_data or raw_data holds the " + std::to_string(needed) +
                  " index values, so they cannot be read");
  }
  return std::nullopt;
}

}  // namespace

void checkSparseTensor(const SparseTensor& sparse, const ValueContext& context,
                       const std::string& path, Diagnostics& out) {
  ValueContext inner = context;
  inner.is_initializer = false;  // the tensors inside are parts, not initializers

  // R76, R82: values is a rank-1 tensor [NNZ], named for a sparse initializer.
  std::optional<uint64_t> nnz;
  if (sparse.values == nullptr) {
    out.error("R76", path + ".values",
              "values is missing; a sparse tensor keeps its non-zero values there");
  } else {
    const Tensor& values = *sparse.values;
    checkTensor(values, inner, path + ".values", out);
    if (values.dims.size() != 1) {
      out.error("R76", path + ".values",
                "values has dims " + formatDims({values.dims.begin(), values.dims.size()}) +
                    "; it must be rank 1, one entry per stored value ([NNZ])");
    } else if (values.dims[0] >= 0) {
      nnz = static_cast<uint64_t>(values.dims[0]);
    }
    if (context.is_initializer && values.nameOrEmpty().empty()) {
      out.error("R82", path + ".values",
                "a sparse initializer is named by values.name, which is empty");
    }
  }

  // R77: a dense shape of rank >= 1 with positive dims whose size int64 can count.
  const std::span<const int64_t> dims(sparse.dims.begin(), sparse.dims.size());
  bool dims_ok = true;
  if (dims.empty()) {
    dims_ok = false;
    out.error("R77", path + ".dims",
              "dims is empty; the dense shape of a sparse tensor has rank 1 or more");
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] <= 0) {
      dims_ok = false;
      out.error("R77", path + ".dims[" + std::to_string(i) + "]",
                "dims[" + std::to_string(i) + "] is " + std::to_string(dims[i]) +
                    "; the dims of a sparse tensor must be positive");
    }
  }
  uint64_t dense_size = 0;
  if (dims_ok) {
    auto count = elementCount(dims);
    if (!count) {
      dims_ok = false;
      out.error("R77", path + ".dims",
                "dims " + formatDims(dims) + " have more positions than int64 can count");
    } else {
      dense_size = *count;
    }
  }

  // R78: indices of layout [NNZ] or [NNZ, rank], int64; absent only when there is no value.
  if (sparse.indices == nullptr) {
    if (nnz && *nnz > 0) {
      out.error("R78", path + ".indices",
                "indices is missing; it may be left out only when there are no values, and "
                "there are " +
                    std::to_string(*nnz));
    }
    return;
  }
  const Tensor& indices = *sparse.indices;
  checkTensor(indices, inner, path + ".indices", out);
  const std::span<const int64_t> index_dims(indices.dims.begin(), indices.dims.size());
  if (indices.data_type != static_cast<int32_t>(ElementType::kInt64)) {
    out.error(
        "R78", path + ".indices.data_type",
        "indices are " + elementTypeLabel(indices.data_type.value_or(0)) + "; they must be int64");
    return;
  }
  if (index_dims.size() != 1 && index_dims.size() != 2) {
    out.error("R78", path + ".indices",
              "indices has dims " + formatDims(index_dims) +
                  "; the layouts are [NNZ] (linear positions) and [NNZ, rank] (coordinates)");
    return;
  }
  if (!nnz) return;  // values is broken (R76): no NNZ to hold the indices against
  if (index_dims[0] < 0 || static_cast<uint64_t>(index_dims[0]) != *nnz) {
    out.error("R78", path + ".indices",
              "indices has dims " + formatDims(index_dims) + " for " +
                  countOf(*nnz, "value", "values") + "; its first dimension must be NNZ (" +
                  std::to_string(*nnz) + ")");
    return;
  }
  if (index_dims.size() == 2 && index_dims[1] != static_cast<int64_t>(dims.size())) {
    out.error("R78", path + ".indices",
              "indices has dims " + formatDims(index_dims) + " for a dense shape of rank " +
                  std::to_string(dims.size()) + "; its second dimension must be the rank");
    return;
  }
  if (!dims_ok) return;  // no shape to hold the indices against

  // R81, then R79 and R80.
  uint64_t needed = *nnz;
  if (index_dims.size() == 2 && __builtin_mul_overflow(*nnz, dims.size(), &needed)) {
    out.error("R81", path + ".indices",
              "NNZ (" + std::to_string(*nnz) + ") times the rank (" + std::to_string(dims.size()) +
                  ") index values cannot be held by any tensor");
    return;
  }
  std::optional<IndexStream> stream = indexData(indices, needed, context, path, out);
  if (!stream) return;
  if (index_dims.size() == 1) {
    checkLinearIndices(*stream, *nnz, dense_size, formatDims(dims), path, out);
  } else {
    checkCoordinateIndices(*stream, *nnz, dims, path, out);
  }
}

}  // namespace onyx::check
