// The registry as a whole: every op file is indexed and found by its name, every schema is
// consistent, and the queries on a schema (counts, positions, attributes, types) answer right.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "onyx/core/arena.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/type.h"
#include "onyx/ops/registry.h"
#include "onyx/ops/schema_text.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

TEST(Registry, EveryOperatorIsFoundByItsDomainAndName) {
  ASSERT_FALSE(allOperators().empty());
  for (const Operator* op : allOperators()) {
    EXPECT_EQ(findOperator(op->domain, op->name), op) << op->domain << " " << op->name;
    ASSERT_GT(op->versions.size(), 0u) << op->name;
    int previous = 0;
    for (const OpSchema& schema : op->versions) {
      EXPECT_GT(schema.since_version, previous) << op->name;
      previous = schema.since_version;
      EXPECT_EQ(op->at(schema.since_version), &schema);
      EXPECT_EQ(findSchema(op->domain, op->name, schema.since_version), &schema);
      for (const AttributeSpec& attribute : schema.attributes) {
        EXPECT_EQ(schema.attribute(attribute.name), &attribute) << op->name;
      }
      for (const auto* formals : {&schema.inputs, &schema.outputs}) {
        for (const FormalParameter& formal : *formals) {
          EXPECT_NE(schema.constraint(formal.type), nullptr) << op->name << " " << formal.name;
        }
      }
    }
    const OperatorSetInfo* set = findOperatorSet(op->domain);
    ASSERT_NE(set, nullptr) << op->domain;
    EXPECT_LE(op->versions.begin()->since_version, set->last_version) << op->name;
    EXPECT_EQ(op->at(op->versions.begin()->since_version - 1), nullptr);
  }
}

TEST(Registry, AllOperatorsAreSortedByDomainThenName) {
  auto all = allOperators();
  auto domainRank = [](const Operator* op) {
    return findOperatorSet(op->domain) - standardOperatorSets().data();
  };
  for (size_t i = 1; i < all.size(); ++i) {
    auto before = std::make_pair(domainRank(all[i - 1]), std::string_view(all[i - 1]->name));
    auto after = std::make_pair(domainRank(all[i]), std::string_view(all[i]->name));
    EXPECT_LT(before, after) << all[i]->name;
  }
}

// The domain constant and the name of the Operator an op file defines
// (`constexpr Operator kX{.domain = kOnnxDomain, .name = "X", ...`), or empty strings.
// Plain searching: std::regex trips g++ 12's -Wmaybe-uninitialized in sanitizer builds.
std::pair<std::string, std::string> definedOperator(const std::string& source) {
  size_t at = source.find("constexpr Operator k");
  if (at == std::string::npos) return {};
  size_t domain = source.find(".domain = ", at);
  size_t name = source.find(".name = \"", at);
  if (domain == std::string::npos || name == std::string::npos) return {};
  domain += std::string_view(".domain = ").size();
  size_t domain_end = source.find_first_of(", \n", domain);
  name += std::string_view(".name = \"").size();
  size_t name_end = source.find('"', name);
  if (domain_end == std::string::npos || name_end == std::string::npos) return {};
  return {source.substr(domain, domain_end - domain), source.substr(name, name_end - name)};
}

// Each op file under src/ops/<family>/ defines one Operator; operator_index.inc must list it,
// or the registry never sees it. A file that defines none holds what several of a family's
// operators share (their shape rules): it is not counted, and the counts must still agree.
TEST(Registry, TheIndexListsEveryOpFile) {
  fs::path ops = fs::path(ONYX_SOURCE_DIR) / "src" / "ops";
  if (!fs::is_directory(ops)) GTEST_SKIP() << "no sources at " << ops;
  const std::pair<const char*, const char*> domains[] = {
      {"kOnnxDomain", kOnnxDomain},
      {"kMlDomain", kMlDomain},
      {"kTrainingDomain", kTrainingDomain},
      {"kPreviewDomain", kPreviewDomain},
      {"kPreviewTrainingDomain", kPreviewTrainingDomain}};
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ops)) {
    if (entry.path().extension() != ".cc" || entry.path().parent_path() == ops) continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    std::string source = text.str();
    if (source.find("constexpr Operator k") == std::string::npos) continue;
    ++files;
    auto [domain_constant, name] = definedOperator(source);
    ASSERT_FALSE(name.empty()) << entry.path();
    const char* domain_name = nullptr;
    for (const auto& [constant, value] : domains) {
      if (domain_constant == constant) domain_name = value;
    }
    ASSERT_NE(domain_name, nullptr) << entry.path() << ": " << domain_constant;
    EXPECT_NE(findOperator(domain_name, name), nullptr)
        << entry.path() << " is not in src/ops/operator_index.inc";
  }
  EXPECT_EQ(files, allOperators().size());
}

