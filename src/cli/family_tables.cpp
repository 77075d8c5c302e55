#include "cli/family_tables.hpp"

#include "tenferro/ad.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::cli {

std::vector<const AdmissionTable*> family_admission_tables() {
  return {&einsum_family::admission_table(), &linalg_family::admission_table(),
          &fft_family::admission_table(), &prims_family::admission_table(), &ad::admission_table()};
}

}  // namespace tenferro::cli
