// A student's submission for a slot (submission.hpp).
#include "slots/submission.hpp"

#include <stdexcept>

#include "labfile/text_file.hpp"
#include "results/safe_file.hpp"
#include "slots/build_sandbox.hpp"
#include "slots/elf_symbols.hpp"
#include "slots/kernel_compile_child.hpp"
#include "slots/launcher_build.hpp"
#include "slots/slot_loading.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

submission_arg parse_submission_arg(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos)
    throw std::invalid_argument("'" + text + "' is not SLOT=FILE (the slot's name, '=', the file with your code)");
  submission_arg a{text.substr(0, eq), text.substr(eq + 1)};
  if (a.slot.empty()) throw std::invalid_argument("'" + text + "' names no slot before '='");
  if (a.file.empty()) throw std::invalid_argument("'" + text + "' names no file after '='");
  return a;
}

bool is_built_submission(const std::string& file) {
  const std::string ext = fs::path(file).extension().string();
  return ext == ".cubin" || ext == ".so";
}

std::string arch_of(const device_info& device) {
  return "sm_" + std::to_string(device.cc_major) + std::to_string(device.cc_minor);
}

namespace {

// The name diagnostics give the submission: its file's, as the student named it (`check --submission
// other.cu` reports other.cu:12), which is the slot's file name when they kept it.
std::string student_file_name(const std::string& source_path) { return fs::path(source_path).filename().string(); }

// The diagnostic of a built file that lacks the slot's entry.
compile_diagnostic missing_entry(const slot_spec& slot, const std::string& file_name) {
  const std::string how =
      slot.kind == slot_kind::kernel ? "extern \"C\" __global__ void " : "extern \"C\" cudaError_t ";
  return {file_name, 0, diagnostic_severity::error,
          "it defines no function '" + slot.entry + "': the slot calls " + how + slot.entry +
              "(...), as the starter declares it"};
}

// Where a compiler works for the build of `artifact`: a sandbox's own folder, or one beside the artifact.
std::string work_folder(const build_policy& policy, const fs::path& artifact, const std::string& purpose) {
  if (policy.sandbox) return new_sandbox_folder(purpose);
  return (artifact.parent_path() / ("." + purpose + "-build")).string();
}

built_submission build_kernel(const slot_spec& slot, const std::string& source_path, const std::string& arch,
                              const build_policy& policy, const fs::path& artifact) {
  built_submission out;
  kernel_compile_request request;
  request.file_name = student_file_name(source_path);
  try {  // a regular file of bounded size, like a lab file
    request.source = read_text(source_path, "submission");
  } catch (const lab_file_error& e) {
    out.diagnostics.push_back({request.file_name, 0, diagnostic_severity::error, e.what()});
    return out;
  }
  request.arch = arch;
  request.options = policy.flags;
  request.include_dirs = policy.include_dirs;
  request.deny_headers = policy.deny_headers;
  kernel_compile_child how;
  how.work = work_folder(policy, artifact, "kernel");
  how.timeout_s = policy.timeout_s;
  how.sandbox = policy.sandbox;
  how.limits = policy.limits;
  const kernel_compile_result compiled = compile_kernel_in_child(request, how);
  out.diagnostics = compiled.diagnostics;
  if (!compiled.ok) return out;
  const std::string bytes(compiled.cubin.begin(), compiled.cubin.end());
  if (!defines_function(bytes, request.file_name, slot.entry)) {
    out.diagnostics.push_back(missing_entry(slot, request.file_name));
    return out;
  }
  write_file_atomically(artifact, bytes);
  out.ok = true;
  out.artifact = artifact.string();
  return out;
}

built_submission build_launcher_slot(const slot_spec& slot, const std::string& source_path, const std::string& arch,
                                     const build_policy& policy, const fs::path& artifact) {
  launcher_build_request request;
  request.source_path = source_path;
  request.file_name = student_file_name(source_path);
  request.output_path = artifact.string();
  request.arch = arch;
  request.flags = policy.flags;
  request.deny_headers = policy.deny_headers;
  request.allow_libraries = policy.allow_libraries;
  request.timeout_s = policy.timeout_s;
  request.work = work_folder(policy, artifact, "launcher");
  request.sandbox = policy.sandbox;
  request.limits = policy.limits;
  const launcher_build_result built = build_launcher(request);
  built_submission out;
  out.diagnostics = built.diagnostics;
  if (!built.ok) return out;
  if (!defines_function(file_bytes(request.output_path), request.file_name, slot.entry)) {
    out.diagnostics.push_back(missing_entry(slot, request.file_name));
    return out;
  }
  out.ok = true;
  out.artifact = request.output_path;
  return out;
}

}  // namespace

std::string built_file_name(const slot_spec& slot) {
  return slot.name + (slot.kind == slot_kind::kernel ? ".cubin" : ".so");
}

built_submission build_submission(const slot_spec& slot, const std::string& source, const std::string& arch,
                                  const build_policy& policy, const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot make " + folder.string() + ": " + ec.message());
  const fs::path artifact = folder / built_file_name(slot);
  built_submission built = slot.kind == slot_kind::kernel ? build_kernel(slot, source, arch, policy, artifact)
                                                          : build_launcher_slot(slot, source, arch, policy, artifact);
  std::vector<std::string> roots = toolkit_include_dirs();
  roots.insert(roots.end(), {"/usr/include", "/usr/lib/gcc"});
  built.diagnostics = for_the_student(built.diagnostics, student_file_name(source), roots);
  return built;
}

void submission_codes::load(const std::string& lab, const slot_spec& slot, const std::string& artifact,
                            const loader& load) {
  try {
    codes_[{lab, slot.name}] = load ? load(slot, artifact) : load_slot_code(slot.kind, artifact, slot.entry);
  } catch (const std::exception& e) {
    failures_[{lab, slot.name}] = std::string("the submission could not be loaded: ") + e.what();
  }
}

std::string submission_codes::why(const std::string& lab, const std::string& slot) const {
  const auto it = failures_.find({lab, slot});
  return it == failures_.end() ? "" : it->second;
}

const slot_code* submission_codes::find(const std::string& lab, const std::string& slot) const {
  const auto it = codes_.find({lab, slot});
  return it == codes_.end() ? nullptr : it->second.get();
}

}  // namespace cudalab::host
