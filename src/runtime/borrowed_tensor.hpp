// A non-owning copy of a caller's tensor handle, for the array of inputs one op's dispatch
// reads.
//
// Why: the dispatch takes a call's inputs as a span of EagerTensor, so a public function that
// converts some operands (casts them to a common dtype) builds an array of handles, and copying
// the caller's handles into it took two atomic increments and two decrements each: 44 ns for a
// binary op's two operands on this machine, a fifth of a warm small op's glue. A borrowed handle
// names the same runtime and buffer without sharing their ownership: the caller's own handles,
// alive until the call returns, keep both alive.
//
// The rules that make that safe:
//   - a borrowed handle lives only inside the function that borrowed it (in its input array);
//   - the dispatch is given one of the caller's own runtime pointers, never a borrowed handle's,
//     so the context an executor allocates from, and every output, holds a real reference;
//   - executors read inputs as layouts and raw buffer pointers and build outputs from buffers
//     they allocate: none keeps an input handle (a view op that returns its input does not take
//     borrowed inputs).
#pragma once

#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::runtime_internal {

struct BorrowedTensor {
  // `t` without ownership (an empty `t` stays empty). The aliasing constructor with an empty
  // owner gives a pointer whose copies and destruction touch no reference count.
  static EagerTensor of(const EagerTensor& t) {
    EagerTensor b(std::shared_ptr<EagerRuntime>(std::shared_ptr<EagerRuntime>(), t.runtime_.get()),
                  std::shared_ptr<Buffer>(std::shared_ptr<Buffer>(), t.buffer_.get()));
    b.layout_ = t.layout_;
    b.numel_ = t.numel_;
    return b;
  }
};

}  // namespace tenferro::runtime_internal
