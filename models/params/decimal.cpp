#include "decimal.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace ubsim {

namespace {
constexpr int kMaxDigits = 36;   // significant digits kept exactly (< 2^128)
constexpr int kMaxExp = 60;
const unsigned __int128 kTen = 10;

std::string digits(unsigned __int128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}
}  // namespace

void Decimal::normalize() {
  if (mant_ == 0) {
    exp_ = 0;
    negative_ = false;
    return;
  }
  while (mant_ % 10 == 0) {
    mant_ /= 10;
    ++exp_;
  }
}

std::optional<Decimal> Decimal::parse_prefix(const std::string& text, std::string& rest) {
  size_t i = 0;
  Decimal d;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) d.negative_ = text[i++] == '-';
  int ndigits = 0, frac = 0;
  bool any = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    any = true;
    if (d.mant_ == 0 && c == '0') {   // leading zeros carry no digit
      if (point) ++frac;
      continue;
    }
    if (++ndigits > kMaxDigits) return std::nullopt;
    d.mant_ = d.mant_ * kTen + static_cast<unsigned>(c - '0');
    if (point) ++frac;
  }
  if (!any) return std::nullopt;
  int e = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    bool eneg = false;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) eneg = text[j++] == '-';
    if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
        e = e * 10 + (text[j] - '0');
        if (e > 10 * kMaxExp) return std::nullopt;
        ++j;
      }
      if (eneg) e = -e;
      i = j;
    }
  }
  d.exp_ = e - frac;
  d.normalize();
  if (d.mant_ != 0 && (d.exp_ > kMaxExp || d.exp_ < -kMaxExp)) return std::nullopt;
  rest = text.substr(i);
  return d;
}

Decimal Decimal::of_double(double v) {
  std::string rest;
  return *parse_prefix(fmt::format("{}", v), rest);
}

std::optional<Decimal> Decimal::times(const Decimal& o) const {
  Decimal r;
  if (mant_ == 0 || o.mant_ == 0) return r;
  const unsigned __int128 limit = ~static_cast<unsigned __int128>(0);
  if (mant_ > limit / o.mant_) return std::nullopt;
  r.mant_ = mant_ * o.mant_;
  r.exp_ = exp_ + o.exp_;
  r.negative_ = negative_ != o.negative_;
  r.normalize();
  if (r.exp_ > kMaxExp || r.exp_ < -kMaxExp || digits(r.mant_).size() > static_cast<size_t>(kMaxDigits))
    return std::nullopt;
  return r;
}

std::optional<Decimal> Decimal::plus(const Decimal& o) const {
  // align to the smaller exponent
  Decimal a = *this, b = o;
  if (a.mant_ == 0) return b;
  if (b.mant_ == 0) return a;
  const int e = std::min(a.exp_, b.exp_);
  for (Decimal* x : {&a, &b})
    while (x->exp_ > e) {
      if (x->mant_ > (~static_cast<unsigned __int128>(0)) / 10) return std::nullopt;
      x->mant_ *= 10;
      --x->exp_;
    }
  Decimal r;
  r.exp_ = e;
  if (a.negative_ == b.negative_) {
    r.mant_ = a.mant_ + b.mant_;
    if (r.mant_ < a.mant_) return std::nullopt;
    r.negative_ = a.negative_;
  } else if (a.mant_ >= b.mant_) {
    r.mant_ = a.mant_ - b.mant_;
    r.negative_ = a.negative_;
  } else {
    r.mant_ = b.mant_ - a.mant_;
    r.negative_ = b.negative_;
  }
  r.normalize();
  if (digits(r.mant_).size() > static_cast<size_t>(kMaxDigits)) return std::nullopt;
  return r;
}

bool Decimal::is_integer() const { return mant_ == 0 || exp_ >= 0; }

bool Decimal::fits_u64() const {
  if (negative() || !is_integer()) return false;
  unsigned __int128 v = mant_;
  for (int i = 0; i < exp_; ++i) {
    if (v > UINT64_MAX) return false;
    v *= 10;
  }
  return v <= UINT64_MAX;
}

uint64_t Decimal::to_u64() const {
  unsigned __int128 v = mant_;
  for (int i = 0; i < exp_; ++i) v *= 10;
  return static_cast<uint64_t>(v);
}

double Decimal::to_double() const {
  return std::strtod((std::string(negative() ? "-" : "") + digits(mant_) + "e" + std::to_string(exp_)).c_str(), nullptr);
}

long double Decimal::to_long_double() const {
  return std::strtold((std::string(negative() ? "-" : "") + digits(mant_) + "e" + std::to_string(exp_)).c_str(), nullptr);
}

int Decimal::compare(const Decimal& o) const {
  const Decimal neg_o = [&] { Decimal n = o; n.negative_ = !o.negative_; return n; }();
  const auto diff = plus(neg_o);
  if (!diff) {   // beyond exact arithmetic: the magnitudes differ widely
    const long double a = to_long_double(), b = o.to_long_double();
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (diff->mant_ == 0) return 0;
  return diff->negative_ ? -1 : 1;
}

std::string Decimal::text(int shift) const {
  if (mant_ == 0) return "0";
  std::string d = digits(mant_);
  const int e = exp_ - shift;   // value = d * 10^e
  std::string out;
  if (e >= 0) {
    out = d + std::string(static_cast<size_t>(e), '0');
  } else {
    const size_t point = static_cast<size_t>(-e);
    if (d.size() <= point) d.insert(0, point - d.size() + 1, '0');
    out = d.substr(0, d.size() - point) + "." + d.substr(d.size() - point);
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return (negative() ? "-" : "") + out;
}

}  // namespace ubsim
