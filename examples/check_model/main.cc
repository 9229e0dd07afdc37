// A program that only reads, checks and infers a model: it links onyx's light core
// (onyx::core or onyx::core_shared), which brings no oneDNN, OpenMP or image library.
//
//   check_model MODEL    prints each diagnostic, then each graph output's inferred type;
//                        exit 0 valid, 1 invalid, 2 unreadable
#include <iostream>

#include "onyx/check/checker.h"
#include "onyx/infer/infer.h"
#include "onyx/serde/model_io.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: check_model MODEL\n";
    return 2;
  }
  onyx::Result<onyx::Model> model = onyx::loadModel(argv[1]);
  if (!model) {
    std::cerr << model.status().toString() << "\n";
    return 2;
  }
  onyx::Diagnostics diagnostics = onyx::checkModel(*model);
  for (const onyx::Diagnostic& diagnostic : diagnostics.all()) {
    std::cout << diagnostic.toString() << "\n";
  }
  if (diagnostics.hasErrors()) return 1;
  onyx::InferResult inferred = onyx::inferModel(*model);
  for (const onyx::Diagnostic& diagnostic : inferred.diagnostics.all()) {
    std::cout << diagnostic.toString() << "\n";
  }
  for (const onyx::ValueInfo* output : model->graph->outputs) {
    std::cout << output->name.value_or("") << ": "
              << (output->type != nullptr ? onyx::formatType(*output->type) : "?") << "\n";
  }
  return inferred.diagnostics.hasErrors() ? 1 : 0;
}
