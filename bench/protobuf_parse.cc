// The anchor of the whole-process benchmark (bench/process_bench.sh): a program that reads an
// .onnx file and parses it with libprotobuf (ModelProto::ParseFromArray), nothing else, as a
// protobuf user's tool does before it looks at the model. Prints the node count.
//
//   onyx_bench_protobuf_parse MODEL
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "onnx/onnx_pb.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: onyx_bench_protobuf_parse MODEL\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  onnx::ModelProto model;
  if (!file || !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    std::cerr << "cannot parse " << argv[1] << "\n";
    return 1;
  }
  std::cout << "nodes " << model.graph().node_size() << "\n";
  return 0;
}
