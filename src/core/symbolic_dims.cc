#include "onyx/core/symbolic_dims.h"

#include <algorithm>
#include <cstring>

namespace onyx {

namespace {

bool addOverflows(int64_t a, int64_t b, int64_t& sum) { return __builtin_add_overflow(a, b, &sum); }
bool multiplyOverflows(int64_t a, int64_t b, int64_t& product) {
  return __builtin_mul_overflow(a, b, &product);
}

int64_t floorDivide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --quotient;
  return quotient;
}

int64_t ceilDivide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0))) ++quotient;
  return quotient;
}

// Removes one occurrence of each of `factor` (sorted) from `symbols` (sorted); false when
// `symbols` does not contain them all.
bool removeFactor(std::vector<int32_t>& symbols, const std::vector<int32_t>& factor) {
  std::vector<int32_t> rest;
  rest.reserve(symbols.size());
  size_t f = 0;
  for (int32_t symbol : symbols) {
    if (f < factor.size() && factor[f] == symbol) {
      ++f;
    } else {
      rest.push_back(symbol);
    }
  }
  if (f != factor.size()) return false;
  symbols = std::move(rest);
  return true;
}

bool readsAsExpression(std::string_view name) {
  return name.find_first_of("+-*/() ") != std::string_view::npos;
}

}  // namespace

SymbolicDims::SymbolicDims() = default;

size_t SymbolicDims::OperationHash::operator()(const OperationKey& key) const {
  uint64_t h = static_cast<uint64_t>(key.op);
  for (uint64_t part : {static_cast<uint64_t>(key.a_value), static_cast<uint64_t>(key.b_value),
                        static_cast<uint64_t>(static_cast<uint32_t>(key.a_expression)) << 32 |
                            static_cast<uint32_t>(key.b_expression)}) {
    h = (h ^ part) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
  }
  return static_cast<size_t>(h);
}

DimValue SymbolicDims::remember(char op, DimValue a, DimValue b, DimValue result) {
  remembered_.emplace(OperationKey{op, a.value_, b.value_, a.expression_, b.expression_}, result);
  return result;
}

const DimValue* SymbolicDims::recall(char op, DimValue a, DimValue b) const {
  auto found = remembered_.find(OperationKey{op, a.value_, b.value_, a.expression_, b.expression_});
  return found != remembered_.end() ? &found->second : nullptr;
}

bool SymbolicDims::termOrder(const Term& a, const Term& b) {
  // Higher degree first, so the constant term is last; then by symbol ids.
  if (a.symbols.size() != b.symbols.size()) return a.symbols.size() > b.symbols.size();
  return a.symbols < b.symbols;
}

DimValue SymbolicDims::symbol(std::string_view name) {
  auto found = named_symbols_.find(std::string(name));
  if (found != named_symbols_.end()) return DimValue(0, symbol_expression_[found->second]);
  DimValue leaf = fresh();
  int32_t id = static_cast<int32_t>(symbols_.size()) - 1;
  symbols_[id].name = std::string(name);
  named_symbols_.emplace(std::string(name), id);
  anonymous_[static_cast<size_t>(leaf.expression())] = name.empty() ? 1 : 0;
  return leaf;
}

DimValue SymbolicDims::fresh() {
  int32_t id = static_cast<int32_t>(symbols_.size());
  symbols_.push_back(Symbol{});
  int32_t expression = static_cast<int32_t>(expressions_.size());
  // A leaf is unique by construction: it needs no entry in interned_ until an arithmetic
  // result reduces to it, and intern() looks leaves up through their key like any other.
  Polynomial leaf{Term{1, {id}}};
  std::string key(sizeof(int64_t) + 2 * sizeof(int32_t), '\0');
  int64_t one = 1;
  int32_t count = 1;
  std::memcpy(key.data(), &one, sizeof one);
  std::memcpy(key.data() + sizeof one, &count, sizeof count);
  std::memcpy(key.data() + sizeof one + sizeof count, &id, sizeof id);
  interned_.emplace(std::move(key), expression);
  expressions_.push_back(std::move(leaf));
  anonymous_.push_back(1);
  symbol_expression_.push_back(expression);
  return DimValue(0, expression);
}

