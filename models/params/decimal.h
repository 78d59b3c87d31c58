// Decimal: an exact decimal number, (-1)^negative * mant * 10^exp, for the
// values of the configuration: a seed or a count above 2^53, a clock of
// 322.0001 MHz or a loss of 0.001 stays what was written, from the config
// file or --set to the resolved config.json, a sweep point's id and the
// model (converted to double only where a model computes with it).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace ubsim {

class Decimal {
 public:
  Decimal() = default;
  static Decimal of(uint64_t v) { Decimal d; d.mant_ = v; return d; }
  // Parses the longest number at the start of text: [+-]digits[.digits][e[+-]digits]
  // (or .digits). Returns the number and sets `rest` to what follows; nullopt
  // if text does not start with a number or it has more than 36 digits or an
  // exponent beyond +-60.
  static std::optional<Decimal> parse_prefix(const std::string& text, std::string& rest);
  // Shortest text of a double that reads back as the same double ("0.1").
  static Decimal of_double(double v);

  // this * other; nullopt on overflow.
  std::optional<Decimal> times(const Decimal& other) const;
  std::optional<Decimal> plus(const Decimal& other) const;
  bool negative() const { return negative_ && mant_ != 0; }
  bool is_integer() const;
  bool fits_u64() const;
  uint64_t to_u64() const;        // requires fits_u64()
  double to_double() const;       // correctly rounded
  long double to_long_double() const;
  int compare(const Decimal& other) const;   // -1, 0, 1
  // Exact decimal text of this / 10^shift ("322.0001" for 322000100 with shift 6).
  std::string text(int shift = 0) const;

 private:
  void normalize();
  bool negative_ = false;
  unsigned __int128 mant_ = 0;
  int exp_ = 0;
};

}  // namespace ubsim
