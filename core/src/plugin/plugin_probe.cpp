// Loading a plugin file in a child process (plugin_probe.hpp).
#include "plugin/plugin_probe.hpp"

#include <unistd.h>

#include <cerrno>
#include <optional>

#include <nlohmann/json.hpp>

#include "exit_codes.hpp"
#include "plugin/loader.hpp"
#include "process/child_process.hpp"

namespace cudalab::host {

namespace {

// The probe's one line: {"name": ..., "title": ..., "variants": N} or {"error": ...}.
nlohmann::json probe_json(const plugin_probe& p) {
  if (!p.loaded) return {{"error", p.error}};
  return {{"name", p.name}, {"title", p.title}, {"variants", p.variants}};
}

plugin_probe parse_probe(const std::string& line) {
  plugin_probe p;
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_object() && j.contains("error") && j["error"].is_string()) {
    p.error = j["error"].get<std::string>();
  } else if (j.is_object() && j.contains("name") && j["name"].is_string() && j.contains("title") &&
             j["title"].is_string() && j.contains("variants") && j["variants"].is_number_unsigned()) {
    p.loaded = true;
    p.name = j["name"].get<std::string>();
    p.title = j["title"].get<std::string>();
    p.variants = j["variants"].get<std::size_t>();
  } else {
    p.error = "the process loading it sent a bad answer";
  }
  return p;
}

bool write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

plugin_probe probe_plugin(const std::filesystem::path& file, double timeout_s) {
  child_request request;
  // The kernel's own link to this executable: the file this process runs, even if replaced since.
  request.argv = {"/proc/self/exe", probe_entry, file.string()};
  request.timeout_s = timeout_s;
  std::optional<plugin_probe> answer;
  request.on_result_line = [&](const std::string& line) {
    if (answer) return false;
    answer = parse_probe(line);
    return true;
  };
  const child_outcome how = run_child(request);
  if (answer) return *answer;
  plugin_probe failed;
  failed.error = "loading it " + how.describe();
  if (!how.last_output.empty()) failed.error += "; its last output: " + how.last_output.back();
  return failed;
}

int probe_plugin_as_child(const std::filesystem::path& file) {
  plugin_probe p;
  try {
    const loaded_plugin& loaded = load_plugin_file(file);
    p.loaded = true;
    p.name = loaded.spec.name;
    p.title = loaded.spec.title;
    p.variants = loaded.spec.variants.size();
  } catch (const plugin_error& e) {
    p.error = e.what();
  }
  if (!write_all(child_request{}.result_fd,
                 probe_json(p).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    return exit_internal;
  return p.loaded ? exit_ok : exit_plugin;
}

}  // namespace cudalab::host
