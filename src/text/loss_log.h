// Internal: where the printer is in the model, and what it could not write there.
//
// The printer keeps a stack of path segments as it walks (graph, node[3](conv1), attribute[0](
// pads), ...); a loss is recorded against the current path. Text is written statement by
// statement (a node line, an initializer, a graph or function header); the comments for the
// losses met while a statement was written are inserted as whole lines before it, because a
// `#` comment runs to the end of its line and so cannot sit inside one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ir/fields.h"
#include "onyx/text/printer.h"

namespace onyx::text {

class LossLog {
 public:
  /// `comments_into`: the buffer statements are written to, or null for no comments.
  /// With `record` false (and no comments) nothing is kept and paths are not built.
  LossLog(std::string* comments_into, bool record)
      : comments_into_(comments_into), record_(record || comments_into != nullptr) {}

  static constexpr size_t kNoIndex = static_cast<size_t>(-1);

  /// Enters a path segment for its lifetime: `field`, `field[index]` or `field[index](name)`.
  class Scope {
   public:
    Scope(LossLog& log, std::string_view field, size_t index = kNoIndex, std::string_view name = {})
        : log_(log) {
      log_.path_.push_back({field, index, name});
    }
    ~Scope() { log_.path_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    LossLog& log_;
  };

  /// Records that `field` of the current place (the place itself when empty) is lost.
  void lose(std::string_view field, std::string_view detail);
  /// Records the fields of the current message that onyx does not know (kept as bytes by
  /// the binary round trip, with no text form), if there are any.
  void loseUnknown(const UnknownFields& unknown);

  /// A statement starts at byte `offset` of the buffer, indented `indent` spaces; its
  /// losses become comment lines there when it ends.
  void beginStatement(size_t offset, int indent);
  void endStatement();

  std::vector<TextLoss> take() { return std::move(losses_); }

 private:
  struct Segment {
    std::string_view field;
    size_t index;
    std::string_view name;
  };
  struct Statement {
    size_t offset;
    int indent;
    size_t first_pending;
  };

  std::string currentPath(std::string_view field) const;

  std::string* comments_into_;
  bool record_;
  std::vector<Segment> path_;
  std::vector<TextLoss> losses_;
  std::vector<size_t> pending_;  // losses whose comment is not written yet
  std::vector<Statement> statements_;
};

}  // namespace onyx::text
