// param_table: a lab's parameters said once, as rows of {settings member, spec}; the spec's parameter
// list and the settings of a point are both read from it. Header-only, over param.hpp: no ABI.
#pragma once

#include <functional>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cudalab/param.hpp"

namespace cudalab {

/// The names of a choice parameter's values and the values a lab holds them as (an enum, a bool): said
/// once, they give the spec's choices, read the parameter, and name a value again (a note, a message).
template <class T>
class choice_names {
 public:
  /// One choice: its name in lab files and the value it stands for.
  struct entry {
    std::string name;
    T value;
  };

  choice_names(std::initializer_list<entry> entries) : entries_(entries) {}

  /// The names, in order: param_spec::choices.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const entry& e : entries_) out.push_back(e.name);
    return out;
  }

  /// The value called `name`. Throws std::invalid_argument listing the names.
  const T& value_of(const std::string& name) const {
    for (const entry& e : entries_)
      if (e.name == name) return e.value;
    std::string all;
    for (const entry& e : entries_) all += (all.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument("'" + name + "' is not one of the choices (" + all + ")");
  }

  /// The name of `value`. Throws std::out_of_range for a value no entry holds.
  const std::string& name_of(const T& value) const {
    for (const entry& e : entries_)
      if (e.value == value) return e.name;
    throw std::out_of_range("a value no choice names");
  }

 private:
  std::vector<entry> entries_;
};

/// A lab's parameters as rows: each row is a param_spec and the member of `Settings` its value fills,
/// so a parameter is declared, documented and read in one place. `specs()` is lab_spec::params and
/// `read(p)` the settings of a point:
///
///     struct settings { std::uint64_t n; int block; };
///     using table = cudalab::param_table<settings>;
///     inline const table parameters = {
///         table::integer(&settings::n, "n", 1 << 20, 1, std::int64_t(1) << 31, "elements", "floats to copy"),
///         table::integer(&settings::block, "block", 256, 32, 1024, "threads", "threads per block").multiple(32),
///     };
///     ... s.params = parameters.specs();  ...  const settings s = parameters.read(p);
///
/// Members derived from the parameters (a layout, a size in bytes) are filled by `derive`, which
/// read() calls last.
template <class Settings>
class param_table {
 public:
  /// One parameter: its spec, and how its value reaches its member. Refined like a param_spec.
  class row {
   public:
    /// param_spec::multiple: integer values must be multiples of `m`.
    row multiple(std::int64_t m) && {
      spec_ = std::move(spec_).multiple(m);
      return std::move(*this);
    }
    /// param_spec::only: the only integer values accepted.
    row only(std::vector<std::int64_t> values) && {
      spec_ = std::move(spec_).only(std::move(values));
      return std::move(*this);
    }
    /// param_spec::tunes: a tuning parameter (lab_point::retune takes it).
    row tunes() && {
      spec_ = std::move(spec_).tunes();
      return std::move(*this);
    }
    const param_spec& spec() const { return spec_; }

   private:
    friend class param_table;
    row(param_spec spec, std::function<void(const params&, Settings&)> read, std::string problem)
        : spec_(std::move(spec)), read_(std::move(read)), problem_(std::move(problem)) {}

    param_spec spec_;
    std::function<void(const params&, Settings&)> read_;
    std::string problem_;  ///< a range the member cannot hold: specs() throws it
  };

  /// An integer parameter held in an integer member (int, unsigned, std::uint64_t, ...): as
  /// param_spec::integer. REQUIRES: [lo, hi] fits the member's type (else specs() throws).
  template <class M>
  static row integer(M Settings::*member, std::string name, std::int64_t def, std::int64_t lo, std::int64_t hi,
                     std::string unit, std::string doc) {
    static_assert(std::is_integral_v<M> && !std::is_same_v<M, bool>,
                  "an integer parameter fills an integer member (a boolean one: param_table::boolean)");
    std::string problem;
    if (!holds<M>(lo) || !holds<M>(hi))
      problem = "parameter '" + name + "' ranges over [" + std::to_string(lo) + ", " + std::to_string(hi) +
                "], which its settings member's type cannot hold";
    auto read = [member, name](const params& p, Settings& s) {
      const std::int64_t v = p.integer(name);
      if (!holds<M>(v))
        throw std::invalid_argument("parameter '" + name + "' = " + std::to_string(v) +
                                    " does not fit its settings member");
      s.*member = static_cast<M>(v);
    };
    return row(param_spec::integer(std::move(name), def, lo, hi, std::move(unit), std::move(doc)), std::move(read),
               std::move(problem));
  }

