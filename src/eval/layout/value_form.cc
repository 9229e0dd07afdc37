// The forms a value may be held in, and their conversions back (value_form.h).
#include "eval/layout/value_form.h"

#include <array>
#include <cstdlib>

#include "eval/kernels/halves_as_floats.h"
#include "eval/layout/channels_last_arrays.h"

namespace onyx::eval_internal {

namespace {

void channelsLastBack(EvalValue& value, const KernelContext*) {
  if (value.isTensor()) value.tensor = channelsFirst(value.tensor);
}

void floatsRounded(EvalValue& value, const KernelContext* ctx) {
  if (value.isTensor()) value.tensor = roundedToHalves(value.tensor, ctx);
}

// The built-in forms at the bits value_form.h gives them, then the ones declared since.
struct Declared {
  std::array<FormDeclaration, 32> forms = {FormDeclaration{"channels-last", channelsLastBack},
                                           FormDeclaration{"floats for FLOAT16", floatsRounded}};
  size_t count = 2;
};

Declared& declared() {
  static Declared table;
  return table;
}

}  // namespace

FormSet declareForm(const FormDeclaration& declaration) {
  Declared& table = declared();
  if (table.count == table.forms.size()) std::abort();  // a 33rd form: FormSet is 32 bits
  table.forms[table.count] = declaration;
  return FormSet{1} << table.count++;
}

FormSet toDeclared(EvalValue& value, FormSet held, FormSet drop, const KernelContext* ctx) {
  const Declared& table = declared();
  FormSet converting = held & drop;
  for (size_t form = 0; converting != 0 && form < table.count; ++form) {
    FormSet bit = FormSet{1} << form;
    if ((converting & bit) == 0) continue;
    table.forms[form].to_declared(value, ctx);
    converting &= ~bit;
  }
  return held & ~drop;
}

}  // namespace onyx::eval_internal
