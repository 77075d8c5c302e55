// The admission tables of every op family, in the order `tenferro info` prints them.
#pragma once

#include <vector>

#include "tenferro/runtime/admission.hpp"

namespace tenferro::cli {

std::vector<const AdmissionTable*> family_admission_tables();

}  // namespace tenferro::cli
