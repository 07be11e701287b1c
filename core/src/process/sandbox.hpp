// A sandbox for a child that runs untrusted code (a student's build, test or sanitizer run): bubblewrap
// (`bwrap`) with its own user, process-id, mount, IPC, UTS and network namespaces, a new session, and a
// filesystem that holds nothing but what is asked for: the system's programs and libraries (/usr and
// the /bin, /lib, /lib64, /sbin beside it, the few files of /etc the loader and the compilers read),
// the paths given read-only, one private folder of its own, a fresh /proc, an empty /tmp, a fresh /dev
// (with the NVIDIA devices when asked, and /sys then) and a /dev/shm of its own. Nothing else of the
// machine is there: not the grader's home, not the staff secret, not other students' work, not the
// grades. Where the grader runs as root, the sandbox is entered as `nobody` (util-linux's setpriv drops
// the privileges first), so that even what it sees it reads as no one in particular; its private
// folder is given to that user. The private folder is handed to bwrap as an open descriptor, so the
// folders above it stay closed to everyone (0700). Everything in the sandbox dies with it: it is the
// first process of its own process-id namespace, started with --die-with-parent.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cudalab::host {

/// What a sandboxed child may see.
struct child_sandbox {
  /// Bound read-only (files or folders), besides the system's own. Each must be
  /// readable by the sandbox's user: the toolkit, cudalab's own programs and plugins; each is bound at its
  /// real path (links resolved), which a link outside, such as /usr/local/cuda, leads to inside as well.
  std::vector<std::string> readable;
  /// The child's own folder (made with make_sandbox_folder), bound read-write at the same path; "": none.
  std::string private_folder;
  /// Hidden inside what is readable (a folder shows empty, a file cannot be opened): the headers an
  /// assignment denies, say, where the toolkit is readable whole.
  std::vector<std::string> hidden;
  bool gpu = false;   ///< the NVIDIA device nodes, and /sys, bound in
  std::string bwrap;  ///< the bwrap to use ("": $CUDALAB_BWRAP, else /usr/bin/bwrap or /bin/bwrap)
};

/// The folders on LD_LIBRARY_PATH that are there (absolute ones), in its order: the libraries this process's
/// children are told to load.
std::vector<std::string> library_folders();

/// util-linux's setpriv ("": the machine has none), which drops root to nobody before bwrap runs, and
/// has an unsandboxed child die with its parent (--pdeathsig).
std::string setpriv_program();

/// Whether a sandbox can be made on this machine with `bwrap` ("": the default one): found, and able to
/// make its namespaces as the user it runs as (probed once per program and process). `why`: what is
/// missing when it cannot.
struct sandbox_support {
  bool usable = false;
  std::string program;           ///< the bwrap found
  bool drops_to_nobody = false;  ///< this process is root: the sandbox is entered as nobody (setpriv)
  std::string why;
};
const sandbox_support& sandbox_support_of(const std::string& bwrap = "");

/// Makes `folder` a sandbox's private folder: created (with its parents) or emptied, mode 0700, and,
/// when this process is root, owned by the sandbox's user (nobody). Throws std::runtime_error.
void make_sandbox_folder(const std::string& folder);

/// A new, empty private folder for a sandbox (made as make_sandbox_folder makes one), named for
/// `purpose`, in this process's staging folder: a folder of $TMPDIR (else /tmp) that this process
/// made, that the sandbox's user may pass through but not list, and that is removed when this process
/// exits normally. Where a sandbox reads or writes must be reachable by its user; a grader's output
/// folder (0700) is not. Throws std::runtime_error.
std::string new_sandbox_folder(const std::string& purpose);

/// Copies `file` into the private folder `folder` as `name`, readable by the sandbox's user; returns
/// its path. Throws std::runtime_error.
std::string copy_into_sandbox_folder(const std::string& file, const std::string& folder, const std::string& name);

/// Writes `text` into the private folder `folder` as `name`, readable by the sandbox's user; returns its
/// path. Throws std::runtime_error.
std::string write_into_sandbox_folder(const std::string& text, const std::string& folder, const std::string& name);

/// How to start a sandboxed child: its command, and the descriptors of this process it must be given
/// (each at `first_fd` + its index: bwrap binds the private folder from one).
struct sandbox_launch {
  std::vector<std::string> argv;  ///< [setpriv ... --] bwrap ... -- the program and its arguments
  std::vector<int> pass_fds;      ///< this process's descriptors, open (the caller closes them after the spawn)
};

/// The launch of `argv` (argv[0] the program's path) in `sandbox`, with `support` usable; the child's
/// descriptors from `first_fd` on carry pass_fds. Its environment is not this process's: only what a
/// CUDA program and a compiler need of it (PATH, LD_LIBRARY_PATH, the locale, CUDA_*, NVIDIA_*,
/// CUDALAB_* and the test doubles' FAKE*), HOME and TMPDIR its /tmp, and `environment` over that - never
/// a token or a password the grader's shell holds. The folders on LD_LIBRARY_PATH are readable in it.
/// Throws std::runtime_error when the private folder cannot be opened.
sandbox_launch sandboxed_command(const sandbox_support& support, const child_sandbox& sandbox,
                                 const std::vector<std::string>& argv, int first_fd,
                                 const std::vector<std::pair<std::string, std::string>>& environment = {});

}  // namespace cudalab::host
