// bind_session.cc — onyx.Session: a model prepared to run, fed and answering with NumPy
// arrays, with the calling convention of onnxruntime's InferenceSession.run and onnx's
// ReferenceEvaluator.run, so that switching is one line.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "onyx/core/cpu_tier.h"
#include "onyx/core/quote.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/generation.h"
#include "onyx/eval/value_difference.h"
#include "onyx/ir/constant_value.h"

namespace onyx::python {
namespace {

class Session {
 public:
  Session(HolderPtr holder, int threads, int threads_per_run, int runs_at_once, bool fusions,
          uint64_t seed, bool constant_initializers, std::optional<std::string> max_isa,
          bool int8_activations)
      : holder_(std::move(holder)), edits_(holder_->edits) {
    const Graph* graph = holder_->model.graph;
    if (graph == nullptr) raiseValueError("the model has no graph to run");
    InitializerInputs initializer_inputs =
        initializerInputsOf(holder_->model, constant_initializers);
    for (const ValueInfo* info : graph->inputs) {
      const Value* value = info->value;
      // An initializer that is a constant is no input the caller feeds (as onnxruntime lists
      // the inputs of a model before IR 4).
      if (value == nullptr || fixedInitializer(value, initializer_inputs) != nullptr) continue;
      // An input with an initializer may be fed or left to its default.
      inputs_.push_back(
          {std::string(value->name()), value->type(), value->initializer() != nullptr});
    }
    for (const ValueInfo* info : graph->outputs) {
      const Value* value = info->bound();
      output_names_.emplace_back(value != nullptr ? value->name() : std::string_view());
    }
    EvalOptions options;
    if (max_isa) {
      options.max_isa = parseCpuTier(*max_isa);
      if (!options.max_isa) {
        raiseValueError(
            fmt::format("max_isa {:?} is not one of baseline, avx2, avx512, "
                        "avx512_vnni, amx",
                        *max_isa));
      }
    }
    if (threads < 0 || threads_per_run < 0 || runs_at_once < 0) {
      raiseValueError("threads, threads_per_run and runs_at_once are counts, 0 or more");
    }
    options.threads = threads;
    options.threads_per_run = threads_per_run;
    options.runs_at_once = runs_at_once;
    options.fusions = fusions;
    options.seed = seed;
    options.constant_initializers = constant_initializers;
    options.int8_activations = int8_activations;
    evaluator_ = std::make_unique<Evaluator>(holder_->model, options);
  }

  py::list run(py::object output_names, py::object feeds, std::optional<double> timeout,
               std::optional<size_t> memory_limit, py::object outputs) {
    if (holder_->edits != edits_) {
      raiseValueError("the model changed after this Session was made; make a new Session");
    }
    std::vector<size_t> wanted = outputIndices(output_names);
    std::vector<NamedValue> values = feedValues(feeds);
    std::vector<Bound> bound = boundOutputs(outputs);
    std::vector<BoundOutput> bound_outputs;
    for (const Bound& each : bound) bound_outputs.push_back({output_names_[each.index], each.into});
    if (timeout && !(*timeout >= 0)) raiseValueError("timeout is a number of seconds, 0 or more");
    RunOptions limits;
    if (timeout) {
      limits.deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(*timeout));
    }
    limits.memory_limit = memory_limit;
    Result<std::vector<EvalValue>> results = Status(ErrorCode::kInternal, "not run");
    {
      // Other threads may run Python meanwhile, this Session too: an Evaluator runs calls
      // from several threads at once.
      py::gil_scoped_release unlocked;
      Running running(*this);
      limits.cancellation = &running.cancellation;
      results = evaluator_->run(values, bound_outputs, limits);
    }
    std::vector<EvalValue> made = unwrap(std::move(results), "cannot run the model");
    for (Bound& each : bound) {
      // Written in the run's own aligned array: copied into the caller's.
      if (each.array.data() != each.into.bytes().data()) {
        std::span<const std::byte> bytes = each.into.bytes();
        if (!bytes.empty()) std::memcpy(each.array.mutable_data(), bytes.data(), bytes.size());
      }
    }
    py::list answer;
    for (size_t index : wanted) {
      auto found = std::find_if(bound.begin(), bound.end(),
                                [index](const Bound& each) { return each.index == index; });
      // A bound output is the caller's own array.
      answer.append(found != bound.end() ? py::object(found->array)
                                         : pythonOfValue(std::move(made[index])));
    }
    return answer;
  }

