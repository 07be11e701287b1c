// Lab parameters: their declared specs (name, type, default, range, allowed values) and the values a
// run uses.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cudalab {

/// The value of one parameter. Integers are 64-bit; sizes in lab files ("64Mi") become integers.
using param_value = std::variant<std::int64_t, double, bool, std::string>;

/// The kinds of parameter a lab can declare.
enum class param_type { integer, real, boolean, choice };

/// "integer", "real", "boolean" or "choice".
inline const char* param_type_name(param_type t) {
  switch (t) {
    case param_type::integer:
      return "integer";
    case param_type::real:
      return "real";
    case param_type::boolean:
      return "boolean";
    case param_type::choice:
      return "choice";
  }
  return "?";
}

/// One parameter a lab accepts: lab files are validated against these before anything runs, and
/// the host checks the spec itself when the plugin loads (the default within range, among the
/// allowed values or choices).
struct param_spec {
  std::string name;  ///< key in [params] / [sweep]: lower case, digits, '_'
  param_type type = param_type::integer;
  param_value default_value;          ///< used when the lab file does not set it
  std::optional<double> min;          ///< inclusive lower bound (integer, real)
  std::optional<double> max;          ///< inclusive upper bound (integer, real)
  std::vector<std::string> choices;   ///< allowed values (choice)
  std::string unit;                   ///< what the number counts: "elements", "bytes", "threads", ...
  std::string doc;                    ///< one sentence for `cudalab describe`
  std::vector<std::int64_t> allowed;  ///< integer: the only values accepted (empty: any in range)
  std::int64_t multiple_of = 0;       ///< integer: values must be multiples of this (0: any)
  bool tuning = false;                ///< changes how variants run, not the data setup() makes

  static param_spec integer(std::string name, std::int64_t def, std::int64_t lo, std::int64_t hi, std::string unit,
                            std::string doc) {
    return {std::move(name), param_type::integer, def, double(lo), double(hi), {},
            std::move(unit), std::move(doc),      {},  0};
  }
  static param_spec real(std::string name, double def, double lo, double hi, std::string unit, std::string doc) {
    return {std::move(name), param_type::real, def, lo, hi, {}, std::move(unit), std::move(doc), {}, 0};
  }
  static param_spec boolean(std::string name, bool def, std::string doc) {
    return {std::move(name), param_type::boolean, def, std::nullopt, std::nullopt, {}, "", std::move(doc), {}, 0};
  }
  static param_spec choice(std::string name, std::string def, std::vector<std::string> choices, std::string doc) {
    return {std::move(name),
            param_type::choice,
            std::move(def),
            std::nullopt,
            std::nullopt,
            std::move(choices),
            "",
            std::move(doc),
            {},
            0};
  }

  /// Integer only: accepts just these values (e.g. the unroll factors a kernel template is built
  /// for; dispatch.hpp's choices<...>::values() gives them from the same list the launcher uses).
  param_spec only(std::vector<std::int64_t> values) && {
    allowed = std::move(values);
    return std::move(*this);
  }
  /// Integer only: accepts only multiples of `m` (e.g. 32 for whole warps).
  param_spec multiple(std::int64_t m) && {
    multiple_of = m;
    return std::move(*this);
  }
  /// A tuning parameter (a block size, an unroll factor, an offset into the same buffers): it changes
  /// how the variants run, not the inputs and reference setup() makes. Across sweep points that
  /// differ only in tuning parameters the host keeps the point and calls lab_point::retune().
  param_spec tunes() && {
    tuning = true;
    return std::move(*this);
  }
};

/// The parameter values of one sweep point: every declared parameter is present and typed.
class params {
 public:
  params() = default;
  explicit params(std::map<std::string, param_value> values) : values_(std::move(values)) {}

  /// REQUIRES: `name` is a declared integer parameter (else std::invalid_argument saying why).
  std::int64_t integer(const std::string& name) const { return get<std::int64_t>(name, param_type::integer); }
  /// REQUIRES: `name` is a declared real parameter.
  double real(const std::string& name) const { return get<double>(name, param_type::real); }
  /// REQUIRES: `name` is a declared boolean parameter.
  bool boolean(const std::string& name) const { return get<bool>(name, param_type::boolean); }
  /// REQUIRES: `name` is a declared choice parameter.
  const std::string& choice(const std::string& name) const { return get<std::string>(name, param_type::choice); }

  bool contains(const std::string& name) const { return values_.count(name) != 0; }
  void set(const std::string& name, param_value value) { values_[name] = std::move(value); }
  const std::map<std::string, param_value>& values() const { return values_; }

 private:
  template <class T>
  const T& get(const std::string& name, param_type asked) const {
    auto it = values_.find(name);
    if (it == values_.end()) {
      std::string names;
      for (const auto& [k, v] : values_) names += (names.empty() ? "" : ", ") + k;
      throw std::invalid_argument("no parameter '" + name + "' (the lab declares: " + names + ")");
    }
    if (const T* v = std::get_if<T>(&it->second)) return *v;
    // param_value's alternatives, in order, as the types they hold.
    static const param_type held_types[] = {param_type::integer, param_type::real, param_type::boolean,
                                            param_type::choice};
    static const char* const articles[] = {"an ", "a ", "a ", "a "};
    const std::size_t held = it->second.index();
    throw std::invalid_argument("parameter '" + name + "' is " + articles[held] + param_type_name(held_types[held]) +
                                ", not " + param_type_name(asked) +
                                " (read it with params::" + param_type_name(held_types[held]) + "())");
  }

  std::map<std::string, param_value> values_;
};

}  // namespace cudalab
