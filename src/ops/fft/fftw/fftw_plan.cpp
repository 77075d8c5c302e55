#include "ops/fft/fftw/fftw_plan.hpp"

#include <pthread.h>

#include <charconv>
#include <string>

#include "backends/cpu/host_parallel.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/fft.hpp"

namespace tenferro::fft_internal {
namespace {

void append_number(std::string& out, std::int64_t value, char separator) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
  out += separator;
}

void append_dims(std::string& out, const std::vector<IoDim>& dims) {
  for (const auto& d : dims) {
    append_number(out, d.n, ',');
    append_number(out, d.is, ',');
    append_number(out, d.os, ';');
  }
}

// Retained size we account for: FFTW's twiddles and buffers scale with the transform size.
std::size_t plan_bytes(const PlanShape& shape) {
  std::size_t elements = 1;
  for (const auto& d : shape.dims) elements *= static_cast<std::size_t>(d.n);
  return 1024 + 32 * elements;
}

}  // namespace

std::string PlanShape::key(bool is_double) const {
  std::string k;
  k.reserve(96);
  k += static_cast<char>('0' + static_cast<int>(kind));
  k += is_double ? 'd' : 's';
  k += sign == FFTW_FORWARD ? '-' : '+';
  k += in_place ? 'i' : 'o';
  append_number(k, in_alignment, ',');
  append_number(k, out_alignment, '|');
  append_dims(k, dims);
  k += '|';
  append_dims(k, batch);
  k += 't';
  append_number(k, threads, '|');
  return k;
}

int planner_threads(const PlanShape& shape) {
  std::int64_t points = 1;
  for (const auto& d : shape.dims) points *= d.n;
  for (const auto& d : shape.batch) points *= d.n;
  return points >= kThreadedFftPoints ? cpu_parallel::host_kernel_threads() : 1;
}

namespace {
// FFTW's parallel loop, on the host worker pool: `work` on each of the `njobs` records of
// `jobdata`, returning when all are done. FFTW's jobs are independent, so a busy pool, which
// runs them on the caller one after another, gives the same result.
void run_fftw_jobs_on_host_pool(void* (*work)(char*), char* jobdata, std::size_t elsize, int njobs,
                                void* /*data*/) {
  cpu_parallel::parallel_chunks(njobs, njobs, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) work(jobdata + elsize * static_cast<std::size_t>(i));
  });
}

// In a forked child. The planner mutex is unlocked (the fork waited for it). FFTW's own worker
// threads were the parent's: the child's copy of FFTW's queue still lists them, parked, so its
// first threaded transform (from 2^17 points, a plan cached before the fork or a new one)
// handed them its jobs and waited forever (10 of 20 children of a process that had run one).
// FFTW cannot let go of them (fftw_cleanup_threads waits for each to stop); its parallel loops
// are handed to the host worker pool instead, which a child starts anew. Only in a child: the
// parent's FFTW setting, which other users of FFTW in the process share, is left alone.
void fftw_in_forked_child() {
  fftw_planner_mutex().unlock();
  fftw_threads_set_callback(&run_fftw_jobs_on_host_pool, nullptr);
  fftwf_threads_set_callback(&run_fftw_jobs_on_host_pool, nullptr);
}
}  // namespace

std::mutex& fftw_planner_mutex() {
  static std::mutex mutex;
  // A fork while another thread plans (Python's multiprocessing forks whenever it likes) would
  // leave the child's copy of this mutex locked by a thread the child does not have, and its
  // first plan, or the destruction of an evicted one, would wait forever. The fork waits for
  // the planner instead, and both sides unlock it.
  static const bool fork_safe = [] {
    pthread_atfork([] { mutex.lock(); }, [] { mutex.unlock(); }, &fftw_in_forked_child);
    return true;
  }();
  (void)fork_safe;
  return mutex;
}

namespace {
// FFTW's threads support must be initialised once before its first threaded plan; called
// with the planner mutex held, like every planner call.
void init_threads_locked() {
  static bool done = false;
  if (done) return;
  if (fftw_init_threads() == 0 || fftwf_init_threads() == 0) {
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, "fft",
                "FFTW could not initialise its threads support");
  }
  done = true;
}
}  // namespace

int Fftw<double>::alignment_of(const void* p) {
  return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
}
fftw_plan Fftw<double>::plan(const PlanShape& s, void* in, void* out, unsigned flags) {
  const int rank = static_cast<int>(s.dims.size());
  const int howmany = static_cast<int>(s.batch.size());
  switch (s.kind) {
    case PlanKind::C2C:
      return fftw_plan_guru64_dft(rank, s.dims.data(), howmany, s.batch.data(),
                                  static_cast<fftw_complex*>(in), static_cast<fftw_complex*>(out),
                                  s.sign, flags);
    case PlanKind::R2C:
      return fftw_plan_guru64_dft_r2c(rank, s.dims.data(), howmany, s.batch.data(),
                                      static_cast<double*>(in), static_cast<fftw_complex*>(out),
                                      flags);
    case PlanKind::C2R:
      break;
  }
  return fftw_plan_guru64_dft_c2r(rank, s.dims.data(), howmany, s.batch.data(),
                                  static_cast<fftw_complex*>(in), static_cast<double*>(out), flags);
}
void Fftw<double>::execute(const PlanShape& s, fftw_plan p, void* in, void* out) {
  switch (s.kind) {
    case PlanKind::C2C:
      return fftw_execute_dft(p, static_cast<fftw_complex*>(in), static_cast<fftw_complex*>(out));
    case PlanKind::R2C:
      return fftw_execute_dft_r2c(p, static_cast<double*>(in), static_cast<fftw_complex*>(out));
    case PlanKind::C2R:
      break;
  }
  fftw_execute_dft_c2r(p, static_cast<fftw_complex*>(in), static_cast<double*>(out));
}
void Fftw<double>::destroy(fftw_plan p) {
  fftw_destroy_plan(p);
}

