// Saving a model: where each tensor's data goes (inline, or which external file at which
// offset), the data files, then the model file — each written beside its destination and
// renamed over it, so a failure never leaves a half-written or missing file behind.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "ir/graph_builder.h"
#include "onyx/core/file_writer.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ir/walk.h"
#include "onyx/serde/external_path.h"
#include "onyx/serde/model_io.h"
#include "serde/encoder.h"
#include "serde/folder.h"

namespace onyx {

namespace {

std::string realFolder(const std::string& folder) {
  char resolved[PATH_MAX];
  if (realpath(folder.c_str(), resolved) == nullptr) return folder;
  return resolved;
}

uint64_t alignUp(uint64_t offset, uint64_t alignment) {
  if (alignment <= 1) return offset;
  return (offset + alignment - 1) / alignment * alignment;
}

/// Streams encoder output into an AtomicFileWriter, reporting progress as it goes.
class WriterOutput final : public wire::Output {
 public:
  WriterOutput(AtomicFileWriter& writer, uint64_t total,
               const std::function<void(uint64_t, uint64_t)>& progress)
      : writer_(writer), total_(total), progress_(progress) {}
  Status write(const char* data, size_t size) override {
    Status status = writer_.write(data, size);
    done_ += size;
    if (progress_) progress_(done_, total_);
    return status;
  }

 private:
  AtomicFileWriter& writer_;
  uint64_t total_;
  uint64_t done_ = 0;
  const std::function<void(uint64_t, uint64_t)>& progress_;
};

struct Placement {
  const Tensor* tensor;
  std::string_view bytes;         // unless computed
  const ComputedBytes* computed;  // written slice by slice
  uint64_t offset = 0;

  uint64_t size() const { return computed != nullptr ? computed->size : bytes.size(); }
};

// A file name for one tensor's data when each tensor gets its own file.
std::string perTensorFileName(std::string_view tensor_name, std::set<std::string>& taken) {
  std::string base;
  for (char c : tensor_name) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-' || c == '.';
    base += plain ? c : '_';
  }
  if (base.empty() || base.front() == '.') base.insert(0, "tensor");
  std::string name = base + ".bin";
  for (int n = 1; taken.count(name) != 0; ++n) name = base + "_" + std::to_string(n) + ".bin";
  taken.insert(name);
  return name;
}

class Saver {
 public:
  Saver(const Model& model, const std::string& path, const SaveOptions& options)
      : model_(model), path_(path), options_(options), folder_(serde::folderOf(path)) {}

  Status run() {
    ONYX_RETURN_IF_ERROR(plan());
    if (tooLargeForProtobuf()) {
      // Plan again with the data moved out; nothing has been written yet.
      options_.external_threshold = 1024;
      options_.external_file = path_.substr(path_.find_last_of('/') + 1) + ".data";
      replacements_.clear();
      files_.clear();
      kept_files_.clear();
      owned_.clear();
      total_bytes_ = 0;
      if (options_.notice) {
        options_.notice(
            "the model file would pass 2 GiB, which protobuf readers refuse; tensors of "
            "1 KiB or more go to " +
            options_.external_file + " instead");
      }
      ONYX_RETURN_IF_ERROR(plan());
    }
    ONYX_RETURN_IF_ERROR(writeDataFiles());
    ONYX_RETURN_IF_ERROR(copyKeptFiles());
    return writeModelFile();
  }

 private:
  Status plan() {
    Status status;
    forEachTensor(model_, [&](Tensor& tensor, TensorRole role) {
      if (status.isOk()) status = planTensor(tensor, role);
    });
    return status;
  }

