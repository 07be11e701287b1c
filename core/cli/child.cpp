// The entries of cudalab's own children, which main() runs before it parses a command line:
// `cudalab __child` (a child of a run: its whole plan on stdin, or in the file after --plan for run
// --profile's child, which ncu starts), `cudalab __plugin-probe FILE` (list's child loading one
// plugin), `cudalab __compile-kernel WORK NAME ARCH ...` (NVRTC on a student's kernel, in a child of
// its own: slots/kernel_compile_child.hpp) and `cudalab __submission ARTIFACT ENTRY PID` (a launcher slot in
// its own process, the harness's child: isolation/submission_process.hpp). None takes options: nothing a child does is
// decided on its command line.
#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "command.hpp"
#include "common.hpp"
#include "exit_codes.hpp"
#include "isolation/child_plan.hpp"
#include "isolation/child_protocol.hpp"
#include "isolation/submission_process.hpp"
#include "plugin/plugin_probe.hpp"
#include "process/child_process.hpp"
#include "results/results_folder.hpp"
#include "run_labs.hpp"
#include "slots/kernel_compile_child.hpp"

namespace cudalab::cli {

namespace {

// A child of a run: it plans from the texts its parent planned from, then does its part.
int run_child_plan(const host::child_plan& p, const std::string& argv0) {
  int code = host::exit_ok;
  const auto profile = load_profile(p.profile_file, code, &p.profile_text);
  if (!profile) return code;
  host::plan_request pr;
  for (const host::child_lab& lab : p.labs) {
    pr.files.push_back(lab.file);
    pr.texts.push_back(lab.text);
  }
  pr.search_path = search_path(p.plugin_paths);
  pr.profile = &*profile;
  pr.overrides = p.sets;
  pr.variant_filter = p.variants;
  pr.submitted_slots.emplace();
  for (const host::submission_arg& s : p.submissions) pr.submitted_slots->push_back(s.slot);
  auto plans = plan(pr, code);
  if (!plans) return code;
  if (p.role != host::child_role::whole_run)
    return host::run_as_child(*plans, profile->measure, host::new_context(argv0 + " __child", profile->file), p);
  // run --profile's child: the whole run here, into the folder its parent reads back.
  host::run_request r;
  r.plans = std::move(*plans);
  r.profile = *profile;
  r.plugin_paths = p.plugin_paths;
  r.sets = p.sets;
  r.variant_filter = p.variants;
  r.out_dir = p.out_dir;
  r.isolate = host::isolation_mode::none;
  r.colour = false;
  r.device = p.device;
  r.submissions = p.submissions;
  r.command_line = argv0 + " __child";
  r.argv0 = argv0;
  return host::run_labs(r);
}

int child_main(int argc, char** argv) {
  // cudalab __child ROLE [--plan FILE]
  std::optional<host::child_plan> p;
  if (argc == 3) {
    p = host::read_child_plan(STDIN_FILENO);
  } else if (argc == 5 && std::strcmp(argv[3], "--plan") == 0) {
    p = host::read_child_plan_file(argv[4]);
  } else {
    fmt::print(stderr, "cudalab: {} is a child of a run, started by cudalab itself, with its plan on stdin\n",
               host::child_entry);
    return host::exit_usage;
  }
  if (!p || std::strcmp(argv[2], host::child_role_name(p->role)) != 0) {
    fmt::print(stderr, "cudalab: a child of a run got no plan it can read from its parent\n");
    return host::exit_internal;
  }
  // Before anything else (loading plugins may hang): it dies with its parent.
  if (p->parent_pid > 0) host::die_with_parent(p->parent_pid);
  return run_child_plan(*p, argv[0]);
}

}  // namespace

int run_child_entry(int argc, char** argv) {
  if (argc < 2) return -1;
  if (std::strcmp(argv[1], host::child_entry) == 0) {
    try {
      return child_main(argc, argv);
    } catch (const std::exception& e) {
      fmt::print(stderr, "cudalab: internal error: {}\n", e.what());
      return host::exit_internal;
    }
  }
  if (std::strcmp(argv[1], host::compile_kernel_entry) == 0) return host::compile_kernel_as_child(argc, argv);
  if (std::strcmp(argv[1], host::submission_entry) == 0) {
    // cudalab __submission ARTIFACT ENTRY PARENT_PID, its socket on descriptor 3: gone with the harness.
    if (argc != 5 || std::to_string(getppid()) != argv[4]) {
      fmt::print(stderr, "cudalab: {} is a harness's child, started by cudalab itself\n", host::submission_entry);
      return host::exit_usage;
    }
    return host::serve_submission(3, argv[2], argv[3]);
  }
  if (std::strcmp(argv[1], host::probe_entry) == 0) {
    if (argc != 3) {
      fmt::print(stderr, "cudalab: {} FILE is list's child, started by cudalab itself\n", host::probe_entry);
      return host::exit_usage;
    }
    return host::probe_plugin_as_child(argv[2]);
  }
  return -1;
}

}  // namespace cudalab::cli
