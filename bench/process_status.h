// What the benchmarks read of their own process in /proc/self/status.
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace onyx_bench {

/// A field of /proc/self/status in KiB ("VmRSS:    1234 kB"); -1 when it has none.
inline long processStatusKib(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const size_t length = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, length, field) == 0 && line.size() > length && line[length] == ':') {
      return std::atol(line.c_str() + length + 1);
    }
  }
  return -1;
}

}  // namespace onyx_bench
