#include "timeline.h"

#include "safe_file.h"

namespace ubsim {

// The run's trace from its paths' parts, written whole or not at all.
void assemble_timeline(const std::string& path, const std::vector<std::string>& parts) {
  std::string out = "{\"traceEvents\": [\n";
  bool first = true;
  for (const auto& part : parts) {
    std::ifstream in(part);
    if (!in) throw std::runtime_error("option --timeline: the part " + part + " was not written");
    for (std::string ev; std::getline(in, ev);) {
      out += (first ? "" : ",\n") + ev;
      first = false;
    }
  }
  out += "\n], \"displayTimeUnit\": \"ns\"}\n";
  safe_file::write_whole(path, out, "option --timeline");
}

}  // namespace ubsim