TEST(Registry, CountsAndPositions) {
  const OpSchema* concat = findSchema("", "Concat", 13);
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(concat->minInputs(), 1u);
  EXPECT_EQ(concat->maxInputs(), OpSchema::kUnbounded);
  EXPECT_EQ(concat->inputAt(0), concat->inputs.begin());
  EXPECT_EQ(concat->inputAt(500), concat->inputs.begin());  // the variadic takes them all
  EXPECT_EQ(concat->outputAt(1), nullptr);

  const OpSchema* lstm = findSchema("", "LSTM", 14);
  ASSERT_NE(lstm, nullptr);
  EXPECT_EQ(lstm->minInputs(), 3u);
  EXPECT_EQ(lstm->maxInputs(), 8u);
  EXPECT_EQ(lstm->minOutputs(), 0u);
  EXPECT_EQ(lstm->maxOutputs(), 3u);
  ASSERT_NE(lstm->inputAt(7), nullptr);
  EXPECT_STREQ(lstm->inputAt(7)->name, "P");
  EXPECT_EQ(lstm->inputAt(8), nullptr);

  const OpSchema* constant = findSchema("", "Constant", 25);
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->maxInputs(), 0u);
  EXPECT_EQ(constant->inputAt(0), nullptr);
  EXPECT_EQ(constant->attribute("value")->kind, AttributeKind::kTensor);
  EXPECT_EQ(constant->attribute("sparse_value")->kind, AttributeKind::kSparseTensor);
  EXPECT_EQ(constant->attribute("values"), nullptr);
  EXPECT_EQ(constant->attribute(""), nullptr);
  EXPECT_EQ(findSchema("", "Optional", 15)->attribute("type")->kind, AttributeKind::kTypeProto);
}

TEST(TypeSets, AllowsWhatTheConstraintNames) {
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  const OpSchema* loop = findSchema("", "Loop", 16);
  ASSERT_NE(loop, nullptr);
  const TypeSet& v = loop->constraint("V")->allowed;
  const int32_t kFloat = 1, kInt64 = 7, kString = 8, kFloat8 = 17;
  EXPECT_TRUE(v.allows(*edit.tensorType(kFloat, {})));
  EXPECT_FALSE(v.allows(*edit.tensorType(kFloat8, {})));  // float8 came in 19
  EXPECT_TRUE(v.allows(*edit.sequenceType(edit.tensorType(kString, {}))));
  EXPECT_TRUE(v.allows(*edit.optionalType(edit.tensorType(kInt64, {}))));
  EXPECT_TRUE(v.allows(*edit.optionalType(edit.sequenceType(edit.tensorType(kFloat, {})))));
  EXPECT_FALSE(v.allows(*edit.mapType(kString, edit.tensorType(kFloat, {}))));
  EXPECT_FALSE(v.allows(*edit.sparseTensorType(kFloat, {})));
  // What is unknown fits: a tensor without an element type, a type with no kind.
  Type unknown_element;
  unknown_element.kind = Type::Kind::kTensor;
  EXPECT_TRUE(v.allows(unknown_element));
  EXPECT_TRUE(v.allows(Type{}));
  EXPECT_FALSE(v.allows(*edit.tensorType(99, {})));

  const OpSchema* cast = findSchema("", "Cast", 13);
  const TypeSet& t1 = cast->constraint("T1")->allowed;
  EXPECT_FALSE(t1.allows(*edit.sequenceType(edit.tensorType(kFloat, {}))));
  EXPECT_FALSE(t1.allows(*edit.tensorType(14, {})));  // complex64

  const OpSchema* zipmap = findSchema(kMlDomain, "ZipMap", 1);
  ASSERT_NE(zipmap, nullptr);
  const TypeSet& maps = zipmap->constraint("T")->allowed;
  EXPECT_TRUE(maps.allows(*edit.sequenceType(edit.mapType(kString, edit.tensorType(kFloat, {})))));
  EXPECT_TRUE(maps.allows(*edit.sequenceType(edit.mapType(kInt64, edit.tensorType(kFloat, {})))));
  EXPECT_FALSE(maps.allows(*edit.sequenceType(edit.mapType(kInt64, edit.tensorType(kInt64, {})))));
  EXPECT_FALSE(maps.allows(*edit.mapType(kString, edit.tensorType(kFloat, {}))));
  EXPECT_EQ(typeSetNames(maps),
            (std::vector<std::string>{"seq(map(string, float))", "seq(map(int64, float))"}));

  const OpSchema* cast_map = findSchema(kMlDomain, "CastMap", 1);
  ASSERT_NE(cast_map, nullptr);
  const TypeSet& t = cast_map->constraint("T1")->allowed;
  EXPECT_TRUE(t.allows(*edit.mapType(kInt64, edit.tensorType(kString, {}))));
  EXPECT_FALSE(t.allows(*edit.mapType(kString, edit.tensorType(kString, {}))));
}

TEST(SchemaText, DefaultsReadBackAsTheirKind) {
  const OpSchema* leaky = findSchema("", "LeakyRelu", 16);
  EXPECT_EQ(attributeDefaultText(*leaky->attribute("alpha")), "0.01");
  const OpSchema* celu = findSchema("", "Celu", 12);
  EXPECT_EQ(attributeDefaultText(*celu->attribute("alpha")), "1.0");  // a float, not 1
  const OpSchema* clip = findSchema("", "Clip", 6);
  EXPECT_EQ(attributeDefaultText(*clip->attribute("max")), "3.4028235e+38");
  EXPECT_EQ(attributeDefaultText(*findSchema("", "Conv", 22)->attribute("pads")), "");
  EXPECT_EQ(attributeKindName(AttributeKind::kSparseTensors), "sparse_tensors");
  EXPECT_EQ(parameterOptionName(ParameterOption::kVariadic), "variadic");
}

}  // namespace
}  // namespace onyx
