#include "check/metadata_rules.h"

#include "check/hash_sets.h"
#include "onyx/core/quote.h"

namespace onyx::check {

void checkMetadata(const ArenaList<StringStringEntry>& entries, MetadataOwner owner,
                   const LazyPath& path, const CheckContext& context) {
  if (entries.empty()) return;
  auto list_path = [&] { return joinPath(path(), "metadata_props"); };
  switch (owner) {
    case MetadataOwner::kModel: break;
    case MetadataOwner::kGraph:
      context.fieldSince("R37", 10, LazyPath(list_path), "GraphProto.metadata_props");
      break;
    case MetadataOwner::kFunction:
      context.fieldSince("R100", 10, LazyPath(list_path), "FunctionProto.metadata_props");
      break;
    case MetadataOwner::kOther:
      context.fieldSince("X4", 10, LazyPath(list_path), "metadata_props on this message");
      break;
  }
  if (entries.size() == 1) return;
  NameSet keys;
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string_view key = entries[i].key.value_or(std::string_view());
    if (keys.insert(key)) continue;
    std::string at = path();
    appendSegment(at, "metadata_props", i, key);
    std::string message = "key " + quoted(key) + " appears more than once";
    if (owner == MetadataOwner::kModel) {
      context.out.error("R13", std::move(at),
                        message + "; the keys of a model's metadata are distinct");
    } else {
      context.out.warning("R13", std::move(at), message + "; metadata keys should be distinct");
    }
  }
}

}  // namespace onyx::check
