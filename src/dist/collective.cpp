#include "dist/collective.hpp"

#include <atomic>
#include <cstdint>
#include <new>
#include <vector>

#include "tenferro/core/error.hpp"

namespace tenferro::dist::detail {
namespace {

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// Every rank's string, on every rank (only on the error path: a mismatch report).
std::vector<std::string> all_strings(const Context::Impl& ctx, const std::string& mine) {
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(ctx.size));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, ctx.comm);
  std::vector<int> offsets(lengths.size(), 0);
  for (std::size_t r = 1; r < lengths.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string joined(static_cast<std::size_t>(offsets.back() + lengths.back()), '\0');
  MPI_Allgatherv(mine.data(), length, MPI_CHAR, joined.data(), lengths.data(), offsets.data(),
                 MPI_CHAR, ctx.comm);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    out.push_back(
        joined.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  return out;
}

}  // namespace

namespace {
std::atomic<int> injected_workspace_failure{-1};  // the rank whose next workspace fails
}  // namespace

void fail_next_workspace_for_testing(int rank) noexcept {
  injected_workspace_failure.store(rank);
}

void fail_injected_workspace(int rank) {
  int expected = rank;
  if (injected_workspace_failure.compare_exchange_strong(expected, -1)) throw std::bad_alloc();
}

void check_same_call(const Context::Impl& ctx, std::string_view op, const std::string& call) {
  const std::uint64_t mine = fnv1a(call);
  std::uint64_t lowest = 0, highest = 0;
  MPI_Allreduce(&mine, &lowest, 1, MPI_UINT64_T, MPI_MIN, ctx.comm);
  MPI_Allreduce(&mine, &highest, 1, MPI_UINT64_T, MPI_MAX, ctx.comm);
  if (lowest == highest) return;
  const std::vector<std::string> calls = all_strings(ctx, call);
  std::string report =
      "the ranks called different operations (every rank must make the same "
      "distributed calls in the same order):";
  for (std::size_t r = 0; r < calls.size(); ++r) {
    report += " rank " + std::to_string(r) + ": " + calls[r].substr(0, 160) + ";";
  }
  report.pop_back();
  throw_validation(std::string(op), report);
}

void agree(const Context::Impl& ctx, std::exception_ptr local_error) {
  const int mine = local_error ? ctx.rank : ctx.size;
  int first = ctx.size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, ctx.comm);
  if (first == ctx.size) return;
  // The failing rank describes its error; every rank receives it.
  int header[3] = {static_cast<int>(ErrorKind::Backend), static_cast<int>(ErrorPhase::Execute), 0};
  std::string op = "dist", message = "an unknown exception";
  if (ctx.rank == first) {
    try {
      std::rethrow_exception(local_error);
    } catch (const Error& e) {
      header[0] = static_cast<int>(e.kind());
      header[1] = static_cast<int>(e.phase());
      op = e.op();
      message = e.message();
    } catch (const std::bad_alloc&) {
      header[0] = static_cast<int>(ErrorKind::Resource);
      message = "out of memory (an allocation on this rank failed)";
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
    }
  }
  std::string text = op + '\n' + message;
  header[2] = static_cast<int>(text.size());
  MPI_Bcast(header, 3, MPI_INT, first, ctx.comm);
  text.resize(static_cast<std::size_t>(header[2]));
  MPI_Bcast(text.data(), header[2], MPI_CHAR, first, ctx.comm);
  const std::size_t split = text.find('\n');
  throw Error(static_cast<ErrorKind>(header[0]), static_cast<ErrorPhase>(header[1]),
              text.substr(0, split),
              "rank " + std::to_string(first) + ": " + text.substr(split + 1));
}

}  // namespace tenferro::dist::detail

namespace tenferro::dist {

void on_root(const std::shared_ptr<Context>& ctx, const std::function<void()>& fn) {
  const Context::Impl& c = ctx->impl();
  detail::check_same_call(c, "dist.on_root", "on_root");
  detail::agreed(c, [&] {
    if (c.rank == 0) fn();
  });
}

}  // namespace tenferro::dist
