// The TOML table reader every table is read through: unknown keys reported once, at the key, with the
// nearest of the keys asked for; its wordings (a table's title, a hint, a document's own); a document's
// tables; typed values and enums, each problem at its value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "labfile/toml_reader.hpp"

namespace cudalab::host {
namespace {

const std::string file = "t.toml";

toml::table parsed(const std::string& text) { return parse_toml(file, text); }

std::vector<std::string> texts(const std::vector<lab_problem>& problems) {
  std::vector<std::string> out;
  for (const lab_problem& p : problems) out.push_back(p.where.text() + ": " + p.message);
  return out;
}

TEST(TableReader, UnknownKeysAreReportedOnceWithTheNearestKeyAsked) {
  const toml::table doc = parsed("plugin = \"x\"\ntitel = \"y\"\ncolour = 3\n");
  std::vector<lab_problem> problems;
  {
    table_reader r(file, doc, "lab", problems);
    EXPECT_EQ(r.text("plugin"), "x");
    r.get("title");
    EXPECT_FALSE(r.finish());
    EXPECT_TRUE(r.finish());  // reported already: nothing more, now or when r goes out of scope
  }
  EXPECT_EQ(texts(problems),
            (std::vector<std::string>{"t.toml:3:1: unknown key 'colour' in lab",
                                      "t.toml:2:1: unknown key 'titel' in lab; did you mean 'title'?"}));
}

TEST(TableReader, UnknownKeysAreReportedWhenTheReaderGoesOutOfScope) {
  const toml::table doc = parsed("too = 1\n");
  std::vector<lab_problem> problems;
  {
    table_reader r(file, doc, "", problems);
    r.titled("the range of 'n'").hinted(" (a range has from, to and step or factor)");
    r.expect({"from", "to", "step", "factor"});
    EXPECT_TRUE(problems.empty());
  }
  EXPECT_EQ(texts(problems),
            (std::vector<std::string>{"t.toml:1:1: unknown key 'too' in the range of 'n'; did you mean 'to'? (a range "
                                      "has from, to and step or factor)"}));
}

TEST(TableReader, ADocumentWordsItsOwnUnknownKeysAndReadsItsTables) {
  const toml::table doc = parsed("lab = 3\n[parms]\n[sweep]\nn = [1]\n");
  std::vector<lab_problem> problems;
  table_reader top(file, doc, "", problems);
  top.on_unknown([](const std::string& key, const toml::node& value, const std::vector<std::string>& known) {
    return std::string(value.is_table() ? "unknown table" : "unknown key") + " [" + key + "]" +
           suggestion(key, known, "[", "]");
  });
  EXPECT_EQ(top.section("lab"), nullptr);  // not a table: a problem, at the key
  EXPECT_EQ(top.section("params"), nullptr);
  const toml::table* sweep = top.section("sweep");
  ASSERT_NE(sweep, nullptr);
  EXPECT_TRUE(sweep->contains("n"));
  EXPECT_TRUE(top.sections("test").empty());
  top.finish();
  EXPECT_EQ(texts(problems), (std::vector<std::string>{"t.toml:1:1: 'lab' must be a table [lab], not an integer 3",
                                                       "t.toml:2:2: unknown table [parms]; did you mean [params]?"}));
}

TEST(TableReader, ArraysOfTablesAreReadAsSections) {
  const toml::table doc = parsed("hidden = 1\n[[test]]\nname = \"a\"\n[[test]]\nname = \"b\"\n");
  std::vector<lab_problem> problems;
  table_reader top(file, doc, "", problems);
  ASSERT_EQ(top.sections("test").size(), 2u);
  EXPECT_TRUE(top.sections("hidden").empty());
  EXPECT_EQ(texts(problems), (std::vector<std::string>{"t.toml:1:10: hidden must be [[hidden]] tables"}));
}

enum class colour { red, green, blue };

TEST(TableReader, TypedValuesFallBackWithTheProblemAtTheValue) {
  const toml::table doc =
      parsed("n = \"many\"\nsize = \"64Ki\"\nok = 1\nmode = \"gren\"\nlist = [\"a\", 2]\nrate = -1\n");
  std::vector<lab_problem> problems;
  {
    table_reader r(file, doc, "t", problems);
    EXPECT_EQ(r.count("n", 7, 0), 7u);
    EXPECT_EQ(r.size("size", 0, 1, "a size"), 65536u);
    EXPECT_TRUE(r.boolean("ok", true));  // an integer: the fallback
    EXPECT_EQ(r.choice("mode", {"red", "green", "blue"}, colour::blue), colour::blue);
    EXPECT_EQ(r.strings("list"), std::vector<std::string>{"a"});
    EXPECT_EQ(r.number("rate", 2, 0), 2);
    EXPECT_EQ(r.text("missing", "", true), "");
  }
  EXPECT_EQ(texts(problems),
            (std::vector<std::string>{
                "t.toml:1:5: t.n must be a whole number, not a string \"many\"",
                "t.toml:3:6: t.ok must be true or false, not an integer 1",
                "t.toml:4:8: t.mode is \"gren\", not one of red, green, blue; did you mean \"green\"?",
                "t.toml:5:14: t.list must hold strings, not an integer 2", "t.toml:6:8: t.rate must be at least 0",
                "t.toml:1:1: t has no missing (it is required)"}));
  std::vector<lab_problem> none;
  const toml::table green = parsed("mode = \"green\"\n");
  table_reader good(file, green, "t", none);
  EXPECT_EQ(good.choice("mode", {"red", "green", "blue"}, colour::red), colour::green);
}

TEST(TableReader, EntryLinesKeepTheWrittenOrder) {
  const toml::table doc = parsed("z = 1\na = [1, 2]\nm = { from = 1, to = 4 }\n");
  EXPECT_EQ(entry_lines(doc), (std::vector<std::string>{"z = 1", "a = [ 1, 2 ]", "m = { from = 1, to = 4 }"}));
}

}  // namespace
}  // namespace cudalab::host
