// Loads a model given on the command line and prints its node count.
#include <iostream>

#include "onyx/serde/model_io.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto model = onyx::loadModel(argv[1]);
  if (!model) {
    std::cerr << model.status().toString() << "\n";
    return 1;
  }
  std::cout << "nodes " << model->graph->nodeCount() << "\n";
  return 0;
}
