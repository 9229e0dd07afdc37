#include "check/opset_imports.h"

#include <limits>

#include "check/place.h"
#include "onyx/core/quote.h"

namespace onyx::check {

std::optional<std::pair<int64_t, int64_t>> publishedOpsetVersions(std::string_view domain) {
  // The versions onyx's operator sets define (DESIGN.md's spec target). A version past the
  // last is refused rather than bound to the newest schemas: its operators may differ.
  domain = canonicalDomain(domain);
  if (domain.empty()) return std::pair<int64_t, int64_t>{1, 28};
  if (domain == "ai.onnx.ml") return std::pair<int64_t, int64_t>{1, 5};
  if (domain == "ai.onnx.training" || domain == "ai.onnx.preview" ||
      domain == "ai.onnx.preview.training") {
    return std::pair<int64_t, int64_t>{1, 1};
  }
  return std::nullopt;
}

std::string domainName(std::string_view domain) {
  domain = canonicalDomain(domain);
  return domain.empty() ? std::string("the default domain (ai.onnx)") : "domain " + quoted(domain);
}

OpsetImports readOpsetImports(const ArenaList<OperatorSetId>& list, const std::string& path,
                              Diagnostics& out) {
  struct Seen {
    std::string_view domain;
    int64_t version;
  };
  std::vector<Seen> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    const OperatorSetId& entry = list[i];
    std::string_view domain = canonicalDomain(entry.domain.value_or(std::string_view()));
    auto where = [&] {
      std::string text = path;
      appendSegment(text, "opset_import", i);
      return text;
    };
    int64_t version = entry.version.value_or(0);
    if (!entry.version) {
      out.error("R10", where(), "the import of " + domainName(domain) + " has no version");
    } else if (version < 1 || version > std::numeric_limits<int32_t>::max()) {
      out.error("R10", where(),
                "the import of " + domainName(domain) + " has version " + std::to_string(version) +
                    "; opset versions are between 1 and 2147483647");
    } else if (auto published = publishedOpsetVersions(domain);
               published && (version < published->first || version > published->second)) {
      out.error(
          "R12", where(),
          domainName(domain) + " has opset versions " + std::to_string(published->first) +
              (published->first == published->second ? std::string()
                                                     : " to " + std::to_string(published->second)) +
              "; version " + std::to_string(version) + " is not one of them");
    }
    bool repeated = false;
    for (Seen& earlier : seen) {
      if (earlier.domain != domain) continue;
      repeated = true;
      out.error("R10", where(),
                domainName(domain) + " is imported twice (versions " +
                    std::to_string(earlier.version) + " and " + std::to_string(version) +
                    "); readers disagree on which one binds, so import each domain once");
      earlier.version = version;
    }
    if (!repeated) seen.push_back({domain, version});
  }
  return OpsetImports(list);
}

}  // namespace onyx::check
