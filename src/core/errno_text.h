// Internal: what an errno value means, for the messages of the code that calls the operating
// system (mapping files, writing them, resolving external data).
#pragma once

#include <string>

namespace onyx {

/// strerror's text for `err` ("No such file or directory"), thread-safe.
std::string errnoText(int err);

}  // namespace onyx
