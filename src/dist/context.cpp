// dist::Environment and dist::Context: MPI's lifetime and the communicator every distributed
// operation of a context runs on.
#include <mpi.h>

#include "dist/blacs.hpp"
#include "dist/context_impl.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist {

Environment::Environment(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    throw_error(ErrorKind::Backend, ErrorPhase::Runtime, "dist", "MPI_Init_thread failed");
  }
  owns_ = true;
}

Environment::~Environment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
}

Context::Context(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Context::~Context() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;  // MPI is gone; so are its handles
  for (const auto& [shape, grid] : impl_->grids) Cblacs_gridexit(grid);
  if (impl_->blacs_handle >= 0) Cfree_blacs_system_handle(impl_->blacs_handle);
  MPI_Comm_free(&impl_->comm);
}

std::shared_ptr<Context> Context::world(std::shared_ptr<EagerRuntime> local) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Runtime, "dist",
                "MPI is not initialised: create a tenferro::dist::Environment first");
  }
  auto impl = std::make_unique<Impl>();
  MPI_Comm_dup(MPI_COMM_WORLD, &impl->comm);
  MPI_Comm_rank(impl->comm, &impl->rank);
  MPI_Comm_size(impl->comm, &impl->size);
  impl->runtime = local ? std::move(local) : EagerRuntime::cpu();
  return std::shared_ptr<Context>(new Context(std::move(impl)));
}

int Context::rank() const noexcept {
  return impl_->rank;
}
int Context::size() const noexcept {
  return impl_->size;
}
const std::shared_ptr<EagerRuntime>& Context::runtime() const noexcept {
  return impl_->runtime;
}

DistStats Context::stats() const {
  DistStats s;
  s.scatters = impl_->scatters.load();
  s.gathers = impl_->gathers.load();
  s.broadcasts = impl_->broadcasts.load();
  s.reductions = impl_->reductions.load();
  s.bytes_sent = impl_->bytes_sent.load();
  return s;
}

}  // namespace tenferro::dist
