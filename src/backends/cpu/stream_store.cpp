#include "backends/cpu/stream_store.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace tenferro::cpu_stream {
namespace {

// The size of cpu0's cache `index` as sysfs writes it ("32768K"), or 0.
std::size_t sysfs_cache_bytes(int index, int& level) {
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
  std::ifstream size_file(dir + "size"), level_file(dir + "level");
  std::string size;
  if (!(size_file >> size) || !(level_file >> level) || size.empty()) return 0;
  std::size_t value = 0;
  std::size_t i = 0;
  for (; i < size.size() && size[i] >= '0' && size[i] <= '9'; ++i)
    value = value * 10 + static_cast<std::size_t>(size[i] - '0');
  if (i < size.size() && (size[i] == 'K' || size[i] == 'k')) value <<= 10;
  if (i < size.size() && (size[i] == 'M' || size[i] == 'm')) value <<= 20;
  return value;
}

std::size_t detect() {
  // sysfs first: on this project's virtual machine sysconf reports the host's L3 (384 MiB)
  // while sysfs (and lscpu) give the 32 MiB the guest sees.
  std::size_t best = 0;
  int best_level = 0;
  for (int index = 0; index < 8; ++index) {
    int level = 0;
    const std::size_t bytes = sysfs_cache_bytes(index, level);
    if (bytes != 0 && level >= best_level) {
      best = bytes;
      best_level = level;
    }
  }
#if defined(_SC_LEVEL3_CACHE_SIZE)
  if (best == 0) {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) best = static_cast<std::size_t>(l3);
  }
#endif
  if (best == 0) best = std::size_t{32} << 20;
  return std::clamp(best, std::size_t{1} << 20, std::size_t{1} << 30);
}

}  // namespace

std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = detect();
  return bytes;
}

}  // namespace tenferro::cpu_stream
