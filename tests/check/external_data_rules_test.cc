// The external-data rules R70–R74, on a real model folder:
//   <root>/model/          the model's folder, with w.bin (24 bytes: a float tensor [2, 3])
//   <root>/outside/secret  a file the model must never reach
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "check/value_rules.h"
#include "check/value_rules_testing.h"
#include "onyx/ir/editor.h"
#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx::check {
namespace {

using namespace onyx::check::testing;

class ExternalDataRules : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = std::filesystem::temp_directory_path() / "onyx-checkv-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    std::filesystem::create_directory(folder());
    std::filesystem::create_directory(root_ / "outside");
    writeFile(folder() / "w.bin", std::string(24, 'x'));
    writeFile(root_ / "outside" / "secret", std::string(24, 's'));
    model_.setFolder(folder().string());
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }

  std::filesystem::path folder() const { return root_ / "model"; }

  static void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    ASSERT_TRUE(out.good()) << path;
  }

  // A float [2, 3] tensor stored externally, with these external_data entries.
  Tensor* external(std::initializer_list<std::pair<std::string_view, std::string_view>> entries,
                   ElementType type = ElementType::kFloat) {
    Tensor* tensor = makeTensor(edit_.arena(), type, {2, 3});
    tensor->data_location = Tensor::kExternal;
    for (auto [key, value] : entries)
      addEntry(edit_.arena(), edit_.rare(tensor).external_data, key, value);
    return tensor;
  }

  Diagnostics check(const Tensor& tensor, const Model* model) {
    ValueContext context;
    context.model = model;
    context.ir_version = 10;
    Diagnostics out;
    checkTensor(tensor, context, "graph.initializer[0](w)", out);
    return out;
  }
  Diagnostics check(const Tensor& tensor) { return check(tensor, &model_); }

  std::filesystem::path root_;
  Model model_;
  Model owner_;  // holds what the test builds
  GraphEditor edit_{owner_};
};

TEST_F(ExternalDataRules, AValidExternalTensorIsClean) {
  EXPECT_TRUE(clean(check(*external({{"location", "w.bin"}}))));
  EXPECT_TRUE(
      clean(check(*external({{"location", "./w.bin"}, {"offset", "0"}, {"length", "24"}}))));
  // An empty tensor needs no bytes: a zero-length range at the end of the file.
  Tensor* empty = makeTensor(edit_.arena(), ElementType::kFloat, {0, 3});
  empty->data_location = Tensor::kExternal;
  addEntry(edit_.arena(), edit_.rare(empty).external_data, "location", "w.bin");
  addEntry(edit_.arena(), edit_.rare(empty).external_data, "offset", "24");
  addEntry(edit_.arena(), edit_.rare(empty).external_data, "length", "0");
  EXPECT_TRUE(clean(check(*empty)));
}

// ---- R70 -------------------------------------------------------------------------------------

TEST_F(ExternalDataRules, R70ExternalTensorsHoldNoInlineDataAndNameALocation) {
  Tensor* also_inline = external({{"location", "w.bin"}});
  setRaw(edit_.arena(), *also_inline, 24);
  Diagnostics diagnostics = check(*also_inline);
  EXPECT_TRUE(onlyRule(diagnostics, "R70"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).raw_data");

  Tensor* typed_too = external({{"location", "w.bin"}});
  edit_.rare(typed_too).float_data = words(edit_.arena(), 6, 4);
  EXPECT_TRUE(onlyRule(check(*typed_too), "R70"));

  diagnostics = check(*external({{"offset", "0"}}));
  EXPECT_TRUE(onlyRule(diagnostics, "R70"));
  EXPECT_EQ(single(diagnostics).message,
            "the tensor is stored externally but external_data has no 'location' entry");
}

// ---- R71 -------------------------------------------------------------------------------------

TEST_F(ExternalDataRules, R71TheLocationIsASafeRelativePathToAFileInTheFolder) {
  for (std::string_view location : {"../outside/secret", "/etc/passwd", "a/../../outside/secret",
                                    "", "sub\\w.bin", "C:/w.bin", "_ORT_MEM_ADDR_"}) {
    Diagnostics diagnostics = check(*external({{"location", location}}));
    EXPECT_TRUE(onlyRule(diagnostics, "R71")) << location;
    EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).external_data(location)");
  }
  Diagnostics diagnostics = check(*external({{"location", "missing.bin"}}));
  EXPECT_TRUE(onlyRule(diagnostics, "R71"));

  // A symbolic link is refused even when it stays inside the folder.
  std::filesystem::create_symlink("w.bin", folder() / "link.bin");
  EXPECT_TRUE(onlyRule(check(*external({{"location", "link.bin"}})), "R71"));
  std::filesystem::create_symlink(root_ / "outside" / "secret", folder() / "escape.bin");
  EXPECT_TRUE(onlyRule(check(*external({{"location", "escape.bin"}})), "R71"));
  // A folder is not a data file.
  std::filesystem::create_directory(folder() / "sub");
  EXPECT_TRUE(onlyRule(check(*external({{"location", "sub"}})), "R71"));
}

