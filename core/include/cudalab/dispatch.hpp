// Runtime value -> compile-time constant: picks the kernel template instance for a parameter such as
// an unroll factor, a block size or a vector width, from one list of the values it is built for.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cudalab {

/// The values a kernel template is instantiated for, e.g. `using unrolls = choices<1, 2, 4>;`.
/// The same list gives the parameter's allowed values (param_spec::only(unrolls::values())) and the
/// instances dispatch() chooses from, so the two cannot drift apart.
template <auto... Values>
struct choices {
  /// The values, for param_spec::only().
  static std::vector<std::int64_t> values() { return {static_cast<std::int64_t>(Values)...}; }
  /// "1, 2 or 4".
  static std::string text() {
    const std::vector<std::int64_t> v = values();
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + std::to_string(v[i]);
    return s;
  }
};

namespace detail {
template <auto First, auto...>
struct first_choice {
  using type = std::integral_constant<decltype(First), First>;
};

[[noreturn]] inline void not_a_choice(const char* what, const std::string& allowed, std::int64_t value) {
  throw std::invalid_argument(std::string(what) + " must be " + allowed + ", not " + std::to_string(value));
}
}  // namespace detail

/// Calls `f(std::integral_constant<decltype(V), V>{})` for the V of `Values` equal to `value` and
/// returns what it returns; throws std::invalid_argument naming `what` and the values otherwise.
/// In a launcher: `dispatch(unrolls{}, unroll, "unroll", [&](auto u) { kernel<u><<<...>>>(...); });`
template <auto... Values, class V, class F>
decltype(auto) dispatch(choices<Values...>, V value, const char* what, F&& f) {
  using result = decltype(f(typename detail::first_choice<Values...>::type{}));
  const auto wanted = static_cast<std::int64_t>(value);
  if constexpr (std::is_void_v<result>) {
    const bool found =
        ((wanted == static_cast<std::int64_t>(Values) ? (f(std::integral_constant<decltype(Values), Values>{}), true)
                                                      : false) ||
         ...);
    if (!found) detail::not_a_choice(what, choices<Values...>::text(), wanted);
  } else {
    result out{};
    const bool found = ((wanted == static_cast<std::int64_t>(Values)
                             ? (out = f(std::integral_constant<decltype(Values), Values>{}), true)
                             : false) ||
                        ...);
    if (!found) detail::not_a_choice(what, choices<Values...>::text(), wanted);
    return out;
  }
}

}  // namespace cudalab
