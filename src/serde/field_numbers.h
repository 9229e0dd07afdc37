// Internal: the field numbers of onnx.proto's messages, by message, for code that writes
// wire bytes by hand (the text parser's transcoder, the tests' model builders). The decoder
// and encoder switch on the same numbers in their own code.
#pragma once

#include <cstdint>

namespace onyx::field {
namespace model {
inline constexpr uint32_t kIrVersion = 1;
inline constexpr uint32_t kProducerName = 2;
inline constexpr uint32_t kProducerVersion = 3;
inline constexpr uint32_t kDomain = 4;
inline constexpr uint32_t kModelVersion = 5;
inline constexpr uint32_t kDocString = 6;
inline constexpr uint32_t kGraph = 7;
inline constexpr uint32_t kOpsetImport = 8;
inline constexpr uint32_t kMetadataProps = 14;
inline constexpr uint32_t kTrainingInfo = 20;
inline constexpr uint32_t kFunctions = 25;
inline constexpr uint32_t kConfiguration = 26;
}  // namespace model
namespace opset {
inline constexpr uint32_t kDomain = 1;
inline constexpr uint32_t kVersion = 2;
}  // namespace opset
namespace entry {  // StringStringEntryProto
inline constexpr uint32_t kKey = 1;
inline constexpr uint32_t kValue = 2;
}  // namespace entry
namespace training {
inline constexpr uint32_t kInitialization = 1;
inline constexpr uint32_t kAlgorithm = 2;
inline constexpr uint32_t kInitializationBinding = 3;
inline constexpr uint32_t kUpdateBinding = 4;
}  // namespace training
namespace graph {
inline constexpr uint32_t kNode = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kInitializer = 5;
inline constexpr uint32_t kDocString = 10;
inline constexpr uint32_t kInput = 11;
inline constexpr uint32_t kOutput = 12;
inline constexpr uint32_t kValueInfo = 13;
inline constexpr uint32_t kQuantizationAnnotation = 14;
inline constexpr uint32_t kSparseInitializer = 15;
inline constexpr uint32_t kMetadataProps = 16;
}  // namespace graph
namespace node {
inline constexpr uint32_t kInput = 1;
inline constexpr uint32_t kOutput = 2;
inline constexpr uint32_t kName = 3;
inline constexpr uint32_t kOpType = 4;
inline constexpr uint32_t kAttribute = 5;
inline constexpr uint32_t kDocString = 6;
inline constexpr uint32_t kDomain = 7;
inline constexpr uint32_t kOverload = 8;
inline constexpr uint32_t kMetadataProps = 9;
inline constexpr uint32_t kDeviceConfigurations = 10;
}  // namespace node
namespace attribute {
inline constexpr uint32_t kName = 1;
inline constexpr uint32_t kF = 2;
inline constexpr uint32_t kI = 3;
inline constexpr uint32_t kS = 4;
inline constexpr uint32_t kT = 5;
inline constexpr uint32_t kG = 6;
inline constexpr uint32_t kFloats = 7;
inline constexpr uint32_t kInts = 8;
inline constexpr uint32_t kStrings = 9;
inline constexpr uint32_t kTensors = 10;
inline constexpr uint32_t kGraphs = 11;
inline constexpr uint32_t kDocString = 13;
inline constexpr uint32_t kTp = 14;
inline constexpr uint32_t kTypeProtos = 15;
inline constexpr uint32_t kType = 20;
inline constexpr uint32_t kRefAttrName = 21;
inline constexpr uint32_t kSparseTensor = 22;
inline constexpr uint32_t kSparseTensors = 23;
}  // namespace attribute
namespace value_info {
inline constexpr uint32_t kName = 1;
inline constexpr uint32_t kType = 2;
inline constexpr uint32_t kDocString = 3;
inline constexpr uint32_t kMetadataProps = 4;
}  // namespace value_info
namespace type {  // TypeProto and its members
inline constexpr uint32_t kTensorType = 1;
inline constexpr uint32_t kSequenceType = 4;
inline constexpr uint32_t kMapType = 5;
inline constexpr uint32_t kDenotation = 6;
inline constexpr uint32_t kOpaqueType = 7;
inline constexpr uint32_t kSparseTensorType = 8;
inline constexpr uint32_t kOptionalType = 9;
inline constexpr uint32_t kElemType =
    1;  // Tensor, SparseTensor (int32); Sequence, Optional (TypeProto)
inline constexpr uint32_t kShape = 2;      // Tensor, SparseTensor
inline constexpr uint32_t kKeyType = 1;    // Map
inline constexpr uint32_t kValueType = 2;  // Map
// TypeProto.Opaque
inline constexpr uint32_t kOpaqueDomain = 1;
inline constexpr uint32_t kOpaqueName = 2;
}  // namespace type
namespace shape {  // TensorShapeProto and Dimension
inline constexpr uint32_t kDim = 1;
inline constexpr uint32_t kDimValue = 1;
inline constexpr uint32_t kDimParam = 2;
inline constexpr uint32_t kDenotation = 3;
}  // namespace shape
namespace tensor {
inline constexpr uint32_t kDims = 1;
inline constexpr uint32_t kDataType = 2;
inline constexpr uint32_t kSegment = 3;
inline constexpr uint32_t kFloatData = 4;
inline constexpr uint32_t kInt32Data = 5;
inline constexpr uint32_t kStringData = 6;
inline constexpr uint32_t kInt64Data = 7;
inline constexpr uint32_t kName = 8;
inline constexpr uint32_t kRawData = 9;
inline constexpr uint32_t kDoubleData = 10;
inline constexpr uint32_t kUint64Data = 11;
inline constexpr uint32_t kDocString = 12;
inline constexpr uint32_t kExternalData = 13;
inline constexpr uint32_t kDataLocation = 14;
inline constexpr uint32_t kMetadataProps = 16;
inline constexpr int32_t kExternal = 1;  // the DataLocation value EXTERNAL
}  // namespace tensor
namespace sparse {
inline constexpr uint32_t kValues = 1;
inline constexpr uint32_t kIndices = 2;
inline constexpr uint32_t kDims = 3;
}  // namespace sparse
namespace function {
inline constexpr uint32_t kName = 1;
inline constexpr uint32_t kInput = 4;
inline constexpr uint32_t kOutput = 5;
inline constexpr uint32_t kAttribute = 6;
inline constexpr uint32_t kNode = 7;
inline constexpr uint32_t kDocString = 8;
inline constexpr uint32_t kOpsetImport = 9;
inline constexpr uint32_t kDomain = 10;
inline constexpr uint32_t kAttributeProto = 11;
inline constexpr uint32_t kValueInfo = 12;
inline constexpr uint32_t kOverload = 13;
inline constexpr uint32_t kMetadataProps = 14;
}  // namespace function
}  // namespace onyx::field
