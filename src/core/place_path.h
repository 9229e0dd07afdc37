// Internal: the path that names a place in a model, in one style for the checker's
// diagnostics, the loaders' errors and the evaluator's errors:
//
//   graph.node[12](conv1).input[2]
//   graph.node[3](loop).attribute[0](body).g.node[0](add)
//   functions[1](MyFn).node[0]
//
// A list item that is a message with a name field shows the name in parentheses when it has
// one, escaped as core/quote.h escapes (so a path stays on one line); string lists (node
// inputs and outputs) show the index alone.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onyx {

/// Appends `.list[index](name)` (no `.` on an empty path; no parentheses for an empty name).
void appendSegment(std::string& path, std::string_view list, size_t index,
                   std::string_view name = {});

/// `list[index](name)` alone, for Status::within as an error travels out.
std::string pathSegment(std::string_view list, size_t index, std::string_view name = {});

/// `path` + `.field` (or `field` alone on an empty path).
std::string joinPath(std::string path, std::string_view field);

}  // namespace onyx
