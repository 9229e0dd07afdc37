// onyx/core/symbolic_dims.h — dimensions that are numbers or symbolic expressions.
//
// Shape inference keeps a dimension it cannot compute as a symbol, and does exact integer
// arithmetic on symbols: a graph input of shape [N, S, 512] reshaped by a Shape-derived
// [N*S, 512], then concatenated with itself along axis 0, gives [2*N*S, 512]. An expression
// is a polynomial with integer coefficients over symbols, kept in one normal form and
// interned, so two DimValues are the same expression exactly when they compare equal.
//
// A symbol is named (a dim_param such as "N") or anonymous: every unknown dimension gets an
// anonymous symbol of its own, so that "the same unknown dimension" is still tracked (x + x
// keeps x's shape) while two unrelated unknown dimensions never compare equal.
//
// Not thread-safe: a SymbolicDims belongs to one inference run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The value of a dimension, or of one element of an integer tensor being propagated: a
/// number (which may be negative: data such as Reshape's -1 or Slice's starts), or an
/// expression of the SymbolicDims that made it. Equal when both are the same number or the
/// same expression.
class DimValue {
 public:
  constexpr DimValue() = default;  // the number 0
  static constexpr DimValue known(int64_t number) { return DimValue(number, -1); }

  constexpr bool isKnown() const { return expression_ < 0; }
  constexpr bool isSymbolic() const { return expression_ >= 0; }
  /// The number; only for a known value.
  constexpr int64_t value() const { return value_; }
  /// Whether this is the number `number`.
  constexpr bool is(int64_t number) const { return isKnown() && value_ == number; }
  /// The expression's index in its SymbolicDims; only for a symbolic value.
  constexpr int32_t expression() const { return expression_; }

  constexpr bool operator==(const DimValue& other) const {
    return expression_ == other.expression_ && (expression_ >= 0 || value_ == other.value_);
  }

 private:
  friend class SymbolicDims;
  constexpr DimValue(int64_t number, int32_t expression)
      : value_(number), expression_(expression) {}
  int64_t value_ = 0;
  int32_t expression_ = -1;
};

class SymbolicDims {
 public:
  SymbolicDims();

  /// The symbol named `name`: the same name gives the same symbol.
  DimValue symbol(std::string_view name);
  /// A new anonymous symbol, equal to no other value: an unknown dimension.
  DimValue fresh();

  DimValue add(DimValue a, DimValue b);
  DimValue subtract(DimValue a, DimValue b);
  DimValue multiply(DimValue a, DimValue b);
  /// a / b when the quotient is exact (every term of a divides by b, or a == b); nullopt
  /// otherwise, and when b is 0. Numbers divide exactly only when b divides a.
  std::optional<DimValue> divideExact(DimValue a, DimValue b);
  /// floor(a / b) for numbers; for an expression, the exact quotient when there is one,
  /// else a fresh symbol. b must not be 0 (then a fresh symbol).
  DimValue divideFloor(DimValue a, DimValue b);
  /// ceil(a / b), likewise.
  DimValue divideCeil(DimValue a, DimValue b);

  /// Whether the expression involves an anonymous symbol (it cannot be named in a model
  /// without inventing a name). False for numbers.
  bool isAnonymous(DimValue value) const;
  /// The expression as a dim_param: `N`, `N+1`, `2*N*S`, `N-1`, `(a+b)*2` for a named
  /// symbol that itself reads as an expression. Anonymous symbols are named `unk__0`,
  /// `unk__1`, … in the order they are first shown (skipping names in use as symbols), so a
  /// caller that wants unknown dimensions named calls this; others check isAnonymous first.
  /// For a number, its decimal text.
  std::string text(DimValue value);

  /// The number of distinct expressions made so far (for tests and statistics).
  size_t expressionCount() const { return expressions_.size(); }

 private:
  // A monomial is a sorted list of symbol ids (repeats for powers); a term a coefficient
  // times a monomial; an expression the sum of its terms in a fixed order, no zero
  // coefficient, no repeated monomial, and at least one term with symbols (otherwise it is
  // a number).
  struct Term {
    int64_t coefficient;
    std::vector<int32_t> symbols;
  };
  using Polynomial = std::vector<Term>;  // constant term, if any, last

  struct Symbol {
    std::string name;  // empty: anonymous
  };

  Polynomial polynomialOf(DimValue value) const;
  /// Interns `polynomial` (brought to normal form), or returns the number it reduces to;
  /// a fresh symbol when a coefficient overflowed.
  DimValue intern(Polynomial polynomial, bool overflowed);
  static bool termOrder(const Term& a, const Term& b);
  std::string symbolText(int32_t symbol);

  std::vector<Symbol> symbols_;
  std::unordered_map<std::string, int32_t> named_symbols_;
  std::vector<Polynomial> expressions_;
  std::vector<uint8_t> anonymous_;  // by expression: involves an anonymous symbol
  std::unordered_map<std::string, int32_t> interned_;  // key: the polynomial's bytes
  std::vector<int32_t> symbol_expression_;             // symbol id → its leaf expression
  std::unordered_map<int32_t, std::string> anonymous_names_;
  int32_t next_anonymous_name_ = 0;

  // Results of add and multiply on expressions, remembered: models repeat the same shape
  // arithmetic in every layer (N*S*512 for each Reshape), and interning is the costly part.
  struct OperationKey {
    char op;
    int64_t a_value, b_value;
    int32_t a_expression, b_expression;
    bool operator==(const OperationKey&) const = default;
  };
  struct OperationHash {
    size_t operator()(const OperationKey& key) const;
  };
  std::unordered_map<OperationKey, DimValue, OperationHash> remembered_;
  DimValue remember(char op, DimValue a, DimValue b, DimValue result);
  const DimValue* recall(char op, DimValue a, DimValue b) const;
};

}  // namespace onyx

#pragma GCC visibility pop
