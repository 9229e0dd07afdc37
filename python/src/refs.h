// refs.h — how Python objects point into a C++ model.
//
// Every object of the IR lives in its model's arena, which is freed only with the model. A
// Python Model owns a ModelHolder; a Node, Value, Graph, Tensor, ... is a Ref: a pointer into
// the arena plus a shared pointer to the holder, so a node keeps its model alive and never
// dangles. Every change to a model is made in place (nothing replaces the Model), so one
// thing can still make a Ref meaningless, and it raises ReferenceError instead of reading
// what is no longer part of the model: the object was removed (a node destroyed, a value
// taken out of its graph, a function removed with its body): the arena keeps its memory, and
// the IR marks it (graph() is null).
// `edits` counts every change made through the bindings, so that a Session (whose evaluator
// requires an unchanged model) can refuse to run a model changed after it was made.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

#include "errors.h"
#include "onyx/ir/model.h"

namespace onyx::python {

struct ModelHolder {
  Model model;
  uint64_t edits = 0;
};
using HolderPtr = std::shared_ptr<ModelHolder>;

HolderPtr makeHolder(Model model);

template <class T>
struct Ref {
  HolderPtr holder;
  T* ptr = nullptr;
  // Added by a patch not yet applied: a node or value not in a graph yet, which is not a
  // removed one (both have no graph), and which the patch's rules let Python fill in.
  bool pending = false;

  Ref() = default;
  Ref(HolderPtr owner, T* object, bool added_by_patch = false)
      : holder(std::move(owner)), ptr(object), pending(added_by_patch) {}
  Model& model() const { return holder->model; }
  void changed() const { ++holder->edits; }
};

/// The Ref's target, after checking that it is still part of the current model.
Graph* liveGraph(const Ref<Graph>& ref);
Node* liveNode(const Ref<Node>& ref);
Function* liveFunction(const Ref<Function>& ref);
Value* liveValue(const Ref<Value>& ref);

/// Which model a Ref belongs to must be the one being edited: an edit mixing models fails.
template <class A, class B>
void checkSameModel(const Ref<A>& a, const Ref<B>& b) {
  if (a.holder != b.holder) raiseValueError("the two objects belong to different models");
}

}  // namespace onyx::python
