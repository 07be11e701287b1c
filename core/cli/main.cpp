// The cudalab executable: argument parsing and dispatch to the sub-commands.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "commands.hpp"
#include "completion.hpp"
#include "exit_codes.hpp"
#include "help_format.hpp"
#include "option_checks.hpp"
#include "plugin/plugin_probe.hpp"
#include "results/console_text.hpp"

namespace {

// A repeatable option takes one value each time it is given: CLI11 would otherwise let it take every
// word after it that is not an option, lab files included (`--plugin-path DIR a.toml b.toml`).
CLI::Option* one_value_each_time(CLI::Option* option) { return option->allow_extra_args(false); }

// An existing file, said in --help only by the option's own type name (CLI11 would add ":FILE").
CLI::Validator existing_file() { return CLI::Validator(CLI::ExistingFile).description(""); }

void add_plugin_path(CLI::App& cmd, cudalab::cli::options& o) {
  one_value_each_time(
      cmd.add_option("--plugin-path", o.plugin_paths,
                     "A folder to search for plugins first (repeatable, one folder or ':'-separated list "
                     "each time); then $CUDALAB_PLUGIN_PATH, then the plugin folder beside this executable")
          ->type_name("DIR"));
}

void add_lab_options(CLI::App& cmd, cudalab::cli::options& o) {
  add_plugin_path(cmd, o);
  cmd.add_option("--config", o.config, "Run profile (e.g. configs/quick.toml): [measure] and [output] settings")
      ->type_name("TOML")
      ->check(existing_file());
  one_value_each_time(cmd.add_option("--set", o.sets,
                                     "Override a value: a parameter (n=64Mi, params.offset=3), measure.KEY=VALUE, "
                                     "lab.variants=a,b, lab.baseline=NAME (repeatable, one KEY=VALUE each time)")
                          ->type_name("KEY=VALUE"));
  one_value_each_time(
      cmd.add_option("--variant", o.variants, "Run only this variant (repeatable; the baseline is kept)")
          ->type_name("NAME"));
  cmd.add_option("files", o.files, "Lab files")->type_name("TOML")->required();
}

// --wide, of the commands that print tables.
void add_wide(CLI::App& cmd, cudalab::cli::options& o) {
  cmd.add_flag("--wide", o.wide,
               "Every column of the tables and no line wrapped, whatever the width of the terminal (by default "
               "the least important columns are left out where they do not fit: $COLUMNS, else the terminal's "
               "width, else 120)");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cudalab;
  cli::options o;
  CLI::App app{
      "cudalab: learn and measure GPU memory-access patterns.\n"
      "Runs lab files (TOML) through lab plugins, verifies every variant, times it on the GPU and predicts its "
      "memory transactions on the CPU.",
      "cudalab"};
  // --help wrapped to the terminal; each subcommand takes the formatter when it is added.
  const std::size_t width = host::console_width();
  app.formatter(std::make_shared<cli::wrapped_help>(width));
  app.require_subcommand(1);
  app.set_version_flag("--version", [] { return cli::version_text(); });  // only when asked: it calls CUDA
  std::vector<std::string> codes;
  for (const host::exit_code_meaning& m : host::exit_code_meanings())
    codes.push_back(std::to_string(m.code) + " " + m.meaning);
  app.footer(cli::item_list("Exit codes:", codes, width));

  auto* list = app.add_subcommand("list", "List the lab plugins found on the plugin search path");
  add_plugin_path(*list, o);
  list->add_option("--timeout", o.timeout_s,
                   "Each plugin is loaded in a child process: skip one that takes longer than SECONDS (default " +
                       std::to_string(static_cast<int>(cli::list_timeout_s)) + ")")
      ->check(cli::seconds_above_zero());
  list->add_option(host::probe_flag, o.probe_file)->group("");  // the child loading one plugin (plugin_probe.hpp)

  auto* describe = app.add_subcommand("describe", "Show a plugin's parameters and variants");
  add_plugin_path(*describe, o);
  describe->add_option("plugin", o.plugin, "Plugin name (or path to a plugin file)")->type_name("PLUGIN")->required();

  auto* validate = app.add_subcommand("validate", "Check lab files against their plugins (no GPU needed)");
  add_lab_options(*validate, o);

  auto* explain = app.add_subcommand("explain", "Predict each variant's memory transactions (no GPU needed)");
  add_lab_options(*explain, o);
  explain->add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}));
  add_wide(*explain, o);

  auto* run = app.add_subcommand("run", "Run lab files on the GPU: verify, time, report");
  add_lab_options(*run, o);
  run->add_option("--format", o.format, "Console output: table, json, csv or md")
      ->check(CLI::IsMember({"table", "json", "csv", "md"}));
  run->add_option("--out", o.out_dir,
                  "Results folder (default: results/<date-time>Z, in UTC); one that is there already must be empty")
      ->type_name("DIR");
  run->add_flag("--force", o.force,
                "Replace the results of an earlier run in --out (a folder holding anything else is still refused)");
  run->add_flag("--no-color", o.no_color, "No colours even on a terminal (NO_COLOR also works)");
  add_wide(*run, o);
  run->add_flag("--png", o.png,
                "Also write each plot as PNG beside its SVG (needs rsvg-convert: Debian package librsvg2-bin)");
  run->add_flag("--progress", o.progress,
                "Show the progress line on stderr even when it is not a terminal (on a terminal it always is)");
  run->add_flag("--isolate{file}", o.isolate,
                "Run each lab file (--isolate, --isolate=file) or each variant at each point (--isolate=variant) in "
                "a child process: a crash, a CUDA error that poisons the GPU context or a timeout is recorded as "
                "that unit's error and the run goes on")
      ->check(CLI::IsMember({"none", "file", "variant"}));
  run->add_option("--timeout", o.timeout_s,
                  "With --isolate (implied): kill a child process that goes SECONDS without sending a result "
                  "and record it as timed out")
      ->check(cli::seconds_above_zero());
  run->add_option("--devices", o.devices,
                  "Spread the run over these GPUs (CUDA ordinals, e.g. 0,1), one worker each: lab files (a long one "
                  "in parts of its points; with --isolate=variant, points) run side by side in child processes, "
                  "results in the usual order; a lab whose traffic crosses the host bus runs alone")
      ->check(cli::device_list());
  run->add_option("--device", o.device,
                  "Run on this GPU alone (a CUDA ordinal, counted from 0 among those CUDA_VISIBLE_DEVICES shows): "
                  "in this process, or with --isolate in child processes that see only it (--devices N)")
      ->type_name("N")
      ->check(cli::device_ordinal());
  one_value_each_time(
      run->add_option(
             "--submission", o.submissions,
             "Run your code for a lab's slot as the variant student:SLOT (SLOT=FILE, repeatable): FILE is built for "
             "the GPU (NVRTC or nvcc) into the results folder, then verified and timed beside the lab's baseline")
          ->type_name("SLOT=FILE"));
  run->add_option("--sanitize", o.sanitize,
                  "Re-run this command under compute-sanitizer --tool TOOL (memcheck, racecheck, synccheck, "
                  "initcheck); best with --config configs/verify.toml and small sizes. Exit 7 if it finds errors")
      ->check(CLI::IsMember({"memcheck", "racecheck", "synccheck", "initcheck"}));
  run->add_flag("--profile", o.profile,
                "Run every variant once, verified (no timing), under Nsight Compute's ncu, and show the memory "
                "traffic it counts for each variant's own kernels beside the model's prediction, with a verdict "
                "(docs/model.md); without ncu, or without permission to read the GPU's counters, the run says so and "
                "goes on without them");
  // The child processes of an isolated run (isolation/child_protocol.hpp): not for people (hidden from --help).
  run->add_option(host::child_flag::result_fd, o.child.result_fd)->group("");
  run->add_flag(host::child_flag::context_only, o.child.context_only)->group("");
  run->add_option(host::child_flag::ceilings, o.child.ceilings)->group("");
  run->add_option(host::child_flag::first_point, o.child.first_point)->group("");
  run->add_option(host::child_flag::last_point, o.child.last_point)->group("");
  run->add_option(host::child_flag::variant, o.child.variant)->group("");
  run->add_option(host::child_flag::baseline_gbps, o.child.baseline_gbps)->group("");
  run->add_option(host::child_flag::parent_pid, o.child.parent_pid)->group("");
  run->add_option(host::child_flag::input_file, o.child.input_file)->group("");

  auto* assignment =
      app.add_subcommand("assignment", "Course staff: make an assignment for a lab's slot, and its starter kit");
  assignment->require_subcommand(1);
  auto* init = assignment->add_subcommand("init",
                                          "Write a new assignment file for a slot of a lab file (visible, hidden, "
                                          "performance and sanitizer tests to edit)");
  add_plugin_path(*init, o);
  init->add_option("--lab", o.assignment.lab, "The lab file the assignment extends")->type_name("TOML")->required();
  init->add_option("--slot", o.assignment.slot, "The lab's slot the students fill (cudalab describe LAB lists them)")
      ->required();
  init->add_option("--out", o.out_dir, "The assignment's folder (new, or empty)")->type_name("DIR")->required();
  auto* starter = assignment->add_subcommand(
      "starter", "Write the students' kit: the slot's source with TODOs, a public assignment copy, a README");
  add_plugin_path(*starter, o);
  starter->add_option("assignment", o.assignment.file, "The assignment file")->type_name("TOML")->required();
  starter->add_option("--out", o.out_dir, "The kit's folder (new, or empty)")->type_name("DIR")->required();

  auto* check = app.add_subcommand(
      "check", "Students: build your submission as the grader does and run the assignment's visible tests");
  add_plugin_path(*check, o);
  check->add_option("assignment", o.assignment.file, "The kit's assignment.toml")->type_name("TOML")->required();
  check
      ->add_option("--submission", o.assignment.submission,
                   "Your file (default: the file the assignment names, beside it)")
      ->type_name("FILE");
  check->add_flag("--no-gpu", o.assignment.no_gpu, "Only build it and check the header policy (no GPU needed)");
  check->add_option("--arch", o.assignment.arch, "The architecture --no-gpu builds for (default sm_90)");
  check->add_option("--out", o.out_dir, "Where to keep what it ran (default: check-results/<id>-<date-time>Z)")
      ->type_name("DIR");
  check->add_flag("--force", o.force, "Replace an earlier check's folder at --out");
  check->add_flag("--no-color", o.no_color, "No colours");

  auto* grade = app.add_subcommand(
      "grade", "Staff: grade a submission (or a class) on this GPU - every test, hidden ones per student, integrity");
  add_plugin_path(*grade, o);
  grade->add_option("assignment", o.assignment.file, "The staff's assignment.toml (with secret.key beside it)")
      ->type_name("TOML")
      ->required();
  auto* one = grade
                  ->add_option("--submission", o.assignment.submission,
                               "One submission: the file, or a folder holding the assignment's file")
                  ->type_name("PATH");
  grade
      ->add_option("--submissions", o.assignment.submissions,
                   "A class: a folder of submissions, one file or folder per student, named by it (resumes)")
      ->type_name("DIR")
      ->excludes(one);
  grade->add_option("--student", o.assignment.student, "The student's id (default: the submission's name)");
  grade->add_option("--secret", o.assignment.secret, "The staff secret (default: secret.key beside the assignment)")
      ->type_name("FILE");
  grade
      ->add_option("--emit", o.assignment.emit,
                   "Also write a render: gradescope=FILE, prairielearn=FILE, junit=FILE or md=FILE (repeatable)")
      ->type_name("KIND=FILE")
      ->delimiter(',');
  grade->add_option("--out", o.out_dir, "The output folder (a class: one folder per student in it)")->type_name("DIR");
  grade->add_flag("--force", o.force, "Replace an earlier grading's folder at --out (one submission)");
  grade->add_flag("--no-color", o.no_color, "No colours");

  auto* device = app.add_subcommand("device", "Show the GPU's properties and measure its bandwidth ceilings");
  device->add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}));
  device
      ->add_option("--device", o.device,
                   "Show this GPU (a CUDA ordinal, counted from 0 among those CUDA_VISIBLE_DEVICES shows)")
      ->type_name("N")
      ->check(cli::device_ordinal());

  auto* new_lab =
      app.add_subcommand("new", "Write a new lab plugin folder that builds against this cudalab and passes its tests");
  new_lab
      ->add_option("name", o.new_lab,
                   "The lab's name: lower-case letters, digits and '_' (its plugin is cudalab_NAME.so)")
      ->required();
  new_lab->add_option("--out", o.out_dir, "The folder to write (default: ./NAME); it must not exist or be empty")
      ->type_name("DIR");

  auto* completion = app.add_subcommand("completion",
                                        "Print a shell completion script (commands, options, lab files, plugin names): "
                                        "source <(cudalab completion bash)");
  std::string shell;
  completion->add_option("shell", shell, "The shell")->required()->check(CLI::IsMember({"bash"}));

  auto* compare = app.add_subcommand(
      "compare", "Compare two runs' results: each result's change in median time, beyond the noise or not");
  compare->add_option("base", o.compare.base, "The base run: a results folder, or its results.json (or .jsonl)")
      ->required();
  compare->add_option("new", o.compare.next, "The new run, likewise")->required();
  compare
      ->add_option("--threshold", o.compare.threshold_pct,
                   "Count a change only beyond PCT % of the base median (default 5) and with p < 0.05 in the "
                   "Mann-Whitney U test")
      ->transform(cli::percentage());
  compare->add_option("--format", o.format, "table (default), md, json or html (one self-contained page)")
      ->check(CLI::IsMember({"table", "md", "json", "html"}));
  compare->add_flag("--no-color", o.no_color, "No colours even on a terminal (NO_COLOR also works)");

  auto* export_results =
      app.add_subcommand("export", "Write a run's results in NVBench's JSON layout, for scripts/nvbench_compare.py");
  export_results->add_option("results", o.compare.results, "A results folder, or its results.json (or .jsonl)")
      ->required();
  export_results->add_option("--format", o.format, "nvbench (the only one, the default)")
      ->check(CLI::IsMember({"nvbench"}));
  export_results->add_option("--out", o.compare.out_file, "The file to write (default: standard output)");

  auto* plot = app.add_subcommand(
      "plot", "Draw a run's plots again from its results (a results folder, or its results.json or .jsonl)");
  plot->add_option("results", o.compare.results, "A results folder, or its results.json (or .jsonl)")->required();
  plot->add_option("--out", o.out_dir, "The folder for the plots (default: plots/ beside the results file)")
      ->type_name("DIR");
  plot->add_flag("--png", o.png,
                 "Also write each plot as PNG beside its SVG (needs rsvg-convert: Debian package librsvg2-bin)");

  auto* report = app.add_subcommand("report",
                                    "Write a run's report.html again from its results (a results folder, "
                                    "or its results.json or .jsonl): one page, no network needed");
  report->add_option("results", o.compare.results, "A results folder, or its results.json (or .jsonl)")->required();
  report->add_option("--out", o.compare.out_file, "The file to write (default: report.html beside the results file)")
      ->type_name("FILE");

  // A misspelt command gets a clearer answer than CLI11's "a subcommand is required".
  const auto& commands = app.get_subcommands({});
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(), [&](const CLI::App* c) { return c->get_name() == argv[1]; })) {
    std::string names;
    for (const CLI::App* c : commands) names += (names.empty() ? "" : ", ") + c->get_name();
    std::fprintf(stderr, "cudalab: unknown command '%s' - commands: %s (see --help)\n", argv[1], names.c_str());
    return host::exit_usage;
  }
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);
  o.argv.assign(argv, argv + argc);
  if (const auto mistake = cli::isolate_value_after_space(o.argv)) {
    std::fprintf(stderr, "cudalab: %s\n", mistake->c_str());
    return host::exit_usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? host::exit_ok : host::exit_usage;
  }
  if (*run && o.device >= 0 && !o.devices.empty()) {
    std::fprintf(stderr,
                 "cudalab: --device and --devices cannot go together: --device N runs on GPU N alone, --devices "
                 "spreads a run over several GPUs\n");
    return host::exit_usage;
  }
  try {
    if (*list) return cli::list_command(o);
    if (*describe) return cli::describe_command(o);
    if (*validate) return cli::validate_command(o);
    if (*explain) return cli::explain_command(o);
    if (*run) return o.sanitize.empty() ? cli::run_command(o) : cli::sanitize_command(o);
    if (*device) return cli::device_command(o);
    if (*init) return cli::assignment_init_command(o);
    if (*starter) return cli::assignment_starter_command(o);
    if (*check) return cli::check_command(o);
    if (*grade) return cli::grade_command(o);
    if (*new_lab) return cli::new_command(o);
    if (*compare) return cli::compare_command(o);
    if (*export_results) return cli::export_command(o);
    if (*plot) return cli::plot_command(o);
    if (*report) return cli::report_command(o);
    if (*completion) {
      std::fputs(cli::bash_completion(app).c_str(), stdout);
      return host::exit_ok;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cudalab: internal error: %s\n", e.what());
    return host::exit_internal;
  }
  return host::exit_usage;
}
