// Progress lines of the CLI's long-running commands: on stderr (one line rewritten in place) or,
// with --json, as JSON lines on stdout; at most one every half second.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>

#include "attn/data/review_loaders.hpp"
#include "attn/io/flat_json.hpp"

namespace attn::cli {

// Prints progress (stderr, or JSON lines on stdout) at most every half second.
class ProgressPrinter {
 public:
  ProgressPrinter(bool json, std::ostream& out, std::ostream& err) : json_(json), out_(out), err_(err) {}
  void loading(const LoadProgress& p) {
    if (!due()) return;
    if (json_) {
      out_ << FlatJson()
                  .set("event", "loading")
                  .set("examples", static_cast<double>(p.examples))
                  .set("bytes_read", static_cast<double>(p.bytes_read))
                  .dump()
           << "\n"
           << std::flush;
    } else {
      err_ << "\rloading: " << p.examples << " reviews" << std::flush;
      line_open_ = true;
    }
  }
  // epoch is 0-based; shown 1-based.
  void step(std::size_t step, std::size_t epoch, float loss, double examples_per_second, double elapsed,
            std::size_t epochs) {
    if (!due()) return;
    if (json_) {
      out_ << FlatJson()
                  .set("event", "progress")
                  .set("step", static_cast<double>(step))
                  .set("epoch", static_cast<double>(epoch + 1))
                  .set("loss", static_cast<double>(loss))
                  .set("examples_per_s", examples_per_second)
                  .set("elapsed_s", elapsed)
                  .dump()
           << "\n"
           << std::flush;
    } else {
      err_ << "\repoch " << epoch + 1 << "/" << epochs << " step " << step << ": loss " << loss << ", "
           << static_cast<long>(examples_per_second) << " examples/s   " << std::flush;
      line_open_ = true;
    }
  }
  // Ends a progress line left open on stderr (nothing when none was printed).
  void end_line() {
    if (line_open_) err_ << "\n";
    line_open_ = false;
  }

 private:
  bool due() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(500)) return false;
    last_ = now;
    return true;
  }
  bool json_;
  std::ostream& out_;
  std::ostream& err_;
  std::chrono::steady_clock::time_point last_{};
  bool line_open_ = false;
};

}  // namespace attn::cli
