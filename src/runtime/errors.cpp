#include "tenferro/runtime/errors.hpp"

namespace tenferro {

ContextMismatchError::ContextMismatchError(std::string op, std::size_t argument_index,
                                           std::uint64_t expected_runtime,
                                           std::uint64_t actual_runtime)
    : Error(ErrorKind::ContextMismatch, ErrorPhase::Input, std::move(op),
            actual_runtime == 0
                ? "argument " + std::to_string(argument_index) +
                      " is an empty tensor bound to no runtime"
                : "argument " + std::to_string(argument_index) + " lives in runtime " +
                      std::to_string(actual_runtime) +
                      // Argument 0 against the call's own runtime (a cotangent against its
                      // primals'): "but argument 0 lives in ..." named the same argument twice.
                      (argument_index == 0 ? " but the call's runtime is runtime "
                                           : " but argument 0 lives in runtime ") +
                      std::to_string(expected_runtime) +
                      "; move it explicitly with tensor.download() and runtime->upload(...)"),
      argument_index_(argument_index),
      expected_runtime_(expected_runtime),
      actual_runtime_(actual_runtime) {}

NoInputIngressError::NoInputIngressError(std::string op, std::size_t input_index,
                                         Placement placement, Placement engine_placement,
                                         std::string engine)
    : Error(ErrorKind::NoInputIngress, ErrorPhase::Ingress, std::move(op),
            "input " + std::to_string(input_index) + " has placement " + placement.to_string() +
                " which engine " + engine + " (placement " + engine_placement.to_string() +
                ") cannot read; upload it explicitly with runtime->upload(tensor.download())"),
      input_index_(input_index),
      placement_(placement) {}

MissingExtensionEngineError::MissingExtensionEngineError(std::string op, std::string module,
                                                         std::string family, std::string engine)
    : Error(ErrorKind::MissingExtensionEngine, ErrorPhase::Install, std::move(op),
            "module '" + module + "' registers no executor for family '" + family +
                "' on engine '" + engine + "'"),
      module_(std::move(module)),
      family_(std::move(family)),
      engine_(std::move(engine)) {}

}  // namespace tenferro
