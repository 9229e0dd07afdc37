// Internal: metadata_props lists (R13: distinct keys) wherever they occur.
#pragma once

#include "check/check_context.h"

namespace onyx::check {

/// Who holds the list. A model's keys MUST be distinct (an error); the others' SHOULD be (a
/// warning), and their lists exist from IR 10 (graphs: R37, functions: R100, nodes, value
/// infos and tensors: X4).
enum class MetadataOwner : uint8_t { kModel, kGraph, kFunction, kOther };

/// Checks the metadata_props list at `path` (the owner's path; the list is
/// `<path>.metadata_props`).
void checkMetadata(const ArenaList<StringStringEntry>& entries, MetadataOwner owner,
                   const LazyPath& path, const CheckContext& context);

}  // namespace onyx::check
