#include "onyx/ir/model.h"
#include "onyx/ir/editor.h"

#include "ir/scope.h"

#include <string>

#include "onyx/ir/opset_imports.h"

namespace onyx {

void Model::shareBytesOf(const Model& other) {
  if (&other == this) return;
  keep_alive_.push_back(other.arena_);
  for (const std::shared_ptr<const void>& owner : other.keep_alive_) keep_alive_.push_back(owner);
}

std::shared_ptr<const void> Model::bytesOwner() const {
  auto owners = std::make_shared<std::vector<std::shared_ptr<const void>>>(keep_alive_);
  owners->push_back(arena_);
  return owners;
}

std::optional<int64_t> Model::opsetVersion(std::string_view opset_domain) const {
  return OpsetImports(opset_import).versionOf(opset_domain);
}

void Model::setOpsetVersion(std::string_view opset_domain, int64_t version) {
  GraphEditor(*this).setImportedVersion(opset_import, opset_domain, version);
}

bool Model::removeOpset(std::string_view opset_domain) {
  bool removed = false;
  for (size_t i = opset_import.size(); i-- > 0;) {
    if (canonicalDomain(opset_import[i].domain.value_or("")) == canonicalDomain(opset_domain)) {
      opset_import.erase(i);
      removed = true;
    }
  }
  return removed;
}

Function* Model::findFunction(std::string_view function_domain, std::string_view function_name,
                              std::string_view function_overload) const {
  bool overloads = FunctionId::countsOverload(ir_version);
  FunctionId wanted{canonicalDomain(function_domain), function_name,
                    overloads ? function_overload : std::string_view()};
  for (Function* function : functions) {
    if (FunctionId::of(*function, overloads) == wanted) return function;
  }
  return nullptr;
}

Status Model::addFunction(Function* function) {
  if (findFunction(function->domainOrEmpty(), function->nameOrEmpty(),
                   function->overloadOrEmpty()) != nullptr) {
    std::string key =
        std::string(function->domainOrEmpty()) + "." + std::string(function->nameOrEmpty());
    if (!function->overloadOrEmpty().empty()) {
      key += ":" + std::string(function->overloadOrEmpty());
    }
    return Status(ErrorCode::kInvalidArgument, "the model already has a function " + key);
  }
  functions.push_back((*arena_), function);
  return Status::ok();
}

bool Model::removeFunction(const Function* function) {
  for (size_t i = 0; i < functions.size(); ++i) {
    if (functions[i] == function) {
      functions.erase(i);
      if (function->body != nullptr) ir_internal::retireGraph(function->body);
      return true;
    }
  }
  return false;
}

TrainingInfo& Model::addTrainingInfo() {
  TrainingInfo* info = (*arena_).make<TrainingInfo>();
  info->algorithm = (*arena_).make<Graph>();
  training_info.push_back((*arena_), info);
  return *info;
}

DeviceConfiguration& Model::addConfiguration(std::string_view configuration_name,
                                             int32_t num_devices,
                                             std::initializer_list<std::string_view> devices) {
  DeviceConfiguration* config = (*arena_).make<DeviceConfiguration>();
  config->name = (*arena_).copy(configuration_name);
  config->num_devices = num_devices;
  for (std::string_view device : devices)
    config->device.push_back((*arena_), (*arena_).copy(device));
  configuration.push_back((*arena_), config);
  return *config;
}

DeviceConfiguration* Model::findConfiguration(std::string_view configuration_name) const {
  for (DeviceConfiguration* config : configuration) {
    if (config->name.value_or("") == configuration_name) return config;
  }
  return nullptr;
}

}  // namespace onyx