  /// The greedy loop of a decoder (onyx/eval/generation.h), as a dict of what it did.
  py::dict generate(std::optional<std::vector<int64_t>> prompt, int64_t prompt_tokens,
                    int64_t new_tokens, uint64_t seed, int64_t warmup, int64_t prompt_chunk) {
    if (holder_->edits != edits_) {
      raiseValueError("the model changed after this Session was made; make a new Session");
    }
    if (prompt_tokens < 1 || new_tokens < 0 || warmup < 0 || prompt_chunk < 0) {
      raiseValueError("prompt_tokens is 1 or more, new_tokens, warmup and prompt_chunk 0 or more");
    }
    GenerationOptions options;
    if (prompt) {
      options.prompt = *prompt;
    } else {
      int64_t vocabulary = unwrap(decoderVocabulary(holder_->model), "not a decoder");
      options.prompt = pseudoRandomPrompt(static_cast<size_t>(prompt_tokens), vocabulary, seed);
    }
    options.steps = new_tokens;
    options.warmup_runs = warmup;
    options.prompt_chunk = prompt_chunk;
    Result<Generation> generation = Status(ErrorCode::kInternal, "not run");
    {
      py::gil_scoped_release unlocked;
      generation = onyx::generate(*evaluator_, holder_->model, options);
    }
    Generation done = unwrap(std::move(generation), "cannot generate");
    const double prompt_seconds = std::chrono::duration<double>(done.prompt_time).count();
    const double steps_seconds = std::chrono::duration<double>(done.steps_time).count();
    py::dict answer;
    answer["prompt"] = options.prompt;
    answer["tokens"] = done.tokens;
    answer["prompt_seconds"] = prompt_seconds;
    answer["prompt_tokens_per_second"] =
        static_cast<double>(options.prompt.size()) / prompt_seconds;
    answer["steps"] = new_tokens;
    answer["steps_seconds"] = steps_seconds;
    answer["steps_tokens_per_second"] =
        new_tokens > 0 ? static_cast<double>(new_tokens) / steps_seconds : 0.0;
    answer["prompt_logits"] = done.prompt_logits;
    answer["steps_cache_bytes_copied"] = done.steps_cache_bytes_copied;
    return answer;
  }

  py::list inputNames() const {
    py::list names;
    for (const Input& input : inputs_) names.append(input.name);
    return names;
  }
  const std::vector<std::string>& outputNames() const { return output_names_; }

  /// Cancels the runs in progress; later runs are not affected.
  void cancel() {
    std::lock_guard<std::mutex> lock(running_mutex_);
    for (RunCancellation* run : running_) run->cancel();
  }

 private:
  // A run in progress, listed for cancel() while it lives.
  struct Running {
    explicit Running(Session& session) : session_(session) {
      std::lock_guard<std::mutex> lock(session_.running_mutex_);
      session_.running_.insert(&cancellation);
    }
    ~Running() {
      std::lock_guard<std::mutex> lock(session_.running_mutex_);
      session_.running_.erase(&cancellation);
    }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;
    RunCancellation cancellation;

   private:
    Session& session_;
  };

  struct Input {
    std::string name;
    const Type* type;
    bool has_default;
  };

  // An output the caller bound to a NumPy array: `into` is over the array's memory where it
  // starts at Array::kAlignment; else a new array of its dtype and shape, copied into it
  // after the run.
  struct Bound {
    size_t index;
    py::array array;
    Array into;
  };

