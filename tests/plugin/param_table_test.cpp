// cudalab/param_table.hpp: one table of rows gives the spec's parameters and reads a point's settings.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/param_table.hpp"

namespace {

enum class shape { uniform, skewed };

const cudalab::choice_names<shape> shapes = {{"uniform", shape::uniform}, {"skewed", shape::skewed}};

struct settings {
  std::uint64_t n;
  int block;
  float factor;
  bool check;
  shape spread;
  std::string name;
  std::uint64_t bytes;  ///< derived: n * 4
};

using table = cudalab::param_table<settings>;

const table parameters(
    {
        table::integer(&settings::n, "n", 1 << 20, 1, std::int64_t(1) << 32, "elements", "floats"),
        table::integer(&settings::block, "block", 256, 32, 1024, "threads", "per block").multiple(32).tunes(),
        table::real(&settings::factor, "factor", 2.5, -10, 10, "", "the multiplier"),
        table::boolean(&settings::check, "check", true, "verify"),
        table::choice(&settings::spread, "spread", shape::skewed, shapes, "how values spread"),
        table::choice(&settings::name, "name", "b", {"a", "b"}, "a name"),
    },
    [](settings& s) { s.bytes = s.n * 4; });

cudalab::params defaults_with(const std::map<std::string, cudalab::param_value>& overrides) {
  std::map<std::string, cudalab::param_value> values;
  for (const cudalab::param_spec& p : parameters.specs()) values[p.name] = p.default_value;
  for (const auto& [name, value] : overrides) values[name] = value;
  return cudalab::params(values);
}

TEST(ParamTable, TheSpecsAreWhatParamSpecWouldDeclare) {
  const std::vector<cudalab::param_spec> specs = parameters.specs();
  ASSERT_EQ(specs.size(), 6u);
  const cudalab::param_spec n =
      cudalab::param_spec::integer("n", 1 << 20, 1, std::int64_t(1) << 32, "elements", "floats");
  EXPECT_EQ(specs[0].name, n.name);
  EXPECT_EQ(specs[0].type, n.type);
  EXPECT_EQ(specs[0].default_value, n.default_value);
  EXPECT_EQ(specs[0].min, n.min);
  EXPECT_EQ(specs[0].max, n.max);
  EXPECT_EQ(specs[0].unit, n.unit);
  EXPECT_EQ(specs[0].doc, n.doc);
  EXPECT_FALSE(specs[0].tuning);
  EXPECT_EQ(specs[1].multiple_of, 32);
  EXPECT_TRUE(specs[1].tuning);
  EXPECT_EQ(specs[2].type, cudalab::param_type::real);
  EXPECT_EQ(specs[3].type, cudalab::param_type::boolean);
  EXPECT_EQ(specs[3].default_value, cudalab::param_value(true));
  // An enum choice: its names in order, its default by name.
  EXPECT_EQ(specs[4].type, cudalab::param_type::choice);
  EXPECT_EQ(specs[4].choices, (std::vector<std::string>{"uniform", "skewed"}));
  EXPECT_EQ(specs[4].default_value, cudalab::param_value(std::string("skewed")));
  EXPECT_EQ(specs[5].choices, (std::vector<std::string>{"a", "b"}));
}

TEST(ParamTable, ReadFillsEveryMemberThenDerives) {
  const settings s = parameters.read(defaults_with({{"n", std::int64_t(5000000000)},
                                                    {"block", std::int64_t(96)},
                                                    {"factor", -0.5},
                                                    {"check", false},
                                                    {"spread", std::string("uniform")},
                                                    {"name", std::string("a")}}));
  EXPECT_EQ(s.n, 5000000000u);
  EXPECT_EQ(s.block, 96);
  EXPECT_EQ(s.factor, -0.5f);
  EXPECT_FALSE(s.check);
  EXPECT_EQ(s.spread, shape::uniform);
  EXPECT_EQ(s.name, "a");
  EXPECT_EQ(s.bytes, 20000000000u);
}

TEST(ParamTable, ReadRefusesWhatTheParamsDoNotHoldAsDeclared) {
  // A missing parameter, one of another type, and a value the member cannot hold (the host's range check
  // comes first in a run; read() still never narrows silently).
  EXPECT_THROW(parameters.read(cudalab::params({{"n", std::int64_t(1)}})), std::invalid_argument);
  EXPECT_THROW(parameters.read(defaults_with({{"block", 2.0}})), std::invalid_argument);
  try {
    parameters.read(defaults_with({{"block", std::int64_t(1) << 40}}));
    ADD_FAILURE() << "read() narrowed 2^40 into an int";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "parameter 'block' = 1099511627776 does not fit its settings member");
  }
  EXPECT_THROW(parameters.read(defaults_with({{"spread", std::string("zipf")}})), std::invalid_argument);
}

TEST(ParamTable, ARangeTheMemberCannotHoldIsTheSpecsError) {
  struct narrow {
    int n;
    unsigned u;
  };
  using narrow_table = cudalab::param_table<narrow>;
  const narrow_table too_wide = {
      narrow_table::integer(&narrow::n, "n", 1, 1, std::int64_t(1) << 31, "elements", "does not fit an int")};
  try {
    too_wide.specs();
    ADD_FAILURE() << "specs() accepted a range an int cannot hold";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "parameter 'n' ranges over [1, 2147483648], which its settings member's type cannot hold");
  }
  const narrow_table negative = {narrow_table::integer(&narrow::u, "u", 0, -1, 1, "", "unsigned")};
  EXPECT_THROW(negative.specs(), std::logic_error);
  const narrow_table fits = {narrow_table::integer(&narrow::u, "u", 0, 0, 4294967295, "", "unsigned")};
  EXPECT_NO_THROW(fits.specs());
}

TEST(ParamTable, AChoiceDefaultNotAmongItsNamesIsTheSpecsError) {
  struct holder {
    shape spread;
  };
  using holder_table = cudalab::param_table<holder>;
  const cudalab::choice_names<shape> only_uniform = {{"uniform", shape::uniform}};
  const holder_table t = {holder_table::choice(&holder::spread, "spread", shape::skewed, only_uniform, "")};
  EXPECT_THROW(t.specs(), std::logic_error);
}

TEST(ChoiceNames, NameAValueAndFindOne) {
  EXPECT_EQ(shapes.names(), (std::vector<std::string>{"uniform", "skewed"}));
  EXPECT_EQ(shapes.value_of("skewed"), shape::skewed);
  EXPECT_EQ(shapes.name_of(shape::uniform), "uniform");
  try {
    shapes.value_of("zipf");
    ADD_FAILURE() << "value_of accepted an unknown name";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "'zipf' is not one of the choices (uniform, skewed)");
  }
  const cudalab::choice_names<shape> one = {{"uniform", shape::uniform}};
  EXPECT_THROW(one.name_of(shape::skewed), std::out_of_range);
}

}  // namespace
