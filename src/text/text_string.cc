#include "text/text_string.h"

namespace onyx::text {

void TextString::appendTo(std::string& out) const {
  switch (form) {
    case Form::kPlain: out.append(begin, end); return;
    case Form::kEscaped:
      for (const char* p = begin; p < end; ++p) {
        if (*p == '\\') ++p;  // the scanner made sure a byte follows
        out.push_back(*p);
      }
      return;
    case Form::kDotted: {
      // Identifiers joined by '.', whatever spaces, comments and dots lie between them.
      bool first = true;
      for (const char* p = begin; p < end;) {
        char c = *p;
        bool identifier =
            c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (identifier) {
          const char* start = p;
          while (p < end && (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                             (*p >= '0' && *p <= '9'))) {
            ++p;
          }
          if (!first) out.push_back('.');
          out.append(start, p);
          first = false;
        } else if (c == '#') {
          while (p < end && *p != '\n') ++p;
        } else {
          ++p;
        }
      }
      return;
    }
  }
}

}  // namespace onyx::text
