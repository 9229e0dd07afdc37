#include "check/device_rules.h"

#include "onyx/core/quote.h"
#include "onyx/ir/type.h"

namespace onyx::check {

namespace {

// The value named `name` among the node's inputs and outputs, or null.
const Value* nodeValue(const Node& node, std::string_view name, bool& named) {
  named = false;
  for (const Use& use : node.inputs()) {
    if (use.value() != nullptr && use.value()->name() == name) return (named = true, use.value());
  }
  for (const Value* value : node.outputs()) {
    if (value != nullptr && value->name() == name) return (named = true, value);
  }
  return nullptr;
}

}  // namespace

void checkModelDevices(const CheckContext& context) {
  const Model& model = context.model;
  Diagnostics& out = context.out;
  for (size_t i = 0; i < model.configuration.size(); ++i) {
    const DeviceConfiguration* config = model.configuration[i];
    if (config == nullptr) continue;
    auto path = [&] {
      std::string text;
      appendSegment(text, "configuration", i, config->name.value_or(std::string_view()));
      return text;
    };
    if (i == 0) context.fieldSince("R22", 11, LazyPath(path), "ModelProto.configuration");
    if (!config->name) out.error("R22", path(), "the device configuration has no name");
    if (!config->num_devices) {
      out.error("R22", path(), "the device configuration has no num_devices");
    } else if (*config->num_devices < 1) {
      out.error("R22", path(),
                "num_devices is " + std::to_string(*config->num_devices) +
                    "; a configuration has at least one device");
    } else if (!config->device.empty() &&
               config->device.size() != static_cast<size_t>(*config->num_devices)) {
      out.error("R22", path(),
                "lists " + std::to_string(config->device.size()) + " devices but num_devices is " +
                    std::to_string(*config->num_devices) + "; the list is empty or complete");
    }
  }
}

void checkNodeDevices(const Node& node, const LazyPath& path, const CheckContext& context) {
  const Model& model = context.model;
  Diagnostics& out = context.out;
  const ArenaList<NodeDeviceConfiguration*>& configs = node.rare().device_configurations;
  for (size_t c = 0; c < configs.size(); ++c) {
    const NodeDeviceConfiguration* config = configs[c];
    if (config == nullptr) continue;
    auto config_path = [&] {
      std::string text = path();
      appendSegment(text, "device_configurations", c);
      return text;
    };
    if (c == 0) {
      context.fieldSince("R22", 11, LazyPath(config_path), "NodeProto.device_configurations");
    }
    if (!config->configuration_id) {
      out.error("R22", config_path(), "has no configuration_id");
    } else if (model.findConfiguration(*config->configuration_id) == nullptr) {
      out.error("R22", config_path(),
                "configuration_id " + quoted(*config->configuration_id) +
                    " names no device configuration of the model");
    }
    for (size_t s = 0; s < config->sharding_spec.size(); ++s) {
      const ShardingSpec* spec = config->sharding_spec[s];
      if (spec == nullptr) continue;
      auto spec_path = [&] {
        std::string text = config_path();
        appendSegment(text, "sharding_spec", s);
        return text;
      };
      const Value* value = nullptr;
      if (!spec->tensor_name) {
        out.error("R22", spec_path(), "the sharding spec has no tensor_name");
      } else {
        bool named = false;
        value = nodeValue(node, *spec->tensor_name, named);
        if (!named) {
          out.error("R22", spec_path(),
                    "tensor_name " + quoted(*spec->tensor_name) +
                        " is none of the node's inputs and outputs");
        }
      }
      const TensorShape* shape = value != nullptr ? value->shape() : nullptr;
      for (size_t d = 0; d < spec->sharded_dim.size(); ++d) {
        const ShardedDim* dim = spec->sharded_dim[d];
        if (dim == nullptr) continue;
        auto dim_path = [&] {
          std::string text = spec_path();
          appendSegment(text, "sharded_dim", d);
          return text;
        };
        if (!dim->axis) {
          out.error("R22", dim_path(), "the sharded dimension has no axis");
        } else if (shape != nullptr) {
          auto rank = static_cast<int64_t>(shape->rank());
          if (*dim->axis < -rank || *dim->axis >= rank) {
            out.error("R22", dim_path(),
                      "axis " + std::to_string(*dim->axis) + " is outside [" +
                          std::to_string(-rank) + ", " + std::to_string(rank - 1) +
                          "] for a tensor of rank " + std::to_string(rank));
          }
        }
        for (size_t k = 0; k < dim->simple_sharding.size(); ++k) {
          const SimpleShardedDim* simple = dim->simple_sharding[k];
          if (simple == nullptr || simple->num_shards) continue;
          std::string at = dim_path();
          appendSegment(at, "simple_sharding", k);
          out.error("R22", std::move(at), "has no num_shards");
        }
      }
    }
  }
}

}  // namespace onyx::check
