// Model: opset imports, functions keyed by (domain, name, overload), metadata, training
// info and device configurations.
#include <gtest/gtest.h>

#include "onyx/ir/editor.h"
#include "onyx/ir/metadata.h"
#include "onyx/ir/model.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

TEST(ModelOpsets, SetChangeAndRemove) {
  Model model = testing::emptyModel();
  EXPECT_EQ(model.opsetVersion(""), 18);
  EXPECT_EQ(model.opsetVersion("ai.onnx"), 18);  // the same domain
  model.setOpsetVersion("ai.onnx", 19);
  EXPECT_EQ(model.opset_import.size(), 1u);
  EXPECT_EQ(model.opsetVersion(""), 19);
  model.setOpsetVersion("ai.onnx.ml", 3);
  EXPECT_EQ(model.opsetVersion("ai.onnx.ml"), 3);
  EXPECT_TRUE(model.removeOpset("ai.onnx.ml"));
  EXPECT_FALSE(model.removeOpset("ai.onnx.ml"));
  EXPECT_EQ(model.opsetVersion("ai.onnx.ml"), std::nullopt);
  Model back = testing::reparse(model);
  EXPECT_EQ(back.opsetVersion(""), 19);
  EXPECT_EQ(back.opset_import.size(), 1u);
}

TEST(ModelFunctions, KeyedByDomainNameAndOverload) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Function* plain = edit.newFunction("custom", "Op");
  Function* overloaded = edit.newFunction("custom", "Op", "fast");
  Function* elsewhere = edit.newFunction("other", "Op");
  ASSERT_TRUE(model.addFunction(plain));
  ASSERT_TRUE(model.addFunction(overloaded));
  ASSERT_TRUE(model.addFunction(elsewhere));
  Status duplicate = model.addFunction(edit.newFunction("custom", "Op", "fast"));
  EXPECT_FALSE(duplicate);
  EXPECT_NE(duplicate.message().find("custom.Op:fast"), std::string::npos);
  EXPECT_EQ(model.findFunction("custom", "Op"), plain);
  EXPECT_EQ(model.findFunction("custom", "Op", "fast"), overloaded);
  EXPECT_EQ(model.findFunction("other", "Op"), elsewhere);
  EXPECT_EQ(model.findFunction("custom", "Missing"), nullptr);
  EXPECT_TRUE(model.removeFunction(overloaded));
  EXPECT_FALSE(model.removeFunction(overloaded));
  EXPECT_EQ(model.findFunction("custom", "Op", "fast"), nullptr);
  EXPECT_TRUE(testing::verified(model));
  Model back = testing::reparse(model);
  ASSERT_EQ(back.functions.size(), 2u);
  EXPECT_NE(back.findFunction("other", "Op"), nullptr);
}

TEST(ModelFunctions, InputsAndOutputsOfAFunction) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Function* function = edit.newFunction("custom", "Pick");
  Value* a = *edit.addInput(*function, "a");
  Value* unused = *edit.addInput(*function, "unused");
  ASSERT_TRUE(edit.addInput(*function, ""));  // an omitted input
  edit.addOutput(*function, a);
  edit.addOutput(*function, a);
  ASSERT_TRUE(model.addFunction(function));
  EXPECT_TRUE(testing::verified(model));
  EXPECT_FALSE(function->removeInput(0));  // read by the outputs
  ASSERT_TRUE(function->removeInput(1));
  EXPECT_FALSE(unused->isAttached());
  function->removeOutput(1);
  EXPECT_EQ(a->useCount(), 1u);
  EXPECT_TRUE(testing::verified(model));
  Model back = testing::reparse(model);
  const Function& read = *back.functions[0];
  ASSERT_EQ(read.inputs.size(), 2u);
  EXPECT_EQ(read.inputs[1], nullptr);
  ASSERT_EQ(read.outputs.size(), 1u);
  EXPECT_EQ(read.outputs[0]->value(), read.inputs[0]);
}

TEST(ModelMetadata, MetadataTrainingAndDevices) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  edit.setMetadata(model.metadata_props, "license", "MIT");
  TrainingInfo& training = model.addTrainingInfo();
  edit.setMetadata(training.update_binding, "w", "w_new");
  DeviceConfiguration& config = model.addConfiguration("pair", 2, {"gpu0", "gpu1"});
  EXPECT_EQ(model.findConfiguration("pair"), &config);
  EXPECT_EQ(model.findConfiguration("none"), nullptr);
  EXPECT_TRUE(testing::verified(model));
  Model back = testing::reparse(model);
  EXPECT_EQ(metadataValue(back.metadata_props, "license"), "MIT");
  ASSERT_EQ(back.training_info.size(), 1u);
  EXPECT_EQ(metadataValue(back.training_info[0]->update_binding, "w"), "w_new");
  ASSERT_NE(back.findConfiguration("pair"), nullptr);
  EXPECT_EQ(back.findConfiguration("pair")->device.size(), 2u);
  EXPECT_EQ(back.findConfiguration("pair")->num_devices, 2);
}

}  // namespace
}  // namespace onyx