int Fftw<float>::alignment_of(const void* p) {
  return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
}
fftwf_plan Fftw<float>::plan(const PlanShape& s, void* in, void* out, unsigned flags) {
  const int rank = static_cast<int>(s.dims.size());
  const int howmany = static_cast<int>(s.batch.size());
  switch (s.kind) {
    case PlanKind::C2C:
      return fftwf_plan_guru64_dft(rank, s.dims.data(), howmany, s.batch.data(),
                                   static_cast<fftwf_complex*>(in),
                                   static_cast<fftwf_complex*>(out), s.sign, flags);
    case PlanKind::R2C:
      return fftwf_plan_guru64_dft_r2c(rank, s.dims.data(), howmany, s.batch.data(),
                                       static_cast<float*>(in), static_cast<fftwf_complex*>(out),
                                       flags);
    case PlanKind::C2R:
      break;
  }
  return fftwf_plan_guru64_dft_c2r(rank, s.dims.data(), howmany, s.batch.data(),
                                   static_cast<fftwf_complex*>(in), static_cast<float*>(out),
                                   flags);
}
void Fftw<float>::execute(const PlanShape& s, fftwf_plan p, void* in, void* out) {
  switch (s.kind) {
    case PlanKind::C2C:
      return fftwf_execute_dft(p, static_cast<fftwf_complex*>(in),
                               static_cast<fftwf_complex*>(out));
    case PlanKind::R2C:
      return fftwf_execute_dft_r2c(p, static_cast<float*>(in), static_cast<fftwf_complex*>(out));
    case PlanKind::C2R:
      break;
  }
  fftwf_execute_dft_c2r(p, static_cast<fftwf_complex*>(in), static_cast<float*>(out));
}
void Fftw<float>::destroy(fftwf_plan p) {
  fftwf_destroy_plan(p);
}
void Fftw<double>::plan_with_threads(int threads) {
  fftw_plan_with_nthreads(threads);
}
void Fftw<float>::plan_with_threads(int threads) {
  fftwf_plan_with_nthreads(threads);
}
int Fftw<double>::planner_threads() {
  return fftw_planner_nthreads();
}
int Fftw<float>::planner_threads() {
  return fftwf_planner_nthreads();
}

template <class R>
std::shared_ptr<const FftwPlan<R>> find_or_make_plan(ExtensionCacheStore& caches,
                                                     const PlanShape& shape, void* in, void* out) {
  const CacheKey key = CacheKey::of(std::string(fft_family::kFamily), "fftw_plan",
                                    shape.key(std::is_same_v<R, double>));
  auto plan = caches.get_or_create<FftwPlan<R>>(
      key,
      [&] {
        // ESTIMATE never reads or writes the arrays while planning; C2R may destroy its input
        // (our callers only hand it staging buffers they own).
        const unsigned flags = FFTW_ESTIMATE | (shape.kind == PlanKind::C2R ? FFTW_DESTROY_INPUT
                                                                            : FFTW_PRESERVE_INPUT);
        typename Fftw<R>::Plan raw;
        {
          std::lock_guard lock(fftw_planner_mutex());
          init_threads_locked();
          // The planner's thread count is process-wide FFTW state: set ours for this plan
          // only and give back what was there, so the caller's own FFTW plans are untouched.
          const int previous = Fftw<R>::planner_threads();
          Fftw<R>::plan_with_threads(shape.threads);
          raw = Fftw<R>::plan(shape, in, out, flags);
          Fftw<R>::plan_with_threads(previous);
        }
        if (raw == nullptr) {
          throw_error(ErrorKind::Backend, ErrorPhase::Execute, "fft",
                      "FFTW could not plan the transform " + shape.key(std::is_same_v<R, double>));
        }
        return std::make_shared<FftwPlan<R>>(shape, raw);
      },
      plan_bytes(shape));
  return plan;
}

template std::shared_ptr<const FftwPlan<float>> find_or_make_plan<float>(ExtensionCacheStore&,
                                                                         const PlanShape&, void*,
                                                                         void*);
template std::shared_ptr<const FftwPlan<double>> find_or_make_plan<double>(ExtensionCacheStore&,
                                                                           const PlanShape&, void*,
                                                                           void*);

}  // namespace tenferro::fft_internal