SymbolicDims::Polynomial SymbolicDims::polynomialOf(DimValue value) const {
  if (value.isKnown()) {
    if (value.value() == 0) return {};
    return {Term{value.value(), {}}};
  }
  return expressions_[static_cast<size_t>(value.expression())];
}

DimValue SymbolicDims::intern(Polynomial polynomial, bool overflowed) {
  if (overflowed) return fresh();
  std::sort(polynomial.begin(), polynomial.end(), termOrder);
  Polynomial normal;
  normal.reserve(polynomial.size());
  for (Term& term : polynomial) {
    if (!normal.empty() && normal.back().symbols == term.symbols) {
      if (addOverflows(normal.back().coefficient, term.coefficient, normal.back().coefficient)) {
        return fresh();
      }
    } else {
      normal.push_back(std::move(term));
    }
  }
  std::erase_if(normal, [](const Term& term) { return term.coefficient == 0; });
  if (normal.empty()) return DimValue::known(0);
  if (normal.size() == 1 && normal[0].symbols.empty()) {
    return DimValue::known(normal[0].coefficient);
  }
  std::string key;
  for (const Term& term : normal) {
    int32_t count = static_cast<int32_t>(term.symbols.size());
    key.append(reinterpret_cast<const char*>(&term.coefficient), sizeof term.coefficient);
    key.append(reinterpret_cast<const char*>(&count), sizeof count);
    key.append(reinterpret_cast<const char*>(term.symbols.data()),
               term.symbols.size() * sizeof(int32_t));
  }
  auto [slot, inserted] =
      interned_.emplace(std::move(key), static_cast<int32_t>(expressions_.size()));
  if (inserted) {
    bool anonymous = false;
    for (const Term& term : normal) {
      for (int32_t symbol : term.symbols) {
        anonymous = anonymous || symbols_[static_cast<size_t>(symbol)].name.empty();
      }
    }
    expressions_.push_back(std::move(normal));
    anonymous_.push_back(anonymous ? 1 : 0);
  }
  return DimValue(0, slot->second);
}

DimValue SymbolicDims::add(DimValue a, DimValue b) {
  if (a.isKnown() && b.isKnown()) {
    int64_t sum;
    if (addOverflows(a.value(), b.value(), sum)) return fresh();
    return DimValue::known(sum);
  }
  if (a.is(0)) return b;
  if (b.is(0)) return a;
  if (const DimValue* known = recall('+', a, b)) return *known;
  Polynomial sum = polynomialOf(a);
  Polynomial other = polynomialOf(b);
  sum.insert(sum.end(), other.begin(), other.end());
  return remember('+', a, b, intern(std::move(sum), false));
}

DimValue SymbolicDims::subtract(DimValue a, DimValue b) {
  if (a.isKnown() && b.isKnown()) {
    int64_t difference;
    if (__builtin_sub_overflow(a.value(), b.value(), &difference)) return fresh();
    return DimValue::known(difference);
  }
  if (a == b) return DimValue::known(0);
  Polynomial difference = polynomialOf(a);
  bool overflowed = false;
  for (Term term : polynomialOf(b)) {
    overflowed |= multiplyOverflows(term.coefficient, -1, term.coefficient);
    difference.push_back(std::move(term));
  }
  return intern(std::move(difference), overflowed);
}

DimValue SymbolicDims::multiply(DimValue a, DimValue b) {
  if (a.isKnown() && b.isKnown()) {
    int64_t product;
    if (multiplyOverflows(a.value(), b.value(), product)) return fresh();
    return DimValue::known(product);
  }
  if (a.is(1)) return b;
  if (b.is(1)) return a;
  if (a.is(0) || b.is(0)) return DimValue::known(0);
  if (const DimValue* known = recall('*', a, b)) return *known;
  bool overflowed = false;
  Polynomial product;
  for (const Term& left : polynomialOf(a)) {
    for (const Term& right : polynomialOf(b)) {
      Term term;
      overflowed |= multiplyOverflows(left.coefficient, right.coefficient, term.coefficient);
      term.symbols.reserve(left.symbols.size() + right.symbols.size());
      std::merge(left.symbols.begin(), left.symbols.end(), right.symbols.begin(),
                 right.symbols.end(), std::back_inserter(term.symbols));
      product.push_back(std::move(term));
    }
  }
  // An overflow gives a fresh symbol, which must not be remembered as the product.
  if (overflowed) return fresh();
  return remember('*', a, b, intern(std::move(product), false));
}

