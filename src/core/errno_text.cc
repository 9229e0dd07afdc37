#include "core/errno_text.h"

#include <string.h>

namespace onyx {

std::string errnoText(int err) {
  char buf[256];
  // GNU strerror_r: returns a pointer that may or may not be `buf`.
  return strerror_r(err, buf, sizeof buf);
}

}  // namespace onyx
