// variant_table: a lab's variants declared once, as rows of {name, summary, policy}; the spec's
// variant list and the per-call lookup by index both come from it.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"

namespace cudalab {

/// The variants of a lab with what each one does (its `Policy`: a kernel choice, a struct of
/// template parameters, an enum). Variant indices are row positions, as the host passes them.
template <class Policy>
class variant_table {
 public:
  /// One variant: its identifier (lab files, --variant), a line on the pattern it shows, its policy.
  struct row {
    std::string name;
    std::string summary;
    Policy policy;
  };

  variant_table(std::initializer_list<row> rows) : rows_(rows) {}

  /// The rows as lab_spec::variants.
  std::vector<variant_spec> specs() const {
    std::vector<variant_spec> out;
    for (const row& r : rows_) out.push_back({r.name, r.summary});
    return out;
  }

  /// The policy of variant `v`. Throws std::out_of_range for an index past the table.
  const Policy& operator[](variant_index v) const { return at(v).policy; }
  /// The name of variant `v`.
  const std::string& name(variant_index v) const { return at(v).name; }
  std::size_t size() const { return rows_.size(); }

  /// The index of the variant called `name` (tests, lab code that names one variant on purpose).
  /// Throws std::out_of_range listing the names.
  variant_index index_of(const std::string& name) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
      if (rows_[i].name == name) return i;
    std::string names;
    for (const row& r : rows_) names += (names.empty() ? "" : ", ") + r.name;
    throw std::out_of_range("no variant '" + name + "' (variants: " + names + ")");
  }

 private:
  const row& at(variant_index v) const {
    if (v >= rows_.size())
      throw std::out_of_range("variant index " + std::to_string(v) + " is past the table's " +
                              std::to_string(rows_.size()) + " variants");
    return rows_[v];
  }

  std::vector<row> rows_;
};

}  // namespace cudalab