  std::vector<Bound> boundOutputs(const py::object& outputs) const {
    std::vector<Bound> bound;
    if (outputs.is_none()) return bound;
    if (!py::isinstance<py::dict>(outputs)) {
      throw py::type_error("outputs is a dict {output name: NumPy array to write it in}");
    }
    for (auto item : py::reinterpret_borrow<py::dict>(outputs)) {
      const auto name = item.first.cast<std::string>();
      auto found = std::find(output_names_.begin(), output_names_.end(), name);
      if (found == output_names_.end()) {
        throw py::value_error(fmt::format("the model has no output {} to bind; its outputs: {}",
                                          onyx::quoted(name), fmt::join(output_names_, ", ")));
      }
      const std::string what = "bound output " + onyx::quoted(name);
      if (!py::isinstance<py::array>(item.second)) {
        throw py::type_error(what + ": a NumPy array is what an output is written in");
      }
      auto array = py::reinterpret_borrow<py::array>(item.second);
      if (!array.writeable() || (array.flags() & py::array::c_style) == 0) {
        throw py::value_error(what + ": the array must be writeable and C-contiguous");
      }
      std::optional<ElementType> type = naturalElementType(array.dtype());
      if (!type || *type == ElementType::kString) {
        throw py::type_error(fmt::format("{}: NumPy dtype {} cannot be bound", what,
                                         std::string(py::str(array.dtype()))));
      }
      const Type* declared = graphOutputType(static_cast<size_t>(found - output_names_.begin()));
      if (declared != nullptr && declared->elem_type) {
        // The declared type where the dtype is its storage (uint16 for BFLOAT16).
        auto declared_type = static_cast<ElementType>(*declared->elem_type);
        py::dtype storage = numpyDtypeOf(declared_type);
        if (storage.kind() == array.dtype().kind() &&
            storage.itemsize() == array.dtype().itemsize()) {
          type = declared_type;
        }
      }
      std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
      auto* data = static_cast<std::byte*>(array.mutable_data());
      Array into;
      if (reinterpret_cast<uintptr_t>(data) % Array::kAlignment == 0) {
        // No handle outlives the run (the run returns this array as the caller's), so the
        // array needs no owner: the caller's dict keeps the NumPy array alive meanwhile.
        into = Array::over(*type, std::move(shape), data, nullptr);
      } else {
        Result<Array> made = Array::allocate(*type, std::move(shape));
        if (!made) raiseStatus(made.status(), what);
        into = std::move(*made);
      }
      bound.push_back({static_cast<size_t>(found - output_names_.begin()), array, into});
    }
    return bound;
  }

  const Type* graphOutputType(size_t index) const {
    const ValueInfo* info = holder_->model.graph->outputs[index];
    return info->type;
  }

  std::vector<size_t> outputIndices(const py::object& names) const {
    std::vector<size_t> indices;
    if (names.is_none()) {
      for (size_t i = 0; i < output_names_.size(); ++i) indices.push_back(i);
      return indices;
    }
    if (py::isinstance<py::str>(names)) {
      throw py::type_error("output_names is a list of names (or None for all outputs), not a str");
    }
    for (py::handle name : names) {
      const auto text = name.cast<std::string>();
      auto found = std::find(output_names_.begin(), output_names_.end(), text);
      if (found == output_names_.end()) {
        throw py::value_error(fmt::format("the model has no output {}; its outputs: {}",
                                          onyx::quoted(text), fmt::join(output_names_, ", ")));
      }
      indices.push_back(static_cast<size_t>(found - output_names_.begin()));
    }
    return indices;
  }

  std::vector<NamedValue> feedValues(const py::object& feeds) const {
    if (!py::isinstance<py::dict>(feeds)) {
      throw py::type_error("feeds is a dict {input name: value}");
    }
    std::vector<NamedValue> values;
    for (auto item : py::reinterpret_borrow<py::dict>(feeds)) {
      const auto name = item.first.cast<std::string>();
      auto input = std::find_if(inputs_.begin(), inputs_.end(),
                                [&](const Input& candidate) { return candidate.name == name; });
      if (input == inputs_.end()) {
        std::vector<std::string> names;
        for (const Input& known : inputs_) names.push_back(known.name);
        throw py::value_error(fmt::format("the model has no input {}; its inputs: {}",
                                          onyx::quoted(name), fmt::join(names, ", ")));
      }
      values.push_back(
          {name, valueOfPython(item.second, input->type, "input " + onyx::quoted(name))});
    }
    for (const Input& input : inputs_) {
      if (input.has_default || feeds.contains(py::str(input.name))) continue;
      throw py::value_error(fmt::format("no value for the input {}", onyx::quoted(input.name)));
    }
    return values;
  }

  HolderPtr holder_;
  uint64_t edits_;
  std::vector<Input> inputs_;
  std::vector<std::string> output_names_;
  std::unique_ptr<Evaluator> evaluator_;
  std::mutex running_mutex_;
  std::unordered_set<RunCancellation*> running_;
};

}  // namespace

