// The allow-list of [build] flags (build_flags.hpp): each flag matched whole against one pattern.
#include "assignment/build_flags.hpp"

#include <regex>

namespace cudalab::host {

bool is_allowed_build_flag(const std::string& flag) {
  // One anchored pattern, so that nothing can follow an allowed prefix: a VALUE has no space, quote,
  // '$', ';', '`' or other shell character, whatever quoting the compiler's own host steps use.
  static const std::regex allowed(
      "-O[0-3]"
      "|-lineinfo"
      "|-std=c\\+\\+(17|20)"
      "|-D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.+-]*)?"
      "|-maxrregcount=[1-9][0-9]{0,2}"
      "|--?use_fast_math"
      "|--extra-device-vectorization"
      "|-G"
      "|--(ftz|prec-div|prec-sqrt|fmad)=(true|false)");
  return std::regex_match(flag, allowed);
}

const char* allowed_build_flags_text() {
  return "-O0..-O3, -lineinfo, -std=c++17 or -std=c++20, -DNAME or -DNAME=VALUE (VALUE of letters, digits and "
         ". + - _), -maxrregcount=N, --use_fast_math, --extra-device-vectorization, -G, and --ftz, --prec-div, "
         "--prec-sqrt or --fmad =true|false";
}

}  // namespace cudalab::host
