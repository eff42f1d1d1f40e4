#include "firmware/smartctl_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/unique_fd.h"

extern char** environ;

namespace ssdprobe {

namespace {

using Clock = std::chrono::steady_clock;

// The exit status of a spawned child whose exec failed, when the failure
// cannot be reported to posix_spawnp (e.g. under valgrind).
constexpr int kExecFailed = 127;

std::string not_found_note(const std::string& program) {
  return fmt::format("{} not installed (not found in PATH)", program);
}

// posix_spawn file actions that put the pipe's write end on stdout and
// /dev/null on stdin and stderr; destroyed with the object.
class SpawnActions {
 public:
  explicit SpawnActions(int stdout_fd) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions_, stdout_fd, STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions_, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_{};
};

// Reads `fd` until EOF; false at `deadline` or on a poll/read error (the
// caller then kills the child rather than wait for it).
bool read_until_eof(int fd, Clock::time_point deadline, std::string& output) {
  char chunk[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) return false;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    output.append(chunk, static_cast<size_t>(n));
  }
}

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Starts `program -j -a device` with stdout on `stdout_fd`; 0 or an errno.
int spawn(const std::string& program, const std::string& device, int stdout_fd, pid_t& pid) {
  std::vector<std::string> args = {program, "-j", "-a", device};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const SpawnActions actions(stdout_fd);
  return ::posix_spawnp(&pid, program.c_str(), actions.get(), nullptr, argv.data(), environ);
}

// Fills ran/exit_status/note from the wait status of a child that was not killed.
void interpret_exit(int status, const std::string& program, const std::string& device, SmartctlRun& run) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExecFailed && run.output.empty()) {
    run.note = not_found_note(program);  // where posix_spawnp cannot report a failed exec
    return;
  }
  run.ran = WIFEXITED(status);
  if (run.ran) run.exit_status = WEXITSTATUS(status);
  else run.note = fmt::format("{} -j -a {} ended by signal {}", program, device, WTERMSIG(status));
}

}  // namespace

SmartctlRun run_smartctl(const std::string& device, std::chrono::milliseconds timeout, const std::string& program) {
  SmartctlRun run;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    run.note = fmt::format("{} not run: pipe: {}", program, std::strerror(errno));
    return run;
  }
  UniqueFd read_end(fds[0]), write_end(fds[1]);
  pid_t pid = 0;
  const int rc = spawn(program, device, write_end.get(), pid);
  write_end.reset();
  if (rc != 0) {
    run.note = rc == ENOENT ? not_found_note(program)
                            : fmt::format("{} could not be started: {}", program, std::strerror(rc));
    return run;
  }
  const auto started = Clock::now();
  if (!read_until_eof(read_end.get(), started + timeout, run.output)) {
    ::kill(pid, SIGKILL);
    run.timed_out = true;
    run.note = fmt::format("{} -j -a {} killed after {} ms (timeout {} ms)", program, device,
                           std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count(),
                           timeout.count());
  }
  const int status = reap(pid);
  if (!run.timed_out) interpret_exit(status, program, device, run);
  return run;
}

}  // namespace ssdprobe
