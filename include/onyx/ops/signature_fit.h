// onyx/ops/signature_fit.h — whether a node fits an operator version's signature: the
// attributes the version declares and requires, and how many inputs and outputs it takes and
// which of them may be left out.
//
// One answer for every caller: the checker reports each misfit under its rule (R43, R44,
// R45, R47, R49), and the opset converter refuses a step whose result misfits the version it
// reaches. A node of a graph and a converter's draft of one are both seen through a
// SignatureView. The types a version allows are OpSchema::constraint's to say.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Node;

/// A node as a signature sees it.
class SignatureView {
 public:
  virtual ~SignatureView() = default;
  /// Its input slots as written (an omitted one counts, trailing or not).
  virtual size_t inputCount() const = 0;
  /// Whether input `i` is given (not omitted).
  virtual bool hasInput(size_t i) const = 0;
  virtual size_t outputCount() const = 0;
  virtual bool hasOutput(size_t i) const = 0;
  /// Its attributes, in order: the name of attribute `a` (empty for an unnamed one).
  virtual size_t attributeCount() const = 0;
  virtual std::string_view attributeName(size_t a) const = 0;
  virtual bool hasAttribute(std::string_view name) const = 0;
};

/// A node of a graph, as it is.
class NodeSignatureView final : public SignatureView {
 public:
  explicit NodeSignatureView(const Node& node) : node_(node) {}
  size_t inputCount() const override;
  bool hasInput(size_t i) const override;
  size_t outputCount() const override;
  bool hasOutput(size_t i) const override;
  size_t attributeCount() const override;
  std::string_view attributeName(size_t a) const override;
  bool hasAttribute(std::string_view name) const override;

 private:
  const Node& node_;
};

/// One way a node does not fit a version's signature.
struct Misfit {
  enum class Kind {
    kUndeclaredAttribute,  // `index`: the node's attribute the version does not declare
    kMissingAttribute,     // `spec`: an attribute the version requires
    kInputCount,           // more or fewer inputs than the version takes
    kOutputCount,          // an output count the version does not give
    kOmittedInput,         // `index`: a required input left out ("")
    kOmittedOutput,        // `index`: an output the version always gives, left out
  };
  Kind kind;
  size_t index = 0;
  const AttributeSpec* spec = nullptr;
};

/// Every way `node` does not fit `schema`, attributes first (in the node's order, then the
/// required ones in the schema's), then the counts, then what is left out. An attribute
/// named like an implementation's internal symbol ("__...") is outside every signature, and
/// a schema with unchecked attributes declares them all. Empty when the node fits.
std::vector<Misfit> misfitsOf(const OpSchema& schema, const SignatureView& node);

}  // namespace onyx

#pragma GCC visibility pop
