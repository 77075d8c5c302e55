// The distributed suite's main: MPI up, one context for every test, the usual GoogleTest run on
// every rank (only the root prints the progress; other ranks print their failures with the
// rank), and one exit status agreed by all ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "dist_context.hpp"

namespace tenferro::dist::testing {
namespace {

std::shared_ptr<Context>& context_slot() {
  static std::shared_ptr<Context> ctx;
  return ctx;
}

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.message());
    }
  }

 private:
  int rank_;
};

}  // namespace

const std::shared_ptr<Context>& context() {
  return context_slot();
}

}  // namespace tenferro::dist::testing

int main(int argc, char** argv) {
  tenferro::dist::Environment mpi(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  auto& slot = tenferro::dist::testing::context_slot();
  slot = tenferro::dist::Context::world();
  const int rank = slot->rank();
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new tenferro::dist::testing::RankFailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("%d rank(s): %s\n", slot->size(),
                any ? "FAILED on some rank" : "passed on every rank");
  }
  slot.reset();
  return any;
}
