// JSON reporters: results.jsonl (streamed, flushed per result) and results.json (one document at
// the end), both in the schema of results/json.hpp.
#include <nlohmann/json.hpp>

#include <ostream>

#include "results/json.hpp"
#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

using json = nlohmann::ordered_json;

class jsonl_reporter final : public reporter {
 public:
  jsonl_reporter(std::ostream& out, bool context_line) : out_(out), context_line_(context_line) {}
  void begin(const run_context& c) override {
    if (context_line_) out_ << json_text(json{{"context", c}}) << "\n" << std::flush;
  }
  void add(const variant_result& r) override { out_ << result_json(r) << "\n" << std::flush; }
  void end(const run_context&) override { out_.flush(); }

 private:
  std::ostream& out_;
  bool context_line_;
};

class json_reporter final : public reporter {
 public:
  explicit json_reporter(std::ostream& out) : out_(out) {}
  void begin(const run_context&) override {}
  void add(const variant_result& r) override { results_.push_back(r); }
  void end(const run_context& c) override {
    out_ << json_text(json{{"context", c}, {"results", results_}}, 2) << "\n";
    out_.flush();
  }

 private:
  std::ostream& out_;
  json results_ = json::array();
};

}  // namespace

std::unique_ptr<reporter> make_jsonl_reporter(std::ostream& out, bool context_line) {
  return std::make_unique<jsonl_reporter>(out, context_line);
}
std::unique_ptr<reporter> make_json_reporter(std::ostream& out) { return std::make_unique<json_reporter>(out); }

}  // namespace cudalab::host
