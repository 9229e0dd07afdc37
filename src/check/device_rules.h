// Internal: multi-device annotations (R22, IR 11): the model's device configurations and
// the configurations and sharding specs on nodes.
#pragma once

#include "check/check_context.h"

namespace onyx::check {

/// ModelProto.configuration: each is named, says num_devices, and lists that many devices
/// or none.
void checkModelDevices(const CheckContext& context);

/// NodeProto.device_configurations of `node` (at `path`): each names a configuration of the
/// model; each sharding spec names one of the node's inputs or outputs, with axes within the
/// tensor's rank and a shard count for every sharded dimension.
void checkNodeDevices(const Node& node, const LazyPath& path, const CheckContext& context);

}  // namespace onyx::check
