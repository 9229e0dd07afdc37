// Internal: the headers nearly every operator file includes, compiled once for the whole ops
// layer (target_precompile_headers in src/CMakeLists.txt) instead of once per file: parsing
// them was over half of an operator file's compile time. Each file still includes what it
// uses; this list only makes that cheap.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ops/inference_context.h"
#include "onyx/ops/kernel_context.h"
#include "ops/kernels.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
