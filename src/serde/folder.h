// Internal: the folder a model file lives in, which its external data locations are relative to.
#pragma once

#include <string>

namespace onyx::serde {

inline std::string folderOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace onyx::serde
