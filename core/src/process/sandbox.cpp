// The sandbox of a child that runs untrusted code (sandbox.hpp).
#include "process/sandbox.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "process/child_process.hpp"

extern char** environ;

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

// nobody's ids, as this machine has them (65534 where it has no passwd entry).
struct outside_user {
  unsigned uid = 65534, gid = 65534;
};

outside_user nobody() {
  outside_user u;
  if (const passwd* pw = ::getpwnam("nobody")) {
    u.uid = pw->pw_uid;
    u.gid = pw->pw_gid;
  }
  return u;
}

bool running_as_root() { return ::geteuid() == 0; }

// The system's own: programs, libraries, the compilers' and the loader's files. On a merged-/usr system
// /bin, /lib, /lib64 and /sbin are links into /usr, and the sandbox gets the same links.
void add_system(std::vector<std::string>& args) {
  args.insert(args.end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(top, ec);
    if (ec || !fs::exists(st)) continue;
    if (fs::is_symlink(st))
      args.insert(args.end(), {"--symlink", fs::read_symlink(top, ec).string(), top});
    else
      args.insert(args.end(), {"--ro-bind", top, top});
  }
  // Of /etc, only what the dynamic loader, the C library and the compilers read: not its secrets
  // (shadow, keys), not the machine's configuration.
  for (const char* file : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/passwd", "/etc/group",
                           "/etc/nsswitch.conf", "/etc/localtime", "/etc/alternatives"}) {
    std::error_code ec;
    if (fs::exists(file, ec)) args.insert(args.end(), {"--ro-bind", file, file});
  }
}

// The GPU's devices (nvidia0..N, nvidiactl, nvidia-uvm, nvidia-caps/...), as they are on this machine,
// and /sys, where the driver looks the GPUs up.
void add_gpu(std::vector<std::string>& args) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/dev", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("nvidia", 0) == 0)
      args.insert(args.end(), {"--dev-bind", entry.path().string(), entry.path().string()});
  }
  args.insert(args.end(), {"--ro-bind", "/sys", "/sys"});
}

// Whether the variable `name` of this process's environment goes into a sandbox: what a CUDA program, a
// compiler and cudalab's own settings read; nothing else (a token, a password, a key).
bool passed_into_sandbox(const std::string& name) {
  for (const char* exact : {"PATH", "LD_LIBRARY_PATH", "LANG", "LANGUAGE", "TZ"})
    if (name == exact) return true;
  for (const char* prefix : {"LC_", "CUDA_", "NVIDIA_", "CUDALAB_", "FAKECUDA_", "FAKECUPTI_", "FAKENVML_", "FAKENCU_"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

// The environment inside: the passed variables of this process's, then `extra` over them.
void add_environment(std::vector<std::string>& args, const std::vector<std::pair<std::string, std::string>>& extra) {
  args.push_back("--clearenv");
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos || !passed_into_sandbox(entry.substr(0, eq))) continue;
    if (std::any_of(extra.begin(), extra.end(), [&](const auto& x) { return x.first == entry.substr(0, eq); }))
      continue;
    args.insert(args.end(), {"--setenv", entry.substr(0, eq), entry.substr(eq + 1)});
  }
  for (const auto& [name, value] : extra) args.insert(args.end(), {"--setenv", name, value});
  // Its home is its /tmp: the CUDA driver's caches and the compilers' temporary files go there.
  args.insert(args.end(), {"--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"});
}

// Where a path is bound in a sandbox: its real path (links resolved), or as given when it does not exist.
std::string real_path(const std::string& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  return ec ? path : real.string();
}

// bwrap's arguments up to and including "--", for `sandbox`, its private folder at descriptor `folder_fd`
// (-1: none), `extra` in its environment.
std::vector<std::string> bwrap_args(const std::string& bwrap, const child_sandbox& sandbox, int folder_fd,
                                    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> out = {bwrap, "--unshare-all", "--die-with-parent", "--new-session"};
  // A user of its own inside: nobody, with no capabilities.
  out.insert(out.end(), {"--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"});
  add_system(out);
  out.insert(out.end(), {"--proc", "/proc", "--dev", "/dev", "--perms", "01777", "--tmpfs", "/dev/shm", "--perms",
                         "01777", "--tmpfs", "/tmp"});
  if (sandbox.gpu) add_gpu(out);
  // Each at its real path: bwrap cannot make a mount point through a link (/usr/local/cuda/bin, where
  // /usr/local/cuda links elsewhere: "Can't mkdir", seen on the H100 machine), and the link itself, under
  // /usr, still leads there inside.
  const auto bind_readable = [&out](const std::string& given) {
    const std::string r = real_path(given);
    out.insert(out.end(), {"--ro-bind", r, r});
  };
  for (const std::string& r : sandbox.readable) bind_readable(r);
  for (const std::string& r : library_folders()) bind_readable(r);
  for (const std::string& given : sandbox.hidden) {
    const std::string h = real_path(given);  // where it is bound, like what holds it
    std::error_code ec;
    if (fs::is_directory(h, ec))
      out.insert(out.end(), {"--tmpfs", h, "--remount-ro", h});
    else if (fs::exists(h, ec))
      out.insert(out.end(), {"--ro-bind", "/dev/null", h});
  }
  if (folder_fd >= 0) out.insert(out.end(), {"--bind-fd", std::to_string(folder_fd), sandbox.private_folder});
  add_environment(out, extra);
  out.insert(out.end(), {"--chdir", sandbox.private_folder.empty() ? "/tmp" : sandbox.private_folder});
  out.push_back("--");
  return out;
}

// The prefix that drops root to nobody before bwrap: setpriv, then bwrap itself.
std::vector<std::string> drop_to_nobody() {
  const outside_user u = nobody();
  return {setpriv_program(), "--reuid=" + std::to_string(u.uid), "--regid=" + std::to_string(u.gid), "--clear-groups",
          "--"};
}

}  // namespace

