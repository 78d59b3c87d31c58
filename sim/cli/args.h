// Command-line parsing shared by the subcommands.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace ubsim {

class CliError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A simple option cursor: "--name value" or "--name=value".
class Args {
 public:
  explicit Args(std::vector<std::string> a) : a_(std::move(a)) {}
  bool done() const { return i_ >= a_.size(); }
  const std::string& peek() const { return a_[i_]; }
  // True if the next argument is option `name`; takes its value.
  bool option(const std::string& name, std::string& value) {
    const std::string& cur = a_[i_];
    if (cur == name) {
      if (i_ + 1 >= a_.size()) throw CliError("option " + name + " needs a value");
      value = a_[i_ + 1];
      i_ += 2;
      return true;
    }
    if (cur.rfind(name + "=", 0) == 0) {
      value = cur.substr(name.size() + 1);
      ++i_;
      return true;
    }
    return false;
  }
  bool flag(const std::string& name) {
    if (a_[i_] == name) { ++i_; return true; }
    return false;
  }
  // Takes the next argument as a positional value.
  void positional(std::string& value) { value = a_[i_++]; }

 private:
  std::vector<std::string> a_;
  size_t i_ = 0;
};

uint64_t parse_count(const std::string& option, const std::string& text, uint64_t min, uint64_t max);

}  // namespace ubsim
