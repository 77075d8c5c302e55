// The `tenferro` command's exit statuses: one meaning each, so scripts can tell a failed
// performance gate from a typed error or a wrong command line.
#pragma once

namespace tenferro::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitTypedError = 1;  // "tenferro: error: <Kind>: ..."
inline constexpr int kExitUsage = 2;       // "tenferro: usage error: ..."
inline constexpr int kExitGateFailed = 3;  // `tenferro bench` ran, and its gate failed

}  // namespace tenferro::cli