  Status planTensor(const Tensor& tensor, TensorRole role) {
    TensorStorage storage = tensorStorage(tensor);
    bool external = storage == TensorStorage::kExternal;
    if (options_.inline_external || options_.external_threshold) {
      // Only dense initializers move out by default; a tensor that is already external
      // always gets a new place, since its old one is not being kept.
      bool candidate = role == TensorRole::kInitializer || external;
      if (!candidate || storage == TensorStorage::kStrings || storage == TensorStorage::kNone) {
        return Status::ok();
      }
      if (storage == TensorStorage::kComputed) {
        // Inline, the encoder computes it as it writes it.
        const ComputedBytes* computed = tensor.rare().computed;
        if (!options_.inline_external && options_.external_threshold &&
            computed->size >= *options_.external_threshold) {
          placeExternal(tensor, Placement{&tensor, {}, computed});
        }
        return Status::ok();
      }
      auto bytes = rawBytes(tensor);
      if (!bytes) return std::move(bytes).takeStatus().within(tensorSegment(tensor));
      bool goes_out = !options_.inline_external && options_.external_threshold &&
                      bytes->bytes().size() >= *options_.external_threshold;
      if (goes_out) {
        std::string_view view = bytes->bytes();
        if (!bytes->isView()) {
          owned_.push_back(std::make_unique<std::string>(std::string(view)));
          view = *owned_.back();
        }
        placeExternal(tensor, Placement{&tensor, view, nullptr});
      } else if (external) {
        replacements_[&tensor] = inlineCopy(tensor, std::move(*bytes));
      }
      return Status::ok();
    }
    if (external) {
      // Kept where it is: the file must exist beside the new model too.
      auto location = tensor.externalValue("location");
      if (!location) {
        return Status(ErrorCode::kMalformed, "external data without a location")
            .within(tensorSegment(tensor));
      }
      auto normal = normalizeExternalLocation(*location);
      if (!normal) return std::move(normal).takeStatus().within(tensorSegment(tensor));
      kept_files_.insert(*normal);
    }
    return Status::ok();
  }

  bool tooLargeForProtobuf() {
    if (!options_.external_when_too_large || options_.external_threshold ||
        options_.inline_external) {
      return false;
    }
    wire::SizeSink sizer;
    serde::Encoder<wire::SizeSink> encoder(sizer, &replacements_);
    encoder.model(model_);
    return sizer.bytes() > options_.too_large_bytes;
  }

  static std::string tensorSegment(const Tensor& tensor) {
    return "tensor(" + std::string(tensor.nameOrEmpty()) + ")";
  }

  void placeExternal(const Tensor& tensor, Placement placement) {
    std::string location = options_.external_file.empty()
                               ? perTensorFileName(tensor.nameOrEmpty(), taken_names_)
                               : options_.external_file;
    total_bytes_ += placement.size();
    files_[location].push_back(placement);
  }

  const Tensor* inlineCopy(const Tensor& tensor, TensorBytes bytes) {
    Tensor* copy = dataFreeCopy(tensor);
    std::string_view view = bytes.bytes();
    if (!bytes.isView()) view = scratch_.copy(view);
    copy->raw_data = view;
    copy->data_location.reset();
    return copy;
  }

  /// A copy of `tensor` without its data and external_data, for the writer to fill in; the
  /// rest (lists included) are shared with `tensor`, which stays as it was.
  Tensor* dataFreeCopy(const Tensor& tensor) {
    Tensor* copy = scratch_.make<Tensor>(tensor);
    copy->raw_data.reset();
    if (tensor.rare_fields != nullptr) {
      copy->rare_fields = scratch_.make<TensorRareFields>(*tensor.rare_fields);
      TensorRareFields& more = *copy->rare_fields;
      more.float_data = PackedData();
      more.int32_data = PackedData();
      more.int64_data = PackedData();
      more.double_data = PackedData();
      more.uint64_data = PackedData();
      more.external_data = ArenaList<StringStringEntry>();
      more.external_bytes.reset();
    }
    return copy;
  }

  const Tensor* externalCopy(const Tensor& tensor, std::string_view location, uint64_t offset,
                             uint64_t length) {
    Tensor* copy = dataFreeCopy(tensor);
    auto add = [&](std::string_view key, std::string_view value) {
      StringStringEntry& entry =
          ir_internal::GraphBuilder::editorOn(scratch_).rare(copy).external_data.emplace_back(
              scratch_);
      entry.key = scratch_.copy(key);
      entry.value = scratch_.copy(value);
    };
    add("location", location);
    add("offset", std::to_string(offset));
    add("length", std::to_string(length));
    copy->data_location = Tensor::kExternal;
    return copy;
  }

  Status openOutputDir() {
    if (out_dir_) return Status::ok();
    auto dir = ExternalDataDir::open(folder_);
    if (!dir) return std::move(dir).takeStatus();
    out_dir_ = std::make_unique<ExternalDataDir>(std::move(*dir));
    return Status::ok();
  }

