// Process-wide counters behind process_backend_constructions() / process_cpu_kernel_launches().
#pragma once

#include <cstdint>

namespace tenferro {

void count_backend_construction() noexcept;

}  // namespace tenferro
