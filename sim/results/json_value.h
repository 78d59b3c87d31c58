// JSON values: ubsim's result rows, and the reader of its own documents
// (child processes, sweep merging, compare). Objects keep their key order,
// numbers keep their text so a merged file repeats them byte for byte.
#pragma once
#include <cctype>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "json.h"

namespace ubsim::json {

struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  std::string text;                                    // number text, string value, "true"/"false"
  std::vector<Value> items;                            // array
  std::vector<std::pair<std::string, Value>> fields;   // object, in document order
  const Value* get(const std::string& key) const {
    for (const auto& [k, v] : fields)
      if (k == key) return &v;
    return nullptr;
  }
  // A field by dotted path ("latency_ns.mean"), or null.
  const Value* find(const std::string& path) const {
    const Value* v = this;
    size_t start = 0;
    while (v && start <= path.size()) {
      const size_t dot = path.find('.', start);
      v = v->get(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return v;
  }
  // Typed reads of a field by dotted path; a missing field is a logic error.
  double num(const std::string& path) const {
    const Value* v = find(path);
    if (!v || v->kind != Number) throw std::logic_error("result field '" + path + "' is not a number");
    return std::stod(v->text);
  }
  const std::string& str(const std::string& path) const {
    const Value* v = find(path);
    if (!v || v->kind != String) throw std::logic_error("result field '" + path + "' is not a string");
    return v->text;
  }
  bool flag(const std::string& path) const {
    const Value* v = find(path);
    if (!v || v->kind != Bool) throw std::logic_error("result field '" + path + "' is not a bool");
    return v->text == "true";
  }
  // Builds an object field by field: row.add("path", Value::string("ub-load")).
  // add() only when `cond` holds (a field some rows carry)
  Value& add_if(bool cond, std::string key, Value v) {
    if (cond) add(std::move(key), std::move(v));
    return *this;
  }
  Value& add(std::string key, Value v) {
    fields.emplace_back(std::move(key), std::move(v));
    return *this;
  }
  static Value number(double d);                 // full precision (shortest round-trip text)
  static Value number_text(std::string text) { Value v; v.kind = Number; v.text = std::move(text); return v; }
  static Value string(std::string s) { Value v; v.kind = String; v.text = std::move(s); return v; }
  static Value boolean(bool b) { Value v; v.kind = Bool; v.text = b ? "true" : "false"; return v; }
  static Value null() { return Value{}; }
  static Value object() { Value v; v.kind = Object; return v; }
  static Value array(std::vector<Value> items = {}) { Value v; v.kind = Array; v.items = std::move(items); return v; }
};

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  Value parse() {
    Value v = value();
    ws();
    if (i_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string("JSON: ") + what + " at offset " + std::to_string(i_));
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  std::string str() {
    if (!eat('"')) fail("string expected");
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\') {
        if (i_ >= s_.size()) fail("bad escape");
        const char e = s_[i_++];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': {
            if (i_ + 4 > s_.size()) fail("bad \\u escape");
            const unsigned cp = static_cast<unsigned>(std::stoul(s_.substr(i_, 4), nullptr, 16));
            i_ += 4;
            if (cp < 0x80) out += static_cast<char>(cp);
            else if (cp < 0x800) { out += static_cast<char>(0xc0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3f)); }
            else { out += static_cast<char>(0xe0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f)); out += static_cast<char>(0x80 | (cp & 0x3f)); }
            break;
          }
          default: out += e;
        }
      } else {
        out += c;
      }
    }
    if (!eat('"')) fail("unterminated string");
    return out;
  }
  Value value() {
    ws();
    if (i_ >= s_.size()) fail("value expected");
    Value v;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.kind = Value::Object;
      if (eat('}')) return v;
      do {
        std::string k = str();
        if (!eat(':')) fail("':' expected");
        v.fields.emplace_back(std::move(k), value());
      } while (eat(','));
      if (!eat('}')) fail("'}' expected");
    } else if (c == '[') {
      ++i_;
      v.kind = Value::Array;
      if (eat(']')) return v;
      do v.items.push_back(value());
      while (eat(','));
      if (!eat(']')) fail("']' expected");
    } else if (c == '"') {
      v.kind = Value::String;
      v.text = str();
    } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
      v.kind = Value::Bool;
      v.text = s_[i_] == 't' ? "true" : "false";
      i_ += v.text.size();
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
    } else {
      const size_t start = i_;
      while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                                s_[i_] == '+' || s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E'))
        ++i_;
      if (i_ == start) fail("unexpected character");
      v.kind = Value::Number;
      v.text = s_.substr(start, i_ - start);
    }
    return v;
  }
  const std::string& s_;
  size_t i_ = 0;
};

inline Value parse(const std::string& text) { return Reader(text).parse(); }

inline Value Value::number(double d) {
  if (!std::isfinite(d)) return null();
  return number_text(fmt::format("{}", d));
}

// A number as documents show it: integers as written, others with 6
// significant digits (json::num).
inline std::string display_number(const std::string& text) {
  bool integral = !text.empty();
  for (size_t i = 0; i < text.size(); ++i)
    integral = integral && (std::isdigit(static_cast<unsigned char>(text[i])) || (i == 0 && text[i] == '-'));
  return integral ? text : num(std::stod(text));
}

// Compact JSON text: {"k": v, ...}, [a, b]. `exact`: numbers as their full
// text (between processes); else as documents show them (display_number).
// (appended to one string: a document of many rows is written in one pass)
inline void write_to(std::string& out, const Value& v, bool exact) {
  switch (v.kind) {
    case Value::Null: out += "null"; return;
    case Value::Bool: out += v.text; return;
    case Value::Number: out += exact ? v.text : display_number(v.text); return;
    case Value::String: append_str(out, v.text); return;
    case Value::Array:
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ", ";
        write_to(out, v.items[i], exact);
      }
      out += ']';
      return;
    case Value::Object:
      out += '{';
      for (size_t i = 0; i < v.fields.size(); ++i) {
        if (i) out += ", ";
        append_str(out, v.fields[i].first);
        out += ": ";
        write_to(out, v.fields[i].second, exact);
      }
      out += '}';
      return;
  }
  out += "null";
}
inline std::string write(const Value& v, bool exact = false) {
  std::string out;
  write_to(out, v, exact);
  return out;
}

// One field or item per line, nested by two spaces; numbers as their text.
inline std::string pretty(const Value& v, int indent = 0) {
  const std::string pad(static_cast<size_t>(indent + 2), ' '), close(static_cast<size_t>(indent), ' ');
  auto quote = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      if (c == '\n') { out += "\\n"; continue; }
      out += c;
    }
    return out + "\"";
  };
  switch (v.kind) {
    case Value::Null: return "null";
    case Value::Bool: case Value::Number: return v.text;
    case Value::String: return quote(v.text);
    case Value::Array: {
      if (v.items.empty()) return "[]";
      std::string out = "[\n";
      for (size_t i = 0; i < v.items.size(); ++i)
        out += pad + pretty(v.items[i], indent + 2) + (i + 1 < v.items.size() ? ",\n" : "\n");
      return out + close + "]";
    }
    case Value::Object: {
      if (v.fields.empty()) return "{}";
      std::string out = "{\n";
      for (size_t i = 0; i < v.fields.size(); ++i)
        out += pad + quote(v.fields[i].first) + ": " + pretty(v.fields[i].second, indent + 2) +
               (i + 1 < v.fields.size() ? ",\n" : "\n");
      return out + close + "}";
    }
  }
  return "null";
}

}  // namespace ubsim::json
