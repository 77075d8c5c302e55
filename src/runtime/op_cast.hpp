// op_as<Op>: an ExtensionOp seen as its family's op class, or nullptr when it is another's.
// Every family's op class is final, so comparing the dynamic type is exact, and it is cheaper
// than a dynamic_cast (which walks the class hierarchy): the warm path asks this once per key
// and once per executor call.
#pragma once

#include <type_traits>
#include <typeinfo>

#include "tenferro/runtime/extension.hpp"

namespace tenferro::runtime_internal {

template <class Op>
const Op* op_as(const ExtensionOp& op) noexcept {
  static_assert(std::is_final_v<Op> && std::is_base_of_v<ExtensionOp, Op>,
                "op_as compares exact types: the family's op class must be final");
  return typeid(op) == typeid(Op) ? static_cast<const Op*>(&op) : nullptr;
}

}  // namespace tenferro::runtime_internal
