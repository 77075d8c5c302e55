// What a dist::Context holds: the duplicated communicator, the local runtime, the BLACS
// handle of that communicator and the movement counters.
#pragma once

#include <mpi.h>

#include <atomic>
#include <map>
#include <memory>
#include <utility>

#include "tenferro/dist.hpp"

namespace tenferro::dist {

struct Context::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  std::shared_ptr<EagerRuntime> runtime;
  int blacs_handle = -1;                     // Csys2blacs_handle(comm), made on first use by a grid
  std::map<std::pair<int, int>, int> grids;  // (rows, cols) -> BLACS context, made collectively
  std::atomic<std::uint64_t> scatters{0}, gathers{0}, broadcasts{0}, reductions{0}, bytes_sent{0};
};

}  // namespace tenferro::dist
