// The C standard's integer headers for NVRTC (nvrtc_std_headers.hpp).
#include "slots/nvrtc_std_headers.hpp"

#include <filesystem>
#include <stdexcept>

#include "results/safe_file.hpp"

namespace cudalab::host {

namespace {

// The types, in the global namespace as <stdint.h> and <stddef.h> put them, each as the toolkit's libcu++
// defines it under NVRTC (64-bit integers are long long there): a kernel that includes both gets one type
// declared twice alike, which C++ allows.
constexpr const char* global_types = R"(typedef signed char int8_t;
typedef signed short int16_t;
typedef signed int int32_t;
typedef signed long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef int8_t int_least8_t;
typedef int16_t int_least16_t;
typedef int32_t int_least32_t;
typedef int64_t int_least64_t;
typedef uint8_t uint_least8_t;
typedef uint16_t uint_least16_t;
typedef uint32_t uint_least32_t;
typedef uint64_t uint_least64_t;
typedef int8_t int_fast8_t;
typedef int16_t int_fast16_t;
typedef int32_t int_fast32_t;
typedef int64_t int_fast64_t;
typedef uint8_t uint_fast8_t;
typedef uint16_t uint_fast16_t;
typedef uint32_t uint_fast32_t;
typedef uint64_t uint_fast64_t;
typedef int64_t intptr_t;
typedef uint64_t uintptr_t;
typedef int64_t intmax_t;
typedef uint64_t uintmax_t;
typedef decltype(sizeof 0) size_t;
typedef decltype((int*)0 - (int*)0) ptrdiff_t;
typedef decltype(nullptr) nullptr_t;
)";

// The same names in std, as <cstdint> and <cstddef> put them.
constexpr const char* std_names = R"(namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;
using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;
using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;
using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
using ::size_t; using ::ptrdiff_t; using ::nullptr_t;
}
)";

}  // namespace

std::vector<std::string> std_header_names() { return {"cstdint", "stdint.h", "cstddef", "stddef.h"}; }

std::string std_header_text(const std::string& name) {
  const bool in_std = name == "cstdint" || name == "cstddef";
  if (!in_std && name != "stdint.h" && name != "stddef.h")
    throw std::invalid_argument("no standard header " + name + " for NVRTC");
  std::string out = "// <" + name + "> for a kernel compiled with NVRTC: written by cudalab\n#pragma once\n";
  out += std::string("#ifndef CUDALAB_NVRTC_TYPES\n#define CUDALAB_NVRTC_TYPES\n") + global_types + "#endif\n";
  if (in_std)
    out += std::string("#ifndef CUDALAB_NVRTC_STD_NAMES\n#define CUDALAB_NVRTC_STD_NAMES\n") + std_names + "#endif\n";
  return out;
}

void write_std_headers(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot make " + folder + ": " + ec.message());
  for (const std::string& name : std_header_names())
    write_file_atomically(std::filesystem::path(folder) / name, std_header_text(name));
}

}  // namespace cudalab::host
