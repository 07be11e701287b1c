// `cudalab completion bash`: the completion script from the app's own commands and options.
#include "completion.hpp"

#include <fmt/format.h>

#include <memory>
#include <sstream>
#include <vector>

namespace cudalab::cli {

namespace {

// How the value of an option or a positional argument completes: "dir", "file", "toml", "plugin",
// "words:a,b,c" or "" (nothing to offer), from the type name --help shows ("TOML", "TEXT:{a,b}").
std::string value_kind(const CLI::Option* o) {
  const std::string type = o->get_type_name();
  const std::size_t open = type.find('{'), close = type.find('}');
  if (open != std::string::npos && close != std::string::npos && close > open)
    return "words:" + type.substr(open + 1, close - open - 1);
  const std::string name = type.substr(0, type.find(':'));
  if (name == "DIR") return "dir";
  if (name == "FILE") return "file";
  if (name == "TOML") return "toml";
  if (name == "PLUGIN") return "plugin";
  return "";
}

// What one command offers: `path` is "" for cudalab itself, "assignment init" for a nested one.
struct command_spec {
  std::string path;
  std::vector<std::string> subcommands;
  std::vector<std::string> options;
  std::vector<std::string> values;  // "--opt=kind": options whose value is the next word (or after '='); kind "": none
  std::vector<std::string> flag_values;  // "--opt=kind": flags that take a value only after '='
  std::string positional;                // the kind of the positional arguments' values
};

void collect(const CLI::App* app, const std::string& path, std::vector<command_spec>& specs) {
  command_spec spec;
  spec.path = path;
  for (const CLI::Option* o : app->get_options()) {
    if (o->get_group().empty()) continue;  // hidden from --help: not for people
    if (!o->nonpositional()) {
      if (spec.positional.empty()) spec.positional = value_kind(o);
      continue;
    }
    std::vector<std::string> names;
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
    // A value after a space or '=' (expected at least once), or a flag that takes one only after '='
    // (--isolate=variant; CLI11 does not expect it).
    const std::string kind = value_kind(o);
    const bool value_word = o->get_type_size() != 0 && o->get_expected_min() > 0;
    for (const std::string& n : names) {
      spec.options.push_back(n);
      if (value_word)
        spec.values.push_back(n + "=" + kind);
      else if (!kind.empty())
        spec.flag_values.push_back(n + "=" + kind);
    }
  }
  std::vector<const CLI::App*> subs;
  for (const CLI::App* sub : app->get_subcommands({}))
    if (!sub->get_name().empty() && !sub->get_group().empty()) subs.push_back(sub);
  for (const CLI::App* sub : subs) spec.subcommands.push_back(sub->get_name());
  specs.push_back(spec);
  for (const CLI::App* sub : subs) collect(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), specs);
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

// The script's fixed part: finding the command, completing a value of a kind.
const char* const script_body = R"BASH(
# _cudalab_kind OPTION ENTRIES: the kind of OPTION's value among ENTRIES ("--opt=kind ..."); 1 if none.
_cudalab_kind() {
  local entry
  for entry in $2; do
    [[ ${entry%%=*} == "$1" ]] && { printf '%s\n' "${entry#*=}"; return 0; }
  done
  return 1
}

# _cudalab_plugins EXECUTABLE: the plugins on the search path, as cudalab looks for them: each
# --plugin-path given, then $CUDALAB_PLUGIN_PATH, then lib/cudalab/plugins beside the executable.
_cudalab_plugins() {
  local exe dir file
  local -a dirs=("${_cudalab_plugin_paths[@]}") more=()
  IFS=: read -ra more <<<"${CUDALAB_PLUGIN_PATH:-}"
  dirs+=("${more[@]}")
  exe=$(type -P "$1" 2>/dev/null) && exe=$(readlink -f "$exe") && dirs+=("${exe%/*}/../lib/cudalab/plugins")
  for dir in "${dirs[@]}"; do
    for file in "$dir"/cudalab_*.so; do
      [[ -e $file ]] || continue
      file=${file##*/cudalab_}
      printf '%s\n' "${file%.so}"
    done
  done
}

# _cudalab_values KIND WORD: the values of KIND that start with WORD, into COMPREPLY.
_cudalab_values() {
  local IFS=$'\n'
  case $1 in
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    toml) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -X '!*.toml' -- "$2") $(compgen -d -- "$2")) ;;
    plugin)
      if [[ $2 == */* ]]; then
        compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2"))
      else
        # File names are data: compgen -W would expand a '$(...)' in one, so they are matched as words.
        local name
        COMPREPLY=()
        while IFS= read -r name; do
          [[ $name == "$2"* ]] && COMPREPLY+=("$name")
        done < <(_cudalab_plugins "${COMP_WORDS[0]}")
      fi ;;
    words:*) local list=${1#words:}; COMPREPLY=($(compgen -W "${list//,/$'\n'}" -- "$2")) ;;
    *) COMPREPLY=() ;;
  esac
}

_cudalab() {
  # bash splits "--format=json" at '=': put such words back together.
  local -a words=()
  local i cword=0
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    if ((i > 0 && ${#words[@]} > 0)) && [[ ${COMP_WORDS[i]} == "=" || ${COMP_WORDS[i - 1]} == "=" ]]; then
      words[${#words[@]} - 1]+=${COMP_WORDS[i]}
    else
      words+=("${COMP_WORDS[i]}")
    fi
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
  done
  local cur=${words[cword]} path="" subcommands options values flag_values positional skip="" w
  local -a _cudalab_plugin_paths=()
  _cudalab_command ""
  # The command so far: its subcommands, and the options whose value is the next word.
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ -n $skip ]]; then
      [[ $skip == --plugin-path ]] && _cudalab_plugin_paths+=("$w")
      skip=""
      continue
    fi
    if [[ $w == -* ]]; then
      [[ $w == --plugin-path=* ]] && _cudalab_plugin_paths+=("${w#*=}")
      [[ $w != *=* ]] && _cudalab_kind "$w" "$values" >/dev/null && skip=$w
      continue
    fi
    if [[ " $subcommands " == *" $w "* ]]; then
      path=${path:+$path }$w
      _cudalab_command "$path"
    fi
  done
  local kind
  if [[ -n $skip ]]; then  # the value of the option before
    kind=$(_cudalab_kind "$skip" "$values") && _cudalab_values "$kind" "$cur"
  elif [[ $cur == -*=* ]]; then  # --option=value
    kind=$(_cudalab_kind "${cur%%=*}" "$values $flag_values") || return 0
    _cudalab_values "$kind" "${cur#*=}"
    # bash completes only what follows the '=', unless '=' is not among its word breaks.
    if [[ ${COMP_WORDS[COMP_CWORD]} == -*=* ]]; then
      for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${cur%%=*}=${COMPREPLY[i]}; done
    fi
  elif [[ $cur == -* ]]; then
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "${options// /$'\n'}" -- "$cur"))
  elif [[ -n $subcommands ]]; then
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "${subcommands// /$'\n'}" -- "$cur"))
  else
    _cudalab_values "$positional" "$cur"
  fi
  return 0
}

complete -F _cudalab cudalab
)BASH";

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::vector<command_spec> specs;
  collect(&app, "", specs);
  std::ostringstream out;
  out << "# bash completion for cudalab, written by `cudalab completion bash` from cudalab's own commands and\n"
         "# options. Load it with `source <(cudalab completion bash)`, or install it as\n"
         "# share/bash-completion/completions/cudalab (cmake --install does).\n\n"
         "# _cudalab_command PATH: what the command PATH (\"\" for cudalab itself, \"assignment init\") offers:\n"
         "# subcommands, options, values and flag_values (\"--opt=kind\": a value after a space or '=', or\n"
         "# only after '='), and the kind of its positional arguments.\n"
         "_cudalab_command() {\n"
         "  case $1 in\n";
  for (const command_spec& s : specs)
    out << "    \"" << s.path << "\")\n"
        << "      subcommands=\"" << joined(s.subcommands) << "\"\n"
        << "      options=\"" << joined(s.options) << "\"\n"
        << "      values=\"" << joined(s.values) << "\"\n"
        << "      flag_values=\"" << joined(s.flag_values) << "\"\n"
        << "      positional=\"" << s.positional << "\" ;;\n";
  out << "    *) subcommands=\"\" options=\"\" values=\"\" flag_values=\"\" positional=\"\" ;;\n"
         "  esac\n"
         "}\n"
      << script_body;
  return out.str();
}

command add_completion(CLI::App& app) {
  auto* cmd = app.add_subcommand("completion",
                                 "Print a shell completion script (commands, options, lab files, plugin names): "
                                 "source <(cudalab completion bash)");
  auto shell = std::make_shared<std::string>();
  cmd->add_option("shell", *shell, "The shell")->required()->check(CLI::IsMember({"bash"}));
  // Run after every command is registered: the script is made from the whole app as it stands then.
  return {cmd, [&app, shell] {
            fmt::print("{}", bash_completion(app));
            return 0;
          }};
}

}  // namespace cudalab::cli
