// The BLACS and ScaLAPACK tool routines we call (Debian's libscalapack-openmpi ships no C
// header; these are the routines' documented Fortran/C interfaces), and the process grids of
// a context.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "dist/context_impl.hpp"

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int* context, const char* order, int rows, int cols);
void Cblacs_gridinfo(int context, int* rows, int* cols, int* my_row, int* my_col);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
}

namespace tenferro::dist {

namespace detail {

// A BLACS process grid over every rank of a context (row-major rank order).
struct Grid {
  int context = -1;
  int rows = 1, cols = 1;
  int my_row = 0, my_col = 0;
};

// The grid shape for `requested` on `size` ranks (Validation when rows * cols != size).
GridShape choose_grid(int size, GridShape requested);
// The context's grid of that shape, made (collectively) on first use and kept until the
// context ends.
Grid grid_of(Context::Impl& ctx, GridShape shape);

// Rows or columns of an extent-n dimension held by grid coordinate `coord` of `procs`.
std::int64_t local_extent(std::int64_t n, std::int64_t block, int coord, int procs);
// The global row (column) of local row (column) `local` at grid coordinate `coord`.
inline std::int64_t global_index(std::int64_t local, std::int64_t block, int coord, int procs) {
  return ((local / block) * procs + coord) * block + local % block;
}

// ScaLAPACK's descriptor of a block-cyclic matrix whose local leading dimension is `lld`.
struct Descriptor {
  int d[9];
};
Descriptor describe(const Grid& grid, std::int64_t rows, std::int64_t cols, std::int64_t mb,
                    std::int64_t nb, std::int64_t lld);

// ScaLAPACK indexes with int: every extent must fit.
int as_int(std::int64_t v, const char* what);

}  // namespace detail
}  // namespace tenferro::dist
