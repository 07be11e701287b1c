// A plugin whose lab constructor throws: loading must report it, not crash.
#include <stdexcept>

#include "cudalab/plugin.hpp"

namespace throwing_factory {
class throwing_lab final : public cudalab::lab {
 public:
  throwing_lab() { throw std::runtime_error("constructor refuses on purpose"); }
  cudalab::lab_spec spec() const override { return {}; }
  void setup(const cudalab::params&, cudalab::session&) override {}
  cudalab::traffic traffic_of(const cudalab::variant_spec&) const override { return {}; }
  void run(const cudalab::variant_spec&, cudaStream_t) override {}
  cudalab::check verify(const cudalab::variant_spec&) override { return {}; }
  void trace(const cudalab::params&, const cudalab::variant_spec&, cudalab::trace_sink&) const override {}
  void teardown() noexcept override {}
};
}  // namespace throwing_factory

CUDALAB_REGISTER_LAB(throwing_factory::throwing_lab)
