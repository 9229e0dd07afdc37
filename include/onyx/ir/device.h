// onyx/ir/device.h — device configurations and sharding (IR 11).
#pragma once

#include <cstdint>
#include <optional>

#include "onyx/ir/fields.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct DeviceConfiguration {
  OptString name;
  std::optional<int32_t> num_devices;
  ArenaList<std::string_view> device;
  UnknownFields unknown;
};

struct IntIntListEntry {
  std::optional<int64_t> key;
  Repeated<int64_t> value;
  UnknownFields unknown;
};

struct SimpleShardedDim {
  // The proto's oneof: at most one of the two is set.
  std::optional<int64_t> dim_value;
  OptString dim_param;
  std::optional<int64_t> num_shards;
  UnknownFields unknown;
};

struct ShardedDim {
  std::optional<int64_t> axis;
  ArenaList<SimpleShardedDim*> simple_sharding;
  UnknownFields unknown;
};

struct ShardingSpec {
  OptString tensor_name;
  Repeated<int64_t> device;
  ArenaList<IntIntListEntry*> index_to_device_group_map;
  ArenaList<ShardedDim*> sharded_dim;
  UnknownFields unknown;
};

struct NodeDeviceConfiguration {
  OptString configuration_id;
  ArenaList<ShardingSpec*> sharding_spec;
  std::optional<int32_t> pipeline_stage;
  UnknownFields unknown;
};

}  // namespace onyx

#pragma GCC visibility pop
