// formatType(): types in the ONNX text syntax's spelling.
#include <gtest/gtest.h>

#include "onyx/core/arena.h"
#include "onyx/ir/type.h"

namespace onyx {
namespace {

Type* tensorType(Arena& arena, int32_t elem, std::initializer_list<const char*> dims) {
  Type* type = arena.make<Type>();
  type->kind = Type::Kind::kTensor;
  type->elem_type = elem;
  type->shape = arena.make<TensorShape>();
  for (const char* d : dims) {
    Dimension& dim = type->shape->dims.emplace_back(arena);
    std::string_view text(d);
    if (text == "?") continue;
    if (text[0] >= '0' && text[0] <= '9') {
      dim.dim_value = std::stoll(std::string(text));
    } else {
      dim.dim_param = text;
    }
  }
  return type;
}

TEST(TypeFormat, TensorsWithKnownSymbolicAndUnknownDims) {
  Arena arena;
  EXPECT_EQ(formatType(*tensorType(arena, 1, {"N", "3", "?", "224"})), "float[N,3,?,224]");
  EXPECT_EQ(formatType(*tensorType(arena, 7, {})), "int64[]");
  Type* no_shape = tensorType(arena, 17, {});
  no_shape->shape = nullptr;
  EXPECT_EQ(formatType(*no_shape), "float8e4m3fn");
  EXPECT_EQ(formatType(*tensorType(arena, 99, {"1"})), "type99[1]");
}

TEST(TypeFormat, NestedTypes) {
  Arena arena;
  Type* seq = arena.make<Type>();
  seq->kind = Type::Kind::kSequence;
  seq->elem = tensorType(arena, 1, {"2"});
  EXPECT_EQ(formatType(*seq), "seq(float[2])");
  Type* map = arena.make<Type>();
  map->kind = Type::Kind::kMap;
  map->key_type = 8;
  map->elem = seq;
  EXPECT_EQ(formatType(*map), "map(string, seq(float[2]))");
  Type* optional = arena.make<Type>();
  optional->kind = Type::Kind::kOptional;
  optional->elem = map;
  EXPECT_EQ(formatType(*optional), "optional(map(string, seq(float[2])))");
  Type* sparse = tensorType(arena, 1, {"10", "10"});
  sparse->kind = Type::Kind::kSparseTensor;
  EXPECT_EQ(formatType(*sparse), "sparse_tensor(float[10,10])");
  Type* opaque = arena.make<Type>();
  opaque->kind = Type::Kind::kOpaque;
  opaque->opaque_domain = "com.example";
  opaque->opaque_name = "Handle";
  EXPECT_EQ(formatType(*opaque), "opaque(com.example, Handle)");
  EXPECT_EQ(formatType(Type()), "?");
}

}  // namespace
}  // namespace onyx
