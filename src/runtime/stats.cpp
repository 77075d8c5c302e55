#include "tenferro/runtime/stats.hpp"

namespace tenferro {

std::uint64_t RuntimeStats::kernel_launches_for(const std::string& key) const {
  auto it = kernel_launches.find(key);
  return it == kernel_launches.end() ? 0 : it->second;
}

std::string RuntimeStats::to_json() const {
  std::string s = "{";
  auto field = [&](const char* name, std::uint64_t v) {
    s += "\"";
    s += name;
    s += "\": " + std::to_string(v) + ", ";
  };
  field("epoch", epoch);
  field("module_installs", module_installs);
  field("retained_snapshots", retained_snapshots);
  field("ensure_fast_path_hits", ensure_fast_path_hits);
  field("cache_hits", cache_hits);
  field("cache_misses", cache_misses);
  field("cache_entries", cache_entries);
  field("cache_bytes", cache_bytes);
  field("uploads", uploads);
  field("upload_bytes", upload_bytes);
  field("downloads", downloads);
  field("download_bytes", download_bytes);
  field("status_reads", status_reads);
  field("status_read_bytes", status_read_bytes);
  field("scalar_reads", scalar_reads);
  field("scalar_read_bytes", scalar_read_bytes);
  field("scalar_writes", scalar_writes);
  field("scalar_write_bytes", scalar_write_bytes);
  field("backend_constructions", backend_constructions);
  field("numerical_retries", numerical_retries);
  s += "\"kernel_launches\": {";
  bool first = true;
  for (const auto& [key, v] : kernel_launches) {
    if (!first) s += ", ";
    first = false;
    s += "\"" + key + "\": " + std::to_string(v);  // keys are validated ids: no escaping needed
  }
  return s + "}}";
}

}  // namespace tenferro