std::optional<DimValue> SymbolicDims::divideExact(DimValue a, DimValue b) {
  if (b.is(0)) return std::nullopt;
  if (a.isKnown() && b.isKnown()) {
    // INT64_MIN / -1 overflows.
    if (b.value() == -1 && a.value() == INT64_MIN) return std::nullopt;
    if (a.value() % b.value() != 0) return std::nullopt;
    return DimValue::known(a.value() / b.value());
  }
  if (a == b) return DimValue::known(1);
  if (b.is(1)) return a;
  Polynomial divisor = polynomialOf(b);
  if (divisor.size() != 1) return std::nullopt;
  const Term& factor = divisor[0];
  Polynomial quotient = polynomialOf(a);
  for (Term& term : quotient) {
    if (factor.coefficient == -1 && term.coefficient == INT64_MIN) return std::nullopt;
    if (term.coefficient % factor.coefficient != 0) return std::nullopt;
    term.coefficient /= factor.coefficient;
    if (!removeFactor(term.symbols, factor.symbols)) return std::nullopt;
  }
  return intern(std::move(quotient), false);
}

DimValue SymbolicDims::divideFloor(DimValue a, DimValue b) {
  if (b.is(0)) return fresh();
  if (a.isKnown() && b.isKnown()) {
    if (b.value() == -1 && a.value() == INT64_MIN) return fresh();
    return DimValue::known(floorDivide(a.value(), b.value()));
  }
  if (std::optional<DimValue> exact = divideExact(a, b)) return *exact;
  return fresh();
}

DimValue SymbolicDims::divideCeil(DimValue a, DimValue b) {
  if (b.is(0)) return fresh();
  if (a.isKnown() && b.isKnown()) {
    if (b.value() == -1 && a.value() == INT64_MIN) return fresh();
    return DimValue::known(ceilDivide(a.value(), b.value()));
  }
  if (std::optional<DimValue> exact = divideExact(a, b)) return *exact;
  return fresh();
}

bool SymbolicDims::isAnonymous(DimValue value) const {
  return value.isSymbolic() && anonymous_[static_cast<size_t>(value.expression())] != 0;
}

std::string SymbolicDims::symbolText(int32_t symbol) {
  const std::string& name = symbols_[static_cast<size_t>(symbol)].name;
  if (!name.empty()) return readsAsExpression(name) ? "(" + name + ")" : name;
  auto named = anonymous_names_.find(symbol);
  if (named != anonymous_names_.end()) return named->second;
  std::string invented;
  do {
    invented = "unk__" + std::to_string(next_anonymous_name_++);
  } while (named_symbols_.contains(invented));
  anonymous_names_.emplace(symbol, invented);
  return invented;
}

std::string SymbolicDims::text(DimValue value) {
  if (value.isKnown()) return std::to_string(value.value());
  std::string out;
  const Polynomial terms = expressions_[static_cast<size_t>(value.expression())];
  for (const Term& term : terms) {
    bool negative = term.coefficient < 0;
    // |INT64_MIN| does not fit: print it through unsigned arithmetic.
    uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(term.coefficient)
                                  : static_cast<uint64_t>(term.coefficient);
    if (negative) {
      out += '-';
    } else if (!out.empty()) {
      out += '+';
    }
    bool wrote = false;
    if (magnitude != 1 || term.symbols.empty()) {
      out += std::to_string(magnitude);
      wrote = true;
    }
    for (int32_t symbol : term.symbols) {
      if (wrote) out += '*';
      out += symbolText(symbol);
      wrote = true;
    }
  }
  return out;
}

}  // namespace onyx
