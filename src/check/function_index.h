// Internal: the model-local functions by their id — (domain, name) and, from IR 10,
// overload — so that every node finds the function it calls in O(1).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "onyx/core/diagnostic.h"
#include "onyx/ir/model.h"

namespace onyx::check {

class FunctionIndex {
 public:
  /// Indexes `model.functions`, reporting ids that repeat (R92; the first function keeps
  /// the id). `overloads`: the model's IR version counts the overload in the id (IR 10).
  void build(const Model& model, bool overloads, Diagnostics& out);

  bool empty() const { return by_key_.empty(); }
  /// The position in `model.functions` of the function `node` calls, if it calls one.
  std::optional<size_t> callee(const Node& node) const;
  /// The position in `model.functions` of the function with this id, if there is one.
  std::optional<size_t> find(std::string_view domain, std::string_view name,
                             std::string_view overload) const;

 private:
  struct Key {
    std::string_view domain;  // canonical: "" for ai.onnx
    std::string_view name;
    std::string_view overload;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  Key key(std::string_view domain, std::string_view name, std::string_view overload) const;

  std::unordered_map<Key, size_t, KeyHash> by_key_;
  bool overloads_ = true;
};

}  // namespace onyx::check