TEST_F(ExternalDataRules, R71AnUnknownFolderIsSaidNotGuessed) {
  // A model from bytes has no folder: the syntax is checked, the file cannot be.
  Diagnostics diagnostics = check(*external({{"location", "w.bin"}}), nullptr);
  EXPECT_TRUE(onlyRule(diagnostics, "R71", Severity::kWarning));
  EXPECT_FALSE(diagnostics.hasErrors());
  EXPECT_NE(single(diagnostics).message.find("folder is unknown"), std::string::npos);
  Model no_folder;
  EXPECT_TRUE(
      onlyRule(check(*external({{"location", "w.bin"}}), &no_folder), "R71", Severity::kWarning));
  // An unsafe location is an error whatever the folder.
  EXPECT_TRUE(onlyRule(check(*external({{"location", "../x"}}), nullptr), "R71"));
}

// ---- R72 -------------------------------------------------------------------------------------

TEST_F(ExternalDataRules, R72OffsetAndLengthAreDecimalAndInsideTheFile) {
  for (std::string_view offset : {"-5", "abc", " 4", "4 ", "+4", "", "99999999999999999999999"}) {
    Diagnostics diagnostics = check(*external({{"location", "w.bin"}, {"offset", offset}}));
    EXPECT_TRUE(onlyRule(diagnostics, "R72")) << offset;
    EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).external_data(offset)");
  }
  EXPECT_TRUE(onlyRule(check(*external({{"location", "w.bin"}, {"length", "0x18"}})), "R72"));
  // Past the end of the 24-byte file.
  EXPECT_TRUE(onlyRule(
      check(*external({{"location", "w.bin"}, {"offset", "16"}, {"length", "24"}})), "R72"));
  EXPECT_TRUE(onlyRule(check(*external({{"location", "w.bin"}, {"offset", "25"}})), "R72"));
}

TEST_F(ExternalDataRules, R72TheRangeHasExactlyTheTensorsBytes) {
  Diagnostics diagnostics = check(*external({{"location", "w.bin"}, {"length", "8"}}));
  EXPECT_TRUE(onlyRule(diagnostics, "R72"));
  EXPECT_EQ(single(diagnostics).message,
            "the external data ('w.bin' at offset 0, length 8) has 8 bytes; a float tensor of "
            "dims [2, 3] needs 24");
  // Without a length the range runs to the end of the file, which must then be the tensor's end.
  writeFile(folder() / "long.bin", std::string(32, 'x'));
  EXPECT_TRUE(onlyRule(check(*external({{"location", "long.bin"}})), "R72"));
  EXPECT_TRUE(clean(check(*external({{"location", "long.bin"}, {"offset", "8"}}))));
  EXPECT_TRUE(clean(check(*external({{"location", "long.bin"}, {"length", "24"}}))));
}

TEST_F(ExternalDataRules, R72DataLoadedWithTheModelIsMeasuredWithoutOpeningTheFileAgain) {
  Tensor* loaded = external({{"location", "w.bin"}, {"length", "10"}});
  const std::string bytes(10, 'x');
  edit_.rare(loaded).external_bytes = std::string_view(bytes);
  Model elsewhere;  // the folder does not matter: the bytes are there
  EXPECT_TRUE(onlyRule(check(*loaded, &elsewhere), "R72"));
  const std::string right(24, 'x');
  edit_.rare(loaded).external_bytes = std::string_view(right);
  EXPECT_TRUE(clean(check(*loaded, &elsewhere)));
}

