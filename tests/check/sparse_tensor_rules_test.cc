// The sparse-tensor rules R76–R82.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "check/value_rules.h"
#include "check/value_rules_testing.h"
#include "onyx/ir/editor.h"

namespace onyx::check {
namespace {

using namespace onyx::check::testing;

class SparseTensorRules : public ::testing::Test {
 protected:
  // A sparse float tensor of dense shape `dims` with `nnz` values and int64 indices of shape
  // `index_dims` holding `indices` in raw_data.
  SparseTensor* sparse(std::initializer_list<int64_t> dims, int64_t nnz,
                       std::initializer_list<int64_t> index_dims,
                       std::initializer_list<int64_t> indices) {
    auto* result = edit.arena().make<SparseTensor>();
    for (int64_t dim : dims) result->dims.values.push_back(edit.arena(), dim);
    result->values = makeTensor(edit.arena(), ElementType::kFloat, {nnz}, "s");
    setRaw(edit.arena(), *result->values, static_cast<size_t>(nnz) * 4);
    result->indices = makeTensor(edit.arena(), ElementType::kInt64, index_dims);
    setRawInt64(edit.arena(), *result->indices, indices);
    return result;
  }

  Diagnostics check(const SparseTensor& tensor, bool is_initializer = true) {
    ValueContext context;
    context.ir_version = 8;
    context.is_initializer = is_initializer;
    Diagnostics out;
    checkSparseTensor(tensor, context, "graph.sparse_initializer[0](s)", out);
    return out;
  }

  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
};

TEST_F(SparseTensorRules, ValidSparseTensorsAreClean) {
  EXPECT_TRUE(clean(check(*sparse({3, 4}, 2, {2}, {1, 7}))));           // linear positions
  EXPECT_TRUE(clean(check(*sparse({3, 4}, 2, {2, 2}, {0, 1, 1, 3}))));  // coordinates
  EXPECT_TRUE(clean(check(*sparse({3, 4}, 2, {2}, {0, 11}))));          // both ends
  // No values: the indices may be left out, or be empty.
  SparseTensor* empty = sparse({5}, 0, {0}, {});
  EXPECT_TRUE(clean(check(*empty)));
  empty->indices = nullptr;
  EXPECT_TRUE(clean(check(*empty)));
  // Indices in int64_data rather than raw_data.
  SparseTensor* typed = sparse({3, 4}, 2, {2}, {});
  typed->indices->raw_data.reset();
  edit.rare(typed->indices).int64_data = varints(edit.arena(), {3, 10});
  EXPECT_TRUE(clean(check(*typed)));
}

// ---- R76 values ----------------------------------------------------------------------------

TEST_F(SparseTensorRules, R76ValuesIsPresentAndRankOne) {
  SparseTensor* missing = sparse({4}, 1, {1}, {0});
  missing->values = nullptr;
  missing->indices = nullptr;
  Diagnostics diagnostics = check(*missing);
  EXPECT_TRUE(onlyRule(diagnostics, "R76"));
  EXPECT_EQ(single(diagnostics).path, "graph.sparse_initializer[0](s).values");

  SparseTensor* matrix = sparse({4}, 1, {1}, {0});
  matrix->values = makeTensor(edit.arena(), ElementType::kFloat, {1, 1}, "s");
  setRaw(edit.arena(), *matrix->values, 4);
  diagnostics = check(*matrix);
  EXPECT_TRUE(onlyRule(diagnostics, "R76"));
  EXPECT_EQ(single(diagnostics).message,
            "values has dims [1, 1]; it must be rank 1, one entry per stored value ([NNZ])");
}

TEST_F(SparseTensorRules, R76TheValuesTensorObeysTheTensorRules) {
  SparseTensor* short_values = sparse({4}, 2, {2}, {0, 1});
  setRaw(edit.arena(), *short_values->values, 4);
  Diagnostics diagnostics = check(*short_values);
  EXPECT_TRUE(onlyRule(diagnostics, "R67"));
  EXPECT_EQ(single(diagnostics).path, "graph.sparse_initializer[0](s).values.raw_data");
}

// ---- R77 dense shape -----------------------------------------------------------------------

TEST_F(SparseTensorRules, R77TheDenseShapeIsPositive) {
  Diagnostics diagnostics = check(*sparse({}, 0, {0}, {}));
  EXPECT_TRUE(onlyRule(diagnostics, "R77"));
  diagnostics = check(*sparse({3, 0}, 0, {0}, {}));
  EXPECT_TRUE(onlyRule(diagnostics, "R77"));
  EXPECT_EQ(single(diagnostics).path, "graph.sparse_initializer[0](s).dims[1]");
  EXPECT_EQ(single(diagnostics).message,
            "dims[1] is 0; the dims of a sparse tensor must be positive");
  EXPECT_TRUE(onlyRule(check(*sparse({-2}, 0, {0}, {})), "R77"));
  EXPECT_TRUE(onlyRule(check(*sparse({int64_t{1} << 40, int64_t{1} << 40}, 0, {0}, {})), "R77"));
  EXPECT_TRUE(clean(check(*sparse({1}, 0, {0}, {}))));
}

// ---- R78 indices layout -----------------------------------------------------------------------

TEST_F(SparseTensorRules, R78IndicesHaveASupportedLayout) {
  SparseTensor* missing = sparse({4}, 2, {2}, {0, 1});
  missing->indices = nullptr;
  Diagnostics diagnostics = check(*missing);
  EXPECT_TRUE(onlyRule(diagnostics, "R78"));
  EXPECT_EQ(single(diagnostics).message,
            "indices is missing; it may be left out only when there are no values, and there "
            "are 2");

  SparseTensor* int32_indices = sparse({4}, 2, {2}, {});
  int32_indices->indices->data_type = code(ElementType::kInt32);
  setRaw(edit.arena(), *int32_indices->indices, 8);
  diagnostics = check(*int32_indices);
  EXPECT_TRUE(onlyRule(diagnostics, "R78"));
  EXPECT_EQ(single(diagnostics).message, "indices are int32; they must be int64");

  EXPECT_TRUE(onlyRule(check(*sparse({4}, 2, {2, 1, 1}, {0, 1})), "R78"));  // rank 3
  EXPECT_TRUE(onlyRule(check(*sparse({4}, 2, {3}, {0, 1, 2})), "R78"));     // 3 for NNZ 2
  EXPECT_TRUE(onlyRule(check(*sparse({3, 4}, 2, {2, 3}, {0, 0, 0, 0, 0, 1})), "R78"));  // rank 3
}

// ---- R79 bounds ---------------------------------------------------------------------------------

TEST_F(SparseTensorRules, R79IndicesAreInsideTheDenseShape) {
  Diagnostics diagnostics = check(*sparse({3, 4}, 2, {2}, {1, 12}));
  EXPECT_TRUE(onlyRule(diagnostics, "R79"));
  EXPECT_EQ(single(diagnostics).path, "graph.sparse_initializer[0](s).indices");
  EXPECT_EQ(single(diagnostics).message,
            "indices[1] is 12, outside the 12 positions of the dense shape [3, 4]");
  EXPECT_TRUE(onlyRule(check(*sparse({3, 4}, 2, {2}, {-1, 5})), "R79"));

  diagnostics = check(*sparse({3, 4}, 2, {2, 2}, {0, 1, 1, 4}));
  EXPECT_TRUE(onlyRule(diagnostics, "R79"));
  EXPECT_EQ(single(diagnostics).message, "indices[1, 1] is 4, outside [0, 4) for dims[1]");

  // Many bad indices make one diagnostic that counts them.
  diagnostics = check(*sparse({4}, 3, {3}, {4, 5, 6}));
  EXPECT_TRUE(onlyRule(diagnostics, "R79"));
  EXPECT_EQ(single(diagnostics).message,
            "indices[0] is 4, outside the 4 positions of the dense shape [4] (3 indices are out "
            "of range)");
}

// ---- R80 order -------------------------------------------------------------------------------

TEST_F(SparseTensorRules, R80IndicesAreStrictlyAscending) {
  Diagnostics diagnostics = check(*sparse({3, 4}, 2, {2}, {7, 7}));
  EXPECT_TRUE(onlyRule(diagnostics, "R80"));
  EXPECT_EQ(single(diagnostics).message,
            "indices[1] (7) does not come after indices[0] (7); indices must be strictly "
            "ascending, without repeats");
  EXPECT_TRUE(onlyRule(check(*sparse({3, 4}, 2, {2}, {7, 1})), "R80"));
  // Coordinates in lexicographic order: [1, 3] before [2, 0] is right, the reverse is not.
  EXPECT_TRUE(clean(check(*sparse({3, 4}, 2, {2, 2}, {1, 3, 2, 0}))));
  EXPECT_TRUE(onlyRule(check(*sparse({3, 4}, 2, {2, 2}, {2, 0, 1, 3})), "R80"));
  EXPECT_TRUE(onlyRule(check(*sparse({3, 4}, 2, {2, 2}, {1, 3, 1, 3})), "R80"));

  SparseTensor* typed = sparse({3, 4}, 2, {2}, {});
  typed->indices->raw_data.reset();
  edit.rare(typed->indices).int64_data = varints(edit.arena(), {10, 3});
  EXPECT_TRUE(onlyRule(check(*typed), "R80"));
}

// ---- R81 complete index data --------------------------------------------------------------------

TEST_F(SparseTensorRules, R81IndexDataIsCompleteBeforeItIsRead) {
  // The indices tensor's own size rule fires too; R81 says why the bounds were not checked.
  SparseTensor* short_raw = sparse({3, 4}, 2, {2}, {1});
  Diagnostics diagnostics = check(*short_raw);
  EXPECT_TRUE(diagnostics.has("R81"));
  EXPECT_TRUE(diagnostics.has("R67"));
  EXPECT_EQ(diagnostics.all().size(), 2u) << describe(diagnostics);

  SparseTensor* short_typed = sparse({3, 4}, 2, {2}, {});
  short_typed->indices->raw_data.reset();
  edit.rare(short_typed->indices).int64_data = varints(edit.arena(), {1});
  diagnostics = check(*short_typed);
  EXPECT_TRUE(diagnostics.has("R81"));
  EXPECT_TRUE(diagnostics.has("R66"));
  EXPECT_EQ(diagnostics.all().size(), 2u) << describe(diagnostics);

  SparseTensor* wrong_field = sparse({3, 4}, 2, {2}, {});
  wrong_field->indices->raw_data.reset();
  edit.rare(wrong_field->indices).int32_data = varints(edit.arena(), {1, 2});
  diagnostics = check(*wrong_field);
  EXPECT_TRUE(diagnostics.has("R81"));
  EXPECT_TRUE(diagnostics.has("R65"));

  // External indices that were not loaded: bounds and order cannot be checked, and it says so.
  SparseTensor* external = sparse({3, 4}, 2, {2}, {});
  external->indices->raw_data.reset();
  external->indices->data_location = Tensor::kExternal;
  addEntry(edit.arena(), edit.rare(external->indices).external_data, "location", "i.bin");
  diagnostics = check(*external);
  EXPECT_FALSE(diagnostics.hasErrors()) << describe(diagnostics);
  EXPECT_TRUE(diagnostics.has("R81"));
  // Loaded, they are read from the mapped bytes.
  const int64_t unordered[] = {5, 2};
  edit.rare(external->indices).external_bytes =
      std::string_view(reinterpret_cast<const char*>(unordered), sizeof unordered);
  diagnostics = check(*external);
  EXPECT_TRUE(diagnostics.has("R80"));
}

// ---- R82 name ---------------------------------------------------------------------------------

TEST_F(SparseTensorRules, R82SparseInitializersAreNamedByTheirValues) {
  SparseTensor* unnamed = sparse({4}, 1, {1}, {2});
  unnamed->values->name.reset();
  EXPECT_TRUE(onlyRule(check(*unnamed), "R82"));
  unnamed->values->name = "";
  EXPECT_TRUE(onlyRule(check(*unnamed), "R82"));
  // A sparse tensor in an attribute needs no name.
  EXPECT_TRUE(clean(check(*unnamed, /*is_initializer=*/false)));
}

}  // namespace
}  // namespace onyx::check
