#include "cli/family_tables.hpp"

namespace tenferro::cli {

std::vector<const AdmissionTable*> family_admission_tables() {
  return {};  // families are added here as they land
}

}  // namespace tenferro::cli