  /// A real parameter held in a float or double member: as param_spec::real.
  template <class M>
  static row real(M Settings::*member, std::string name, double def, double lo, double hi, std::string unit,
                  std::string doc) {
    static_assert(std::is_floating_point_v<M>, "a real parameter fills a float or double member");
    std::string problem;
    if (-lo > double(std::numeric_limits<M>::max()) || hi > double(std::numeric_limits<M>::max()))
      problem = "parameter '" + name + "' ranges past what its settings member's type holds";
    auto read = [member, name](const params& p, Settings& s) { s.*member = static_cast<M>(p.real(name)); };
    return row(param_spec::real(std::move(name), def, lo, hi, std::move(unit), std::move(doc)), std::move(read),
               std::move(problem));
  }

  /// A boolean parameter held in a bool member: as param_spec::boolean.
  static row boolean(bool Settings::*member, std::string name, bool def, std::string doc) {
    auto read = [member, name](const params& p, Settings& s) { s.*member = p.boolean(name); };
    return row(param_spec::boolean(std::move(name), def, std::move(doc)), std::move(read), "");
  }

  /// A choice parameter held as the value `names` gives its name (an enum, a bool); the default is
  /// the value `def`. REQUIRES: `names` names `def`.
  template <class M>
  static row choice(M Settings::*member, std::string name, M def, const choice_names<M>& names, std::string doc) {
    std::string problem, def_name;
    try {
      def_name = names.name_of(def);
    } catch (const std::out_of_range&) {
      problem = "parameter '" + name + "': the default is not among its choice_names";
    }
    auto read = [member, name, names](const params& p, Settings& s) { s.*member = names.value_of(p.choice(name)); };
    std::vector<std::string> choices = names.names();
    return row(param_spec::choice(std::move(name), std::move(def_name), std::move(choices), std::move(doc)),
               std::move(read), std::move(problem));
  }

  /// A choice parameter held as its name, in a std::string member: as param_spec::choice.
  static row choice(std::string Settings::*member, std::string name, std::string def, std::vector<std::string> choices,
                    std::string doc) {
    auto read = [member, name](const params& p, Settings& s) { s.*member = p.choice(name); };
    return row(param_spec::choice(std::move(name), std::move(def), std::move(choices), std::move(doc)), std::move(read),
               "");
  }

  /// The rows, in the order the spec lists them, and what read() derives from them (none: nothing).
  param_table(std::initializer_list<row> rows, std::function<void(Settings&)> derive = {})
      : rows_(rows), derive_(std::move(derive)) {}

  /// The rows' specs: lab_spec::params. Throws std::logic_error when a row's range does not fit its
  /// member (the host reports it as the lab's spec() error when the plugin loads).
  std::vector<param_spec> specs() const {
    std::vector<param_spec> out;
    for (const row& r : rows_) {
      if (!r.problem_.empty()) throw std::logic_error(r.problem_);
      out.push_back(r.spec_);
    }
    return out;
  }

  /// The settings of the point `p`: every row's member read from its parameter, then derive().
  /// Throws std::invalid_argument (from params) for a parameter `p` lacks or holds with another type.
  Settings read(const params& p) const {
    Settings s{};
    for (const row& r : rows_) r.read_(p, s);
    if (derive_) derive_(s);
    return s;
  }

 private:
  template <class M>
  static bool holds(std::int64_t v) {
    if constexpr (std::is_signed_v<M>)
      return v >= std::int64_t(std::numeric_limits<M>::min()) && v <= std::int64_t(std::numeric_limits<M>::max());
    else
      return v >= 0 && std::uint64_t(v) <= std::uint64_t(std::numeric_limits<M>::max());
  }

  std::vector<row> rows_;
  std::function<void(Settings&)> derive_;
};

}  // namespace cudalab
