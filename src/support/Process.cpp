// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/Process.h"

#include "rubick/support/Interrupt.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rubick {

bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string p = path;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    std::string dir = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::string file = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(file.c_str(), X_OK) == 0) return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

int runProcess(const std::vector<std::string>& argv, const std::string& cwd, const std::string& log,
               std::string* error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Each child leads its own process group, so an interruption reaches the tools it starts
  // too (make's compilers), through requestInterrupt.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    if (error) *error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return -1;
  }
  const int slot = registerChild(pid);
  // A signal that came between the spawn and the registration has not reached the child.
  if (int sig = interruptSignal()) ::kill(-pid, sig);
  int status = 0;
  pid_t got;
  while ((got = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR)
    if (int sig = interruptSignal(); sig && slot < 0) ::kill(-pid, sig);
  unregisterChild(slot);
  throwIfInterrupted();
  if (got < 0) {
    if (error) *error = "cannot wait for " + argv[0] + ": " + std::strerror(errno);
    return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (error) *error = argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status));
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string shellWord(const std::string& w) {
  const bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string("_./=,:+-").find(c) != std::string::npos;
  });
  if (plain) return w;
  std::string q = "'";
  for (char c : w)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace rubick
