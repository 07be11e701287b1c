// A plugin whose lab constructor throws: loading must report it, not crash.
#include <stdexcept>

#include "cudalab/plugin.hpp"

namespace throwing_factory {
class throwing_lab final : public cudalab::lab {
 public:
  throwing_lab() { throw std::runtime_error("constructor refuses on purpose"); }
  cudalab::lab_spec spec() const override { return {}; }
  cudalab::traffic traffic_of(const cudalab::params&, cudalab::variant_index) const override { return {}; }
  void trace(const cudalab::params&, cudalab::variant_index, const cudalab::lab_context&,
             cudalab::trace_sink&) const override {}
  std::unique_ptr<cudalab::lab_point> setup(const cudalab::params&, cudalab::session&) const override {
    return nullptr;
  }
};
}  // namespace throwing_factory

CUDALAB_REGISTER_LAB(throwing_factory::throwing_lab)
