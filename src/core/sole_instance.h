// Internal: the one instance of a stateless table entry (an evaluator's provider, a fusion
// pattern, a convolution epilogue), made on first use: what each file hands to the table that
// lists it, so that the tables need no registration order.
#pragma once

namespace onyx {

template <class Entry>
const Entry& soleInstance() {
  static const Entry kInstance;
  return kInstance;
}

}  // namespace onyx