  Status writeDataFiles() {
    if (files_.empty()) return Status::ok();
    ONYX_RETURN_IF_ERROR(openOutputDir());
    for (auto& [location, placements] : files_) {
      auto writer = out_dir_->createForWrite(location);
      if (!writer) return std::move(writer).takeStatus();
      for (Placement& placement : placements) {
        uint64_t offset = writer->position();
        if (placement.size() >= options_.align_threshold) {
          uint64_t aligned = alignUp(offset, options_.alignment);
          ONYX_RETURN_IF_ERROR(writer->writeZeros(aligned - offset));
          offset = aligned;
        }
        placement.offset = offset;
        ONYX_RETURN_IF_ERROR(writeData(*writer, placement));
        replacements_[placement.tensor] =
            externalCopy(*placement.tensor, location, offset, placement.size());
      }
      ONYX_RETURN_IF_ERROR(writer->commit(options_.sync));
    }
    return Status::ok();
  }

  // Large tensors go out in slices so that progress can be shown as they are written;
  // computed ones are computed a slice at a time into one buffer.
  Status writeData(AtomicFileWriter& writer, const Placement& placement) {
    constexpr size_t kSlice = size_t{64} << 20;
    constexpr size_t kComputedSlice = size_t{1} << 20;
    std::string buffer;
    if (placement.computed != nullptr) {
      buffer.resize(static_cast<size_t>(std::min<uint64_t>(kComputedSlice, placement.size())));
    }
    uint64_t slice = placement.computed != nullptr ? kComputedSlice : kSlice;
    for (uint64_t at = 0; at < placement.size(); at += slice) {
      size_t length = static_cast<size_t>(std::min(slice, placement.size() - at));
      std::string_view part;
      if (placement.computed != nullptr) {
        ONYX_RETURN_IF_ERROR(readRawBytes(
            *placement.tensor, at,
            std::span<std::byte>(reinterpret_cast<std::byte*>(buffer.data()), length)));
        part = std::string_view(buffer.data(), length);
      } else {
        part = placement.bytes.substr(static_cast<size_t>(at), length);
      }
      ONYX_RETURN_IF_ERROR(writer.write(part));
      done_bytes_ += part.size();
      if (options_.progress) options_.progress(done_bytes_, total_bytes_);
    }
    return Status::ok();
  }

  Status copyKeptFiles() {
    if (kept_files_.empty()) return Status::ok();
    if (model_.folder().empty()) {
      return Status(ErrorCode::kInvalidArgument,
                    "the model refers to external data but was not loaded from a folder");
    }
    if (realFolder(model_.folder()) == realFolder(folder_)) return Status::ok();
    auto source = ExternalDataDir::open(model_.folder());
    if (!source) return std::move(source).takeStatus();
    ONYX_RETURN_IF_ERROR(openOutputDir());
    for (const std::string& location : kept_files_) {
      auto writer = out_dir_->createForWrite(location);
      if (!writer) return std::move(writer).takeStatus();
      // File to file: a data file of many gigabytes never passes through the process.
      ONYX_RETURN_IF_ERROR(source->copyInto(location, *writer));
      ONYX_RETURN_IF_ERROR(writer->commit(options_.sync));
    }
    return Status::ok();
  }

  Status writeModelFile() {
    auto writer = AtomicFileWriter::create(path_);
    if (!writer) return std::move(writer).takeStatus();
    wire::SizeSink sizer;
    serde::Encoder<wire::SizeSink>(sizer, &replacements_).model(model_);
    WriterOutput out(*writer, sizer.bytes(), options_.progress);
    wire::ByteSink sink(out, std::move(sizer.sizes()));
    serde::Encoder<wire::ByteSink>(sink, &replacements_).model(model_);
    ONYX_RETURN_IF_ERROR(sink.finish());
    return writer->commit(options_.sync);
  }

  const Model& model_;
  const std::string& path_;
  SaveOptions options_;  // a copy: saving may decide on external data by itself
  std::string folder_;
  Arena scratch_;
  serde::TensorReplacements replacements_;
  std::map<std::string, std::vector<Placement>> files_;
  std::set<std::string> kept_files_;
  std::set<std::string> taken_names_;
  std::vector<std::unique_ptr<std::string>> owned_;
  std::unique_ptr<ExternalDataDir> out_dir_;
  uint64_t total_bytes_ = 0;
  uint64_t done_bytes_ = 0;
};

}  // namespace

Status saveModel(const Model& model, const std::string& path, const SaveOptions& options) {
  if (options.alignment == 0 || (options.alignment & (options.alignment - 1)) != 0) {
    return Status(ErrorCode::kInvalidArgument, "alignment must be a power of two");
  }
  if (!options.external_file.empty()) {
    ONYX_RETURN_IF_ERROR(validateExternalLocation(options.external_file));
  }
  return Saver(model, path, options).run();
}

}  // namespace onyx
