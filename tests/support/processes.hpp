// Running other programs from a test: the CLI in-process (attn::cli::run, what the binary's main
// calls) and a check script as a child process (the Python comparisons with PyTorch and nltk).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"

namespace attn::test {

struct CliResult {
  int code;
  std::string out, err;
};

// `attn <args...>` with its exit code and both streams.
inline CliResult run_attn(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = attn::cli::run(args, out, err);
  return {code, out.str(), err.str()};
}

struct ProcessResult {
  int code;            // the exit code; -1 when the process was killed by a signal
  std::string output;  // standard output and standard error, interleaved
};

// Runs `command` through the shell, standard error merged into the output.
inline ProcessResult run_shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  ProcessResult r{0, ""};
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A check script that could not compare: exit code 77 (its "skipped": a package is missing) or
// 127 (the shell found no interpreter). Tests report it with MESSAGE and pass.
inline bool skipped(const ProcessResult& r) { return r.code == 77 || r.code == 127; }
inline std::string skip_reason(const ProcessResult& r, const std::string& interpreter) {
  return r.code == 127 ? interpreter + " not found" : r.output;
}

}  // namespace attn::test
