// Internal: the blocking the exact byte products share (byte_pair_gemm.cc, byte_quad_gemm.cc).
//
// The depth is cut into blocks of (nearly) equal steps, at most kMostBlockSteps each, and the
// columns into blocks of kBlockColumns; each block of B is packed (in L2), then each of its
// panels of kPanelColumns meets every panel of A in the kernel, the panel of B staying in L1
// the while. The first block of depth writes the sums, the others add to them. A panel cut
// short by the last columns is summed into a local tile and its columns copied out, so C is
// written only where it has columns.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace onyx::ops::nn {

/// How a product cuts its operands: kPanelRows rows of A and kPanelColumns columns of B a
/// kernel call; at most kMostBlockSteps steps of depth and kBlockColumns columns a packed block
/// of B, each step of a panel kStepElements elements.
template <size_t kPanelRows, size_t kPanelColumns, size_t kMostBlockSteps, size_t kBlockColumns,
          size_t kStepElements>
struct PanelBlocking {
  static_assert(kBlockColumns % kPanelColumns == 0);
  static constexpr size_t panel_rows = kPanelRows;
  static constexpr size_t panel_columns = kPanelColumns;
  static constexpr size_t most_block_steps = kMostBlockSteps;
  static constexpr size_t block_columns = kBlockColumns;
  static constexpr size_t step_elements = kStepElements;
};

/// c[i * ldc + j] (i < a's rows, j < columns) = the product of A's `steps` steps with B's, in
/// wrapping int32 sums:
/// - `a` has panels(), panelRows(m) and panel(m) (its steps of panelRows(m) words);
/// - `pack(first_step, steps, first_column, columns, Element* block)` packs that block of B,
///   panel after panel of `steps` steps each;
/// - `kernel(count)` is the kernel for a panel of `count` rows, called as
///   (steps, const uint32_t* a_panel, const Element* b_panel, int32_t* c, ldc, accumulate).
/// `block` is storage for one packed block, which the caller keeps (per thread).
template <class Blocking, class Left, class Element, class Pack, class KernelFor>
void panelProduct(const Left& a, size_t steps, size_t columns, int32_t* c, size_t ldc,
                  std::vector<Element>& block, Pack&& pack, KernelFor&& kernel) {
  constexpr size_t kPanelColumns = Blocking::panel_columns;
  constexpr size_t kBlockColumns = Blocking::block_columns;
  const size_t depth_blocks = (steps + Blocking::most_block_steps - 1) / Blocking::most_block_steps;
  const size_t block_steps = (steps + depth_blocks - 1) / depth_blocks;
  block.resize(block_steps * Blocking::step_elements * (kBlockColumns / kPanelColumns));
  int32_t edge[Blocking::panel_rows * kPanelColumns];
  for (size_t s0 = 0; s0 < steps; s0 += block_steps) {
    const size_t count_steps = std::min(block_steps, steps - s0);
    const bool accumulate = s0 > 0;
    for (size_t c0 = 0; c0 < columns; c0 += kBlockColumns) {
      const size_t block_columns = std::min(kBlockColumns, columns - c0);
      pack(s0, count_steps, c0, block_columns, block.data());
      for (size_t j0 = 0; j0 < block_columns; j0 += kPanelColumns) {
        const size_t width = std::min(kPanelColumns, block_columns - j0);
        const Element* panel =
            block.data() + j0 / kPanelColumns * count_steps * Blocking::step_elements;
        for (size_t m = 0; m < a.panels(); ++m) {
          const size_t count = a.panelRows(m);
          const uint32_t* rows_block = a.panel(m) + s0 * count;
          int32_t* out = c + m * Blocking::panel_rows * ldc + c0 + j0;
          const auto run = kernel(count);
          if (width == kPanelColumns) {
            run(count_steps, rows_block, panel, out, ldc, accumulate);
            continue;
          }
          run(count_steps, rows_block, panel, edge, kPanelColumns, false);
          for (size_t r = 0; r < count; ++r) {
            int32_t* row = out + r * ldc;
            const int32_t* sums = edge + r * kPanelColumns;
            for (size_t j = 0; j < width; ++j) {
              const uint32_t before = accumulate ? static_cast<uint32_t>(row[j]) : 0;
              row[j] = static_cast<int32_t>(before + static_cast<uint32_t>(sums[j]));
            }
          }
        }
      }
    }
  }
}

}  // namespace onyx::ops::nn
