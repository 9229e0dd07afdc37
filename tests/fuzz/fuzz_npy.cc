// fuzz_npy — arbitrary bytes through the .npy reader. A refusal must be kInvalidArgument
// (a damaged file) or kUnsupported (a dtype onyx has no type for); an array that reads must
// write back and read again to the same shape and elements. Crashes and sanitizer reports
// trap.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "onyx/serde/npy.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const Status& status) {
  std::fprintf(stderr, "fuzz_npy: %s\n", what);
  if (!status.isOk()) std::fprintf(stderr, "  status: %s\n", status.toString().c_str());
  __builtin_trap();
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onyx;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Result<Array> array = parseNpy(bytes);
  if (!array) {
    ErrorCode code = array.status().code();
    if (code != ErrorCode::kInvalidArgument && code != ErrorCode::kUnsupported) {
      fuzz::broken("a refusal with an unexpected code", array.status());
    }
    return 0;
  }
  Result<std::string> written = serializeNpy(*array);
  if (!written) fuzz::broken("an array that was read cannot be written", written.status());
  Result<Array> again = parseNpy(*written);
  if (!again) fuzz::broken("what was written does not read", again.status());
  if (again->shape() != array->shape() || again->type() != array->type() ||
      std::memcmp(again->bytes().data(), array->bytes().data(), array->bytes().size()) != 0) {
    fuzz::broken("a written array reads back different", Status::ok());
  }
  return 0;
}