std::vector<std::string> library_folders() {
  std::vector<std::string> out;
  const char* path = std::getenv("LD_LIBRARY_PATH");
  if (!path) return out;
  std::string text = path;
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t colon = std::min(text.find(':', from), text.size());
    const std::string dir = text.substr(from, colon - from);
    std::error_code ec;
    if (!dir.empty() && dir.front() == '/' && fs::is_directory(dir, ec)) out.push_back(dir);
    from = colon + 1;
  }
  return out;
}

std::string setpriv_program() {
  for (const char* path : {"/usr/bin/setpriv", "/bin/setpriv"})
    if (::access(path, X_OK) == 0) return path;
  return "";
}

const sandbox_support& sandbox_support_of(const std::string& bwrap) {
  static std::mutex lock;
  static std::map<std::string, sandbox_support> probed;
  std::lock_guard<std::mutex> g(lock);
  const auto known = probed.find(bwrap);
  if (known != probed.end()) return known->second;
  sandbox_support s;
  std::vector<std::string> candidates{"/usr/bin/bwrap", "/bin/bwrap"};
  if (const char* given = std::getenv("CUDALAB_BWRAP"); given && *given) candidates.insert(candidates.begin(), given);
  if (!bwrap.empty()) candidates = {bwrap};
  for (const std::string& candidate : candidates)
    if (::access(candidate.c_str(), X_OK) == 0) {
      s.program = candidate;
      break;
    }
  s.drops_to_nobody = running_as_root();
  if (s.program.empty()) {
    s.why = bwrap.empty() ? std::string("bubblewrap (bwrap) is not installed (cmake/install-deps.sh installs it)")
                          : bwrap + " is not an executable";
  } else if (s.drops_to_nobody && setpriv_program().empty()) {
    s.why =
        "this process is root and util-linux's setpriv, which the sandbox is entered through as nobody, "
        "is not installed";
  } else {
    // Namespaces may be refused (unprivileged user namespaces off, a container without them): try the
    // same sandbox a child gets, a private folder written to and all.
    char dir_template[] = "/tmp/cudalab-sandbox-probe-XXXXXX";
    const char* dir = ::mkdtemp(dir_template);
    std::string said;
    child_outcome how;
    try {
      if (!dir) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
      make_sandbox_folder(dir);
      child_sandbox sandbox;
      sandbox.private_folder = dir;
      s.usable = true;  // as far as sandboxed_command needs to know
      child_request probe;
      const sandbox_launch launch = sandboxed_command(
          s, sandbox, {"/bin/sh", "-c", "echo probe > ./written && cat ./written"}, probe.result_fd + 1);
      probe.argv = launch.argv;
      probe.pass_fds = launch.pass_fds;
      probe.timeout_s = 20;
      probe.on_output_line = [&](const std::string& line) { said += (said.empty() ? "" : " | ") + line; };
      how = run_child(probe);
      for (const int fd : launch.pass_fds) ::close(fd);
    } catch (const std::runtime_error& e) {
      how.start_error = e.what();
    }
    s.usable = how.ended_normally() && how.exit_code == 0 && said == "probe";
    if (!s.usable)
      s.why = s.program + " cannot make a sandbox here (" + how.describe() + (said.empty() ? "" : ": " + said) + ")";
    std::error_code ec;
    if (dir) fs::remove_all(dir, ec);
  }
  return probed.emplace(bwrap, s).first->second;
}

