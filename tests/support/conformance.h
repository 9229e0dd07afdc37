// Test support: where the ONNX backend conformance cases are, and how to list them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace onyx::testing {

/// The conformance folder (../shared/conformance/onnx-backend/node beside the checkout, or
/// ONYX_CONFORMANCE_DIR in the environment), or empty when it is not there.
std::filesystem::path conformanceDir();

/// The case folders under conformanceDir(), sorted.
std::vector<std::filesystem::path> conformanceCases();

/// The message a test skips with when the conformance data is absent.
std::string conformanceMissingReason();

}  // namespace onyx::testing
