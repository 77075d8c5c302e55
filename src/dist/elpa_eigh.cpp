// dist::eigh on ELPA (built with TENFERRO_WITH_ELPA): one ELPA object per call, set up on the
// context's BLACS grid, two-stage solver.
#include "dist/elpa.hpp"

#include <elpa/elpa.h>

#include <memory>
#include <mutex>
#include <string>

#include "dist/collective.hpp"
#include "dist/linalg_common.hpp"

// elpa.h declares elpa_strerr outside its extern "C" blocks, so a C++ caller would look for a
// mangled name the library does not have: bind a C-linkage declaration to the C symbol.
extern "C" const char* tenferro_elpa_strerr(int error) __asm__("elpa_strerr");

namespace tenferro::dist::detail {
namespace {

// elpa_init once per process; ELPA refuses every other call until it succeeded.
void init_elpa() {
  static const int status = elpa_init(ELPA_API_VERSION);
  if (status != ELPA_OK) {
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, "dist.eigh",
                std::string("ELPA does not support API version ") +
                    std::to_string(ELPA_API_VERSION) + ": " + tenferro_elpa_strerr(status));
  }
}

struct ElpaDeleter {
  void operator()(elpa_struct* h) const {
    int error = 0;
    elpa_deallocate(h, &error);
  }
};
using ElpaHandle = std::unique_ptr<elpa_struct, ElpaDeleter>;

void check(int error, const char* what) {
  if (error != ELPA_OK) {
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, "dist.eigh",
                std::string("ELPA ") + what + ": " + tenferro_elpa_strerr(error));
  }
}

void set(elpa_t h, const char* name, std::int64_t value) {
  int error = 0;
  elpa_set_integer(h, name, as_int(value, name), &error);
  check(error, (std::string("refused ") + name).c_str());
}

void eigenvectors(elpa_t h, float* a, float* w, float* z, int* e) {
  elpa_eigenvectors_float(h, a, w, z, e);
}
void eigenvectors(elpa_t h, double* a, double* w, double* z, int* e) {
  elpa_eigenvectors_double(h, a, w, z, e);
}
void eigenvectors(elpa_t h, c32* a, float* w, c32* z, int* e) {
  elpa_eigenvectors_float_complex(h, a, w, z, e);
}
void eigenvectors(elpa_t h, c64* a, double* w, c64* z, int* e) {
  elpa_eigenvectors_double_complex(h, a, w, z, e);
}

}  // namespace

void elpa_eigh(const Context::Impl& ctx, const Grid& g, Matrix& full, Matrix& z, Tensor& w) {
  // Every step that can fail on one rank alone is agreed before the next collective one
  // (elpa_setup splits the communicator, the solver communicates throughout).
  ElpaHandle h = agreed(ctx, [&] {
    init_elpa();
    int error = 0;
    ElpaHandle made(elpa_allocate(&error));
    check(error, "allocation failed");
    const std::int64_t n = full.rows();
    set(made.get(), "na", n);
    set(made.get(), "nev", n);
    set(made.get(), "local_nrows", full.local().shape()[0]);
    set(made.get(), "local_ncols", full.local().shape()[1]);
    set(made.get(), "nblk", full.layout().block_rows);
    set(made.get(), "mpi_comm_parent", MPI_Comm_c2f(ctx.comm));
    set(made.get(), "process_row", g.my_row);
    set(made.get(), "process_col", g.my_col);
    set(made.get(), "blacs_context", g.context);
    return made;
  });
  agreed(ctx, [&] {
    check(elpa_setup(h.get()), "set-up failed");
    set(h.get(), "solver", ELPA_SOLVER_2STAGE);
  });
  int error = ELPA_OK;
  by_dtype(full.dtype(), [&]<typename T>() {
    eigenvectors(h.get(), data_of<T>(full.local()), reinterpret_cast<RealType<T>*>(w.raw_data()),
                 data_of<T>(z.local()), &error);
  });
  agreed(ctx, [&] {
    if (error != ELPA_OK) {
      throw_error(ErrorKind::Numerical, ErrorPhase::Execute, "dist.eigh",
                  std::string("ELPA's eigensolver failed: ") + tenferro_elpa_strerr(error));
    }
  });
}

}  // namespace tenferro::dist::detail
