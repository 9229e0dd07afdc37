// The external-data rules R70–R74. Locations are judged by onyx's one resolver
// (onyx/serde/external_path.h): its syntax rules here, and its safe opening beneath the model's
// folder when the data was not loaded with the model.
#include "check/external_data_rules.h"

#include <charconv>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "check/tensor_fields.h"
#include "check/value_text.h"
#include "onyx/core/element_type.h"
#include "onyx/serde/external_path.h"

namespace onyx::check {

namespace {

constexpr std::string_view kKnownKeys[] = {"location", "offset", "length", "checksum", "basepath"};

bool isKnownKey(std::string_view key) {
  for (std::string_view known : kKnownKeys) {
    if (key == known) return true;
  }
  return false;
}

std::string keyPath(const std::string& path, std::string_view key) {
  std::string text = path + ".external_data(";
  appendEscaped(text, key);
  text += ')';
  return text;
}

// A SHA1 digest written as text: 40 hexadecimal digits.
bool looksLikeSha1(std::string_view text) {
  if (text.size() != 40) return false;
  for (char c : text) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) return false;
  }
  return true;
}

// R73: each key once, each key one onnx recognises, a checksum shaped like a SHA1 digest.
// All warnings: neither onnx.proto nor ExternalData.md says a key appears once or how a
// checksum is spelled, and what onyx reads is settled — the last entry of a key, as
// Tensor::externalValue takes it, and the checker judges that same entry — but a reader that
// takes the first would read other data, and a checksum nobody can compare checks nothing.
void checkKeys(const Tensor& tensor, const std::string& path, Diagnostics& out) {
  std::unordered_map<std::string_view, size_t> seen;
  std::vector<std::string_view> order;  // report duplicates in the order keys first appear
  const ArenaList<StringStringEntry>& entries = tensor.rare().external_data;
  for (size_t i = 0; i < entries.size(); ++i) {
    const StringStringEntry& entry = entries[i];
    const std::string_view key = entry.key.value_or("");
    if (key.empty()) {
      out.warning("R73", path + ".external_data[" + std::to_string(i) + "]",
                  "an external_data entry has no key, so it is ignored");
      continue;
    }
    if (seen[key]++ == 0) order.push_back(key);
  }
  for (std::string_view key : order) {
    const size_t times = seen[key];
    if (times > 1) {
      out.warning("R73", keyPath(path, key),
                  "the key " + quoted(key) + " appears " + std::to_string(times) +
                      " times; onyx reads the last, but a reader that takes the first reads "
                      "something else");
    }
    if (!isKnownKey(key)) {
      out.warning("R73", keyPath(path, key),
                  "external_data key " + quoted(key) +
                      " is not one ONNX defines (location, offset, length, checksum, basepath) "
                      "and is ignored");
    }
  }
  if (auto checksum = tensor.externalValue("checksum"); checksum && !looksLikeSha1(*checksum)) {
    out.warning("R73", keyPath(path, "checksum"),
                "checksum " + quoted(*checksum) +
                    " is not a SHA1 digest written as 40 hexadecimal digits, so it cannot be "
                    "compared with the file's");
  }
}

// R72: offset and length are decimal numbers without sign or spaces.
std::optional<uint64_t> readNumber(const Tensor& tensor, std::string_view key,
                                   const std::string& path, Diagnostics& out, bool& bad) {
  std::optional<std::string_view> text = tensor.externalValue(key);
  if (!text) return std::nullopt;
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (text->empty() || error != std::errc() || end != text->data() + text->size()) {
    out.error("R72", keyPath(path, key),
              std::string(key) + " " + quoted(*text) + " is not a non-negative decimal number");
    bad = true;
    return std::nullopt;
  }
  return value;
}

std::string rangeText(std::string_view location, uint64_t offset, std::optional<uint64_t> length) {
  std::string text = quoted(location) + " at offset " + std::to_string(offset);
  if (length) text += ", length " + std::to_string(*length);
  return text;
}

void compareSize(uint64_t found, std::optional<uint64_t> expected, const Tensor& tensor,
                 const std::string& where, const std::string& path, Diagnostics& out) {
  if (!expected || found == *expected) return;
  const ElementTypeInfo* info = elementTypeInfo(tensor.data_type.value_or(0));
  out.error("R72", path + ".external_data",
            "the external data (" + where + ") has " + countOf(found, "byte", "bytes") + "; " +
                describeTensor(*info, {tensor.dims.begin(), tensor.dims.size()}) + " needs " +
                std::to_string(*expected));
}

}  // namespace

void checkExternalData(const Tensor& tensor, std::optional<uint64_t> expected_bytes,
                       const ValueContext& context, const std::string& path, Diagnostics& out) {
  for (const DataFieldUse& field : usedDataFields(tensor)) {
    out.error("R70", path + "." + std::string(field.name),
              "the tensor is stored externally but also holds data in " + std::string(field.name) +
                  "; an external tensor keeps its data only in the file");
  }
  if (tensor.data_type == static_cast<int32_t>(ElementType::kString)) {
    out.error("R74", path + ".data_location",
              "a string tensor cannot be stored externally: external files hold raw_data bytes, "
              "and strings have no raw_data form");
  }
  checkKeys(tensor, path, out);

  std::optional<std::string_view> location = tensor.externalValue("location");
  if (!location) {
    out.error("R70", path + ".external_data",
              "the tensor is stored externally but external_data has no " + quoted("location") +
                  " entry");
    return;
  }
  if (Status syntax = validateExternalLocation(*location); !syntax) {
    out.error("R71", keyPath(path, "location"), syntax.message());
    return;
  }
  bool bad_number = false;
  const std::optional<uint64_t> offset = readNumber(tensor, "offset", path, out, bad_number);
  const std::optional<uint64_t> length = readNumber(tensor, "length", path, out, bad_number);
  if (bad_number) return;
  const std::string where = rangeText(*location, offset.value_or(0), length);

  if (const auto& loaded = tensor.rare().external_bytes) {
    // Loaded with the model: the loader opened it through the resolver and found the range
    // inside the file; what is left is whether the range fits the tensor.
    compareSize(loaded->size(), expected_bytes, tensor, where, path, out);
    return;
  }
  if (!context.open_external_files) return;  // asked to read the model file alone
  if (context.model == nullptr || context.model->folder().empty()) {
    out.warning("R71", keyPath(path, "location"),
                "the model's folder is unknown, so the external file " + quoted(*location) +
                    " was not opened: whether it exists inside the folder and holds the tensor's "
                    "data at the stated offset and length is not checked");
    return;
  }
  // Not loaded with the model (LoadOptions::load_external_data off): look at the file now,
  // beneath the model's folder, by the same rules the loader uses.
  auto dir = ExternalDataDir::open(context.model->folder());
  if (!dir) {
    out.error("R71", keyPath(path, "location"), dir.status().message());
    return;
  }
  auto file = dir->openForRead(*location);
  if (!file) {
    out.error("R71", keyPath(path, "location"), file.status().message());
    return;
  }
  auto bytes = slice(**file, offset.value_or(0), length);
  if (!bytes) {
    out.error("R72", path + ".external_data", bytes.status().message());
    return;
  }
  compareSize(bytes->size(), expected_bytes, tensor, where, path, out);
}

}  // namespace onyx::check
