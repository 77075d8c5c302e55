// NumPy .npy reading and writing (format 1.0/2.0/3.0; <f4 <f8 <c8 <c16; both orders).
// The logical index order equals NumPy's: element [i, j] is the same element on both sides.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "tenferro/core/tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro::npy {

// Parses a whole .npy file image. Any malformed or unsupported input is a Validation error.
Tensor parse(std::span<const std::byte> bytes);
Tensor load(const std::filesystem::path& path);
// Serialises as format 1.0 (2.0 when the header needs it), fortran_order True.
std::string serialize(const Tensor& tensor);
void save(const std::filesystem::path& path, const Tensor& tensor);

}  // namespace tenferro::npy

#pragma GCC visibility pop