void make_sandbox_folder(const std::string& folder) {
  std::error_code ec;
  fs::remove_all(folder, ec);
  fs::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot make " + folder + ": " + ec.message());
  if (::chmod(folder.c_str(), 0700) != 0)
    throw std::runtime_error("cannot set the mode of " + folder + ": " + std::strerror(errno));
  if (running_as_root()) {
    const outside_user u = nobody();
    if (::chown(folder.c_str(), u.uid, u.gid) != 0)
      throw std::runtime_error("cannot give " + folder + " to nobody: " + std::strerror(errno));
  }
}

namespace {

// Gives `path`, just made in a private folder, to the sandbox's user when this process is root.
void give_to_sandbox_user(const fs::path& path) {
  if (!running_as_root()) return;
  const outside_user u = nobody();
  if (::chown(path.c_str(), u.uid, u.gid) != 0)
    throw std::runtime_error("cannot give " + path.string() + " to nobody: " + std::strerror(errno));
}

}  // namespace

namespace {

// This process's staging folder: made on first use, removed at exit.
class staging_folder {
 public:
  const std::string& path() {
    std::lock_guard<std::mutex> g(lock_);
    if (!path_.empty()) return path_;
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/cudalab-sandboxes-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("cannot make a folder for sandboxes: " + std::string(std::strerror(errno)));
    // Its user (nobody, when this process is root) passes through to its own folders; no one lists it.
    if (::chmod(pattern.c_str(), running_as_root() ? 0711 : 0700) != 0)
      throw std::runtime_error("cannot set the mode of " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
    return path_;
  }
  ~staging_folder() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }

 private:
  std::mutex lock_;
  std::string path_;
};

staging_folder& staging() {
  static staging_folder s;
  return s;
}

}  // namespace

std::string new_sandbox_folder(const std::string& purpose) {
  std::string pattern = staging().path() + "/" + purpose + "-XXXXXX";
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("cannot make a folder for a sandbox: " + std::string(std::strerror(errno)));
  make_sandbox_folder(pattern);
  return pattern;
}

std::string copy_into_sandbox_folder(const std::string& file, const std::string& folder, const std::string& name) {
  const fs::path to = fs::path(folder) / name;
  std::error_code ec;
  fs::copy_file(file, to, fs::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error("cannot copy " + file + " into " + folder + ": " + ec.message());
  give_to_sandbox_user(to);
  return to.string();
}

std::string write_into_sandbox_folder(const std::string& text, const std::string& folder, const std::string& name) {
  const fs::path to = fs::path(folder) / name;
  const int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + to.string() + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += std::size_t(n);
  }
  const bool closed = ::close(fd) == 0;
  if (done != text.size() || !closed)
    throw std::runtime_error("cannot write " + to.string() + ": " + std::strerror(errno));
  give_to_sandbox_user(to);
  return to.string();
}

sandbox_launch sandboxed_command(const sandbox_support& support, const child_sandbox& sandbox,
                                 const std::vector<std::string>& argv, int first_fd,
                                 const std::vector<std::pair<std::string, std::string>>& environment) {
  sandbox_launch launch;
  int folder_fd = -1;
  if (!sandbox.private_folder.empty()) {
    const int fd = ::open(sandbox.private_folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      throw std::runtime_error("cannot open the sandbox's folder " + sandbox.private_folder + ": " +
                               std::strerror(errno));
    launch.pass_fds.push_back(fd);
    folder_fd = first_fd;
  }
  if (support.drops_to_nobody) launch.argv = drop_to_nobody();
  const std::vector<std::string> wrap = bwrap_args(support.program, sandbox, folder_fd, environment);
  launch.argv.insert(launch.argv.end(), wrap.begin(), wrap.end());
  launch.argv.insert(launch.argv.end(), argv.begin(), argv.end());
  return launch;
}

}  // namespace cudalab::host
