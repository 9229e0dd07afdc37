#include "core/place_path.h"

#include "onyx/core/quote.h"

namespace onyx {

void appendSegment(std::string& path, std::string_view list, size_t index, std::string_view name) {
  if (!path.empty()) path += '.';
  path += list;
  path += '[';
  path += std::to_string(index);
  path += ']';
  if (!name.empty()) {
    path += '(';
    appendEscaped(path, name);
    path += ')';
  }
}

std::string pathSegment(std::string_view list, size_t index, std::string_view name) {
  std::string segment;
  appendSegment(segment, list, index, name);
  return segment;
}

std::string joinPath(std::string path, std::string_view field) {
  if (!path.empty()) path += '.';
  path += field;
  return path;
}

}  // namespace onyx