TEST_F(ExternalDataRules, R72AModelLoadedFromItsFolderIsChecked) {
  using namespace onyx::testing;
  auto modelWith = [](std::string_view length) {
    ProtoBuilder tensor;
    tensor.packedVarints(field::tensor::kDims, {2, 3})
        .varint(field::tensor::kDataType, data_type::kFloat)
        .bytes(field::tensor::kName, "w")
        .message(field::tensor::kExternalData, stringEntry("location", "w.bin"))
        .message(field::tensor::kExternalData, stringEntry("length", length))
        .varint(field::tensor::kDataLocation, kDataLocationExternal);
    ProtoBuilder graph;
    graph.bytes(field::graph::kName, "g").message(field::graph::kInitializer, tensor);
    return modelWithGraph(graph, 10).str();
  };
  for (auto [length, expect_clean] : {std::pair{"24", true}, std::pair{"12", false}}) {
    writeFile(folder() / "model.onnx", modelWith(length));
    auto model = loadModel((folder() / "model.onnx").string());
    ASSERT_TRUE(model) << model.status().toString();
    const Tensor& tensor = *model->graph->initializers[0];
    ASSERT_TRUE(tensor.rare().external_bytes.has_value());
    Diagnostics diagnostics = check(tensor, &*model);
    if (expect_clean) {
      EXPECT_TRUE(clean(diagnostics));
    } else {
      EXPECT_TRUE(onlyRule(diagnostics, "R72"));
    }
    // Loaded without its data, the checker opens the file itself, by the same rules.
    LoadOptions lazy;
    lazy.load_external_data = false;
    auto unloaded = loadModel((folder() / "model.onnx").string(), lazy);
    ASSERT_TRUE(unloaded) << unloaded.status().toString();
    ASSERT_FALSE(unloaded->graph->initializers[0]->rare().external_bytes.has_value());
    diagnostics = check(*unloaded->graph->initializers[0], &*unloaded);
    if (expect_clean) {
      EXPECT_TRUE(clean(diagnostics));
    } else {
      EXPECT_TRUE(onlyRule(diagnostics, "R72"));
    }
  }
}

// ---- R73 -------------------------------------------------------------------------------------

TEST_F(ExternalDataRules, R73KeysAreUniqueKnownAndWellFormed) {
  // Warnings all: the spec says neither that a key appears once nor how a checksum is spelled.
  Diagnostics diagnostics =
      check(*external({{"location", "w.bin"}, {"location", "../outside/secret"}}));
  // The last entry is the one onyx reads, and the checker judges it: it is unsafe (an error).
  EXPECT_TRUE(diagnostics.has("R73"));
  EXPECT_TRUE(diagnostics.has("R71"));
  diagnostics = check(*external({{"location", "w.bin"}, {"length", "24"}, {"length", "24"}}));
  EXPECT_TRUE(onlyRule(diagnostics, "R73", Severity::kWarning));
  EXPECT_EQ(single(diagnostics).message,
            "the key 'length' appears 2 times; onyx reads the last, but a reader that takes the "
            "first reads something else");
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).external_data(length)");

  EXPECT_TRUE(onlyRule(check(*external({{"location", "w.bin"}, {"colour", "red"}})), "R73",
                       Severity::kWarning));
  EXPECT_TRUE(
      onlyRule(check(*external({{"location", "w.bin"}, {"", "x"}})), "R73", Severity::kWarning));
  EXPECT_TRUE(onlyRule(check(*external({{"location", "w.bin"}, {"checksum", "abc"}})), "R73",
                       Severity::kWarning));
  EXPECT_TRUE(clean(check(*external({{"location", "w.bin"},
                                     {"checksum", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
                                     {"basepath", "/somewhere"}}))));

  // external_data on a tensor stored inline is ignored by readers: a warning.
  Tensor* inline_tensor = makeTensor(edit_.arena(), ElementType::kFloat, {2, 3});
  setRaw(edit_.arena(), *inline_tensor, 24);
  addEntry(edit_.arena(), edit_.rare(inline_tensor).external_data, "location", "w.bin");
  EXPECT_TRUE(onlyRule(check(*inline_tensor), "R73", Severity::kWarning));
}

// ---- R74 -------------------------------------------------------------------------------------

TEST_F(ExternalDataRules, R74StringTensorsAreNotStoredExternally) {
  Diagnostics diagnostics = check(*external({{"location", "w.bin"}}, ElementType::kString));
  EXPECT_TRUE(onlyRule(diagnostics, "R74"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).data_location");
}

}  // namespace
}  // namespace onyx::check
