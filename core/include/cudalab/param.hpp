// Lab parameters: their declared specs (name, type, default, range) and the values a run uses.
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

/// One parameter a lab accepts: lab files are validated against these before anything runs.
struct param_spec {
  std::string name;             ///< key in [params] / [sweep]
  param_type type = param_type::integer;
  param_value default_value;    ///< used when the lab file does not set it
  std::optional<double> min;    ///< inclusive lower bound (integer, real)
  std::optional<double> max;    ///< inclusive upper bound (integer, real)
  std::vector<std::string> choices;  ///< allowed values (choice)
  std::string unit;             ///< what the number counts: "elements", "bytes", "threads", ...
  std::string doc;              ///< one sentence for `cudalab describe`

  static param_spec integer(std::string name, std::int64_t def, std::int64_t lo, std::int64_t hi,
                            std::string unit, std::string doc) {
    return {std::move(name), param_type::integer, def, double(lo), double(hi), {}, std::move(unit),
            std::move(doc)};
  }
  static param_spec real(std::string name, double def, double lo, double hi, std::string unit,
                         std::string doc) {
    return {std::move(name), param_type::real, def, lo, hi, {}, std::move(unit), std::move(doc)};
  }
  static param_spec boolean(std::string name, bool def, std::string doc) {
    return {std::move(name), param_type::boolean, def, std::nullopt, std::nullopt, {}, "", std::move(doc)};
  }
  static param_spec choice(std::string name, std::string def, std::vector<std::string> choices,
                           std::string doc) {
    return {std::move(name), param_type::choice, std::move(def), std::nullopt, std::nullopt,
            std::move(choices), "", std::move(doc)};
  }
};

/// The parameter values of one sweep point: every declared parameter is present and typed.
class params {
 public:
  params() = default;
  explicit params(std::map<std::string, param_value> values) : values_(std::move(values)) {}

  /// REQUIRES: `name` is a declared integer parameter.
  std::int64_t integer(const std::string& name) const { return get<std::int64_t>(name); }
  /// REQUIRES: `name` is a declared real parameter.
  double real(const std::string& name) const { return get<double>(name); }
  /// REQUIRES: `name` is a declared boolean parameter.
  bool boolean(const std::string& name) const { return get<bool>(name); }
  /// REQUIRES: `name` is a declared choice parameter.
  const std::string& choice(const std::string& name) const { return get<std::string>(name); }

  bool contains(const std::string& name) const { return values_.count(name) != 0; }
  void set(const std::string& name, param_value value) { values_[name] = std::move(value); }
  const std::map<std::string, param_value>& values() const { return values_; }

 private:
  template <class T>
  const T& get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw std::out_of_range("cudalab: no parameter '" + name + "'");
    if (const T* v = std::get_if<T>(&it->second)) return *v;
    throw std::invalid_argument("cudalab: parameter '" + name + "' has another type");
  }

  std::map<std::string, param_value> values_;
};

}  // namespace cudalab