void bindSession(py::module_& module) {
  py::class_<Session>(module, "Session",
                      "A model prepared to run many times (its operators checked and weights "
                      "converted once). The model must not change while the Session is used.")
      .def(py::init<HolderPtr, int, int, int, bool, uint64_t, bool, std::optional<std::string>,
                    bool>(),
           py::arg("model"), py::kw_only(), py::arg("threads") = 0, py::arg("threads_per_run") = 0,
           py::arg("runs_at_once") = 0, py::arg("fusions") = true, py::arg("seed") = 0,
           py::arg("constant_initializers") = false, py::arg("max_isa") = py::none(),
           py::arg("int8_activations") = false,
           "`threads`: threads kernels may use, in total, across the runs at once (0: all cores); "
           "`threads_per_run`: the most one run takes (0: `threads`); `runs_at_once`: the most "
           "runs that execute at once, later calls waiting their turn in order (0: `threads`); "
           "`fusions`: let nodes run fused "
           "(the same values up to float rounding); `seed`: for random operators; "
           "`constant_initializers`: initializers listed as graph inputs are constants, not "
           "inputs (always so before IR 4); `max_isa`: the highest CPU tier kernels may use "
           "('avx2', 'avx512', 'avx512_vnni', 'amx'; None: the CPU's own, or ONYX_MAX_ISA's); "
           "`int8_activations`: products by int4 weights in blocks may round their input to "
           "int8 per block, as onnxruntime's MatMulNBits at accuracy level 4 (faster where the "
           "CPU has VNNI; not the model's exact function).")
      .def("run", &Session::run, py::arg("output_names"), py::arg("feeds"), py::kw_only(),
           py::arg("timeout") = py::none(), py::arg("memory_limit") = py::none(),
           py::arg("outputs") = py::none(),
           "Runs the model on `feeds` ({input name: NumPy array, or list / dict / None for "
           "sequence, map and optional inputs}) and returns the outputs named (None: all), in "
           "that order, as NumPy arrays. The interpreter is free for other threads while it "
           "runs. `timeout`: seconds after which the run stops with TimeoutError; "
           "`memory_limit`: the most bytes its values may hold at once (past it, OnyxError "
           "'limit-exceeded'); cancel() stops it with concurrent.futures.CancelledError. A "
           "run stops between two steps (nodes), so within one step's time of its bound. "
           "`outputs`: {output name: NumPy array} to write outputs in (writeable, "
           "C-contiguous, of the output's dtype and shape); the run returns that array "
           "itself for the output. One starting at a 64-byte boundary is written in place "
           "by the kernel that makes the output, another is copied in; it may be an input's "
           "array (a state carried from run to run).")
      .def("generate", &Session::generate, py::kw_only(), py::arg("prompt") = py::none(),
           py::arg("prompt_tokens") = 128, py::arg("new_tokens") = 32, py::arg("seed") = 46,
           py::arg("warmup") = 0, py::arg("prompt_chunk") = 0,
           "Runs a decoder LLM's greedy loop (as `onyx generate`): the prompt's token ids (None: "
           "`prompt_tokens` pseudo-random ids from `seed`, as bench/llm_bench_ort.js makes them) "
           "once, then `new_tokens` runs of one token, each run's present cache handed to the "
           "next as its past (after `warmup` untimed runs of the prompt; the prompt in runs of "
           "`prompt_chunk` tokens, 0: one run). The model takes "
           "input_ids, optionally position_ids and "
           "attention_mask, and past_key_values.N.key/.value, and gives logits and "
           "present.N.key/.value. Returns a dict: prompt, tokens (1 + new_tokens ids), "
           "prompt_seconds, prompt_tokens_per_second, steps, steps_seconds, "
           "steps_tokens_per_second, prompt_logits (the last position's), "
           "steps_cache_bytes_copied (0 for a cache of fixed capacity, bound in place).")
      .def("cancel", &Session::cancel,
           "Stops the runs of this Session in progress (on other threads) at their next step, "
           "with concurrent.futures.CancelledError; later runs are not affected.")
      .def_property_readonly("input_names", &Session::inputNames,
                             "The graph inputs' names (those with an initializer may be left out).")
      .def_property_readonly("output_names", &Session::outputNames,
                             "The graph outputs' names, in order.");

  module.def(
      "_difference",
      [](py::handle first, py::handle second, double rtol, double atol) {
        EvalValue x = valueOfPython(first, nullptr, "the first value");
        EvalValue y = valueOfPython(second, nullptr, "the second value");
        Difference difference = differenceOf(x, y, Tolerance{rtol, atol});
        return py::make_tuple(difference.absolute, difference.relative, difference.beyond,
                              difference.mismatch);
      },
      py::arg("first"), py::arg("second"), py::arg("rtol"), py::arg("atol"),
      "How two arrays differ, as `onyx compare` measures it (onyx/eval/value_difference.h): "
      "(largest absolute difference, largest relative, whether some element is beyond "
      "rtol * max(|x|, |y|) + atol, and why they cannot be compared element by element or '').");
}

}  // namespace onyx::python
