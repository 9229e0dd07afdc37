#include "text/loss_log.h"

#include <fmt/format.h>

namespace onyx::text {

namespace {

// A comment ends at the line's end, so line breaks in names and doc strings are shown as
// escapes; long details are cut (the comment points at the place, it does not replace it).
constexpr size_t kMaxCommentBytes = 240;

void appendCommentText(std::string& out, std::string_view text, size_t& budget) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (budget == 0) {
      // Do not cut a UTF-8 sequence in two.
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
        out.pop_back();
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80) != 0) out.pop_back();
      out.append("...");
      return;
    }
    char c = text[i];
    if (c == '\n') {
      out.append("\\n");
    } else if (c == '\r') {
      out.append("\\r");
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
    --budget;
  }
}

}  // namespace

std::string LossLog::currentPath(std::string_view field) const {
  std::string path;
  for (const Segment& segment : path_) {
    if (!path.empty()) path.push_back('.');
    path.append(segment.field);
    if (segment.index != kNoIndex) {
      fmt::format_to(std::back_inserter(path), "[{}]", segment.index);
    }
    if (!segment.name.empty()) {
      path.push_back('(');
      path.append(segment.name);
      path.push_back(')');
    }
  }
  if (!field.empty()) {
    if (!path.empty()) path.push_back('.');
    path.append(field);
  }
  return path;
}

void LossLog::lose(std::string_view field, std::string_view detail) {
  if (!record_) return;
  losses_.push_back({currentPath(field), std::string(detail)});
  if (comments_into_ != nullptr) pending_.push_back(losses_.size() - 1);
}

void LossLog::loseUnknown(const UnknownFields& unknown) {
  if (unknown.empty() || !record_) return;
  std::string numbers;
  for (const UnknownField& field : unknown) {
    if (!numbers.empty()) numbers.append(", ");
    numbers.append(std::to_string(field.number));
  }
  lose("unknown", (unknown.size() == 1 ? "a field onyx does not know, number "
                                       : "fields onyx does not know, numbers ") +
                      numbers);
}

void LossLog::beginStatement(size_t offset, int indent) {
  if (comments_into_ == nullptr) return;
  statements_.push_back({offset, indent, pending_.size()});
}

void LossLog::endStatement() {
  if (comments_into_ == nullptr) return;
  Statement statement = statements_.back();
  statements_.pop_back();
  if (pending_.size() == statement.first_pending) return;
  std::string lines;
  for (size_t i = statement.first_pending; i < pending_.size(); ++i) {
    const TextLoss& loss = losses_[pending_[i]];
    lines.append(static_cast<size_t>(statement.indent), ' ');
    lines.append("# lost: ");
    size_t budget = kMaxCommentBytes;
    appendCommentText(lines, loss.path, budget);
    lines.append(": ");
    budget = kMaxCommentBytes;
    appendCommentText(lines, loss.detail, budget);
    lines.push_back('\n');
  }
  pending_.resize(statement.first_pending);
  comments_into_->insert(statement.offset, lines);
}

}  // namespace onyx::text
