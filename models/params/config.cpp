#include "config.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "link_params.h"
#include "routes.h"
#include "rtl_variant.h"
#include "topology_toml.h"

namespace ubsim {

std::string one_line_text(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += (c < 0x20 || c == 0x7f) ? fmt::format("\\x{:02x}", c) : std::string(1, static_cast<char>(c));
  return out;
}

ConfigError::ConfigError(const std::string& src, const std::string& k, const std::string& message)
    : std::runtime_error(one_line_text(k.empty() ? fmt::format("{}: {}", src, message)
                                                 : fmt::format("{}: key '{}': {}", src, k, message))),
      source(src),
      key(k) {}

Config::Config() {
  for (const ParamDef& def : param_table()) {
    if (def.unit == Unit::Routes) {
      // "path.<id>.<verb>"
      const auto first = def.key.find('.');
      const auto last = def.key.rfind('.');
      set_route(def, default_route(def.key.substr(first + 1, last - first - 1), def.key.substr(last + 1)),
                "default");
    } else {
      set_text(def, def.default_text, "default");
    }
  }
}

void Config::set_number(const ParamDef& def, const Decimal& v, const std::string& source, const std::string& shown) {
  const long double x = v.to_long_double();
  if (x > static_cast<long double>(def.max) && !def.max_is.empty())
    throw ConfigError(source, def.key,
                      fmt::format("{} is above the build maximum of {} ({})", shown,
                                  format_value(def.unit, def.max), def.max_is));
  if (def.power_of_two && x >= 1 && v.fits_u64() && (v.to_u64() & (v.to_u64() - 1)) != 0)
    throw ConfigError(source, def.key, fmt::format("{} is not a power of two", shown));
  if (x < static_cast<long double>(def.min) || x > static_cast<long double>(def.max)) {
    std::string why;
    if (def.unit == Unit::Time && v.negative()) why = "a negative latency is not allowed (0 drops the stage)";
    else if (def.key == "clock") why = "the clock must be above 0";
    else
      why = fmt::format("allowed range is {} .. {}", format_value(def.unit, def.min),
                        std::isinf(def.max) ? std::string("unbounded") : format_value(def.unit, def.max));
    throw ConfigError(source, def.key, fmt::format("{} is out of range: {}", shown, why));
  }
  Entry& e = entries_[def.key];
  e.exact = v;
  e.value = v.to_double();
  e.source = source;
  refresh_topology(def.key);
}

void Config::refresh_topology(const std::string& key) {
  if (!topology_ || (key != "wire.rate" && key != "wire.latency" && key != "fabric.buffer")) return;
  auto t = std::make_shared<Topology>(*topology_);
  t->apply_defaults(*this);
  topology_ = std::move(t);
}

void Config::set_text(const ParamDef& def, const std::string& text, const std::string& source) {
  if (def.unit == Unit::Choice) {
    const auto it = std::find(def.choices.begin(), def.choices.end(), text);
    if (it == def.choices.end()) {
      std::string names;
      for (const auto& c : def.choices) names += (names.empty() ? "" : ", ") + c;
      throw ConfigError(source, def.key, fmt::format("'{}' is not one of: {}", text, names));
    }
    set_number(def, Decimal::of(static_cast<int64_t>(it - def.choices.begin())), source, text);
    return;
  }
  const Parsed p = parse_value(def.unit, text);
  if (!p.error.empty()) throw ConfigError(source, def.key, p.error);
  set_number(def, p.exact, source, text);
}

void Config::set_route(const ParamDef& def, const std::vector<std::string>& hops, const std::string& source) {
  if (hops.empty()) throw ConfigError(source, def.key, "a path needs at least one stage");
  for (const auto& h : hops) {
    HopSpec spec;
    std::string error;
    if (!parse_hop(h, spec, error)) throw ConfigError(source, def.key, error);
  }
  Entry& e = entries_[def.key];
  e.route = hops;
  e.source = source;
}

namespace {
ConfigError unknown_key(const std::string& source, const std::string& key) {
  if (const std::string* hint = removed_param_hint(key)) return ConfigError(source, key, *hint);
  return ConfigError(source, key, "unknown key (see 'ubsim params')");
}

}  // namespace

void Config::apply_set(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos)
    throw ConfigError("--set", assignment, "expected key=value (e.g. --set wire.latency=50ns)");
  apply(assignment.substr(0, eq), assignment.substr(eq + 1), "--set");
}

void Config::apply(const std::string& key, const std::string& text, const std::string& source) {
  const ParamDef* def = find_param(key);
  if (!def) throw unknown_key(source, key);
  if (def->unit == Unit::Routes) {
    const std::vector<std::string> hops = split_list(text);   // comma-separated stages
    set_route(*def, hops, source);
  } else {
    set_text(*def, text, source);
  }
}

namespace {
void flatten(const toml::table& t, const std::string& prefix,
             std::vector<std::pair<std::string, const toml::node*>>& out) {
  for (const auto& [k, v] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = v.as_table()) flatten(*sub, key, out);
    else out.emplace_back(key, &v);
  }
}
}  // namespace

struct Config::TomlRoot {
  toml::table table;
};

void Config::load_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw ConfigError(path, "", fmt::format("cannot read the file: {}", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw ConfigError(path, "", "not a regular file (a TOML configuration file is expected)");
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& src = e.source();
    if (src.begin.line == 0)
      throw ConfigError(path, "", fmt::format("cannot read the file: {}", e.description()));
    throw ConfigError(fmt::format("{}:{}:{}", path, src.begin.line, src.begin.column), "",
                      fmt::format("TOML syntax error: {}", e.description()));
  }
  TomlRoot r{std::move(root)};
  load_table(r, path);
}

void Config::load_text(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw ConfigError(source, "", fmt::format("TOML syntax error: {}", e.description()));
  }
  TomlRoot r{std::move(root)};
  load_table(r, source);
}

void Config::load_table(TomlRoot& r, const std::string& path) {
  toml::table& root = r.table;
  // the topology is tables of entries, not keys: read after the keys (its
  // links default to wire.rate and wire.latency)
  toml::table topology;
  if (const toml::node* t = root.get("topology")) {
    if (!t->is_table()) throw ConfigError(path, "topology", "expected a [topology] table (docs/fabric.md)");
    topology = *t->as_table();
    root.erase("topology");
  }
  std::vector<std::pair<std::string, const toml::node*>> items;
  flatten(root, "", items);
  for (const auto& [key, node] : items) {
    const ParamDef* def = find_param(key);
    if (!def) throw unknown_key(path, key);
    if (def->unit == Unit::Routes) {
      const toml::array* arr = node->as_array();
      if (!arr) throw ConfigError(path, key, "expected an array of stages such as [\"A:sw.submit\", ...]");
      std::vector<std::string> hops;
      for (const auto& el : *arr) {
        if (!el.is_string()) throw ConfigError(path, key, "every stage must be a string \"NODE:op\"");
        hops.push_back(std::string(*el.value<std::string>()));
      }
      set_route(*def, hops, path);
    } else if (node->is_string()) {
      set_text(*def, std::string(*node->value<std::string>()), path);
    } else if (node->is_boolean()) {
      if (def->unit != Unit::Bool)
        throw ConfigError(path, key, fmt::format("expected a {} such as {}, got a bool", unit_name(def->unit),
                                                 unit_example(def->unit)));
      set_number(*def, Decimal::of(*node->value<bool>() ? 1 : 0), path, *node->value<bool>() ? "true" : "false");
    } else if (node->is_integer() || node->is_floating_point()) {
      // hexadecimal, octal and binary are refused, as they are in --set
      if (node->is_integer() && node->as_integer()->flags() != toml::value_flags::none)
        throw ConfigError(path, key, "write the number in decimal (hexadecimal, octal and binary are refused)");
      // a float where a whole number is meant would lose digits (2^53 and up) or a fraction
      if (node->is_floating_point() && (def->unit == Unit::Count || def->unit == Unit::Cycles ||
                                        def->unit == Unit::Bytes || def->unit == Unit::Choice))
        throw ConfigError(path, key, fmt::format("{} is a float; a {} is a whole number (write it without a "
                                                 "decimal point or exponent)",
                                                 fmt::format("{}", *node->value_exact<double>()), unit_name(def->unit)));
      // integers exactly (64 bits); a float as the shortest text that reads back as it
      const std::string shown = node->is_integer() ? std::to_string(*node->value_exact<int64_t>())
                                                   : fmt::format("{}", *node->value_exact<double>());
      if (def->unit == Unit::Time || def->unit == Unit::Frequency || def->unit == Unit::Rate ||
          def->unit == Unit::OpRate)
        throw ConfigError(path, key, fmt::format("{} has no unit (write it as a string such as {})", shown,
                                                 unit_example(def->unit)));
      set_text(*def, shown, path);
    } else {
      throw ConfigError(path, key, fmt::format("expected a {} such as {}", unit_name(def->unit),
                                               unit_example(def->unit)));
    }
  }
  if (!topology.empty()) {
    auto topo = std::make_shared<Topology>(parse_topology(topology, path, *this));
    // Two controllers on one link are today's system: its link is the wire.
    if (topo->is_back_to_back()) {
      const TopoLink& l = topo->links[0];
      const std::string src = l.where;
      if (l.rate_given) set_text(*find_param("wire.rate"), l.rate_text, src);
      if (l.delay_given) set_text(*find_param("wire.latency"), l.delay_text, src);
    }
    topology_ = std::move(topo);
  }
}

const Config::Entry& Config::entry(const std::string& key) const {
  const auto it = entries_.find(key);
  if (it == entries_.end()) throw std::logic_error("configuration key '" + key + "' is not in the parameter table");
  return it->second;
}

double Config::value(const std::string& key) const { return entry(key).value; }
const Decimal& Config::exact(const std::string& key) const { return entry(key).exact; }
uint64_t Config::fs(const std::string& key) const {
  const Decimal& d = entry(key).exact;
  return d.fits_u64() ? d.to_u64() : 0;
}
uint64_t Config::count(const std::string& key) const {
  const Decimal& d = entry(key).exact;
  return d.fits_u64() ? d.to_u64() : 0;
}
bool Config::flag(const std::string& key) const { return entry(key).value != 0; }
uint64_t Config::clock_period_fs() const { return static_cast<uint64_t>(std::llround(1e15 / value(key::clock))); }
const std::string& Config::source(const std::string& key) const { return entry(key).source; }

std::map<std::string, std::string> Config::sources() const {
  std::map<std::string, std::string> out;
  for (const auto& [k, e] : entries_)
    if (e.source != "default") out.emplace(k, e.source);
  return out;
}
std::string Config::text_of(const std::string& key) const {
  const ParamDef* def = find_param(key);
  if (def->unit == Unit::Choice) return choice(key);
  return format_value(def->unit, entry(key).exact);
}
const std::string& Config::choice(const std::string& key) const {
  return find_param(key)->choices.at(static_cast<size_t>(count(key)));
}

std::vector<HopSpec> Config::route(const std::string& path, const std::string& verb) const {
  std::vector<HopSpec> hops;
  for (const auto& text : entries_.at("path." + path + "." + verb).route) {
    HopSpec h;
    std::string error;
    parse_hop(text, h, error);   // validated when set
    hops.push_back(h);
  }
  return hops;
}

std::map<std::string, std::string> Config::resolved() const {
  std::map<std::string, std::string> out;
  for (const ParamDef& def : param_table())
    if (def.unit == Unit::Choice) out[def.key] = choice(def.key);
    else if (def.unit != Unit::Routes) out[def.key] = format_value(def.unit, entries_.at(def.key).exact);
  // (two controllers on one link are today's system, wholly described by
  // wire.rate and wire.latency: nothing more to record)
  if (topology_ && !topology_->is_back_to_back()) out["topology"] = topology_->canonical();
  return out;
}

std::map<std::string, std::vector<std::string>> Config::resolved_routes() const {
  std::map<std::string, std::vector<std::string>> out;
  for (const ParamDef& def : param_table())
    if (def.unit == Unit::Routes) out[def.key] = entries_.at(def.key).route;
  return out;
}

// A route is a request's way from the initiator and back: every stage runs
// on the node the request is on (a wire stage carries it to the other), it
// crosses the wire, ends on node A where the application completes it, uses
// one stack's pipelines, and passes each RTL pipeline at most once (the
// pipeline knows a request by its id while it is inside).
void Config::check_route(const std::string& key, const std::vector<std::string>& texts) const {
  NodeId at = NodeId::A;
  int crossings = 0;
  bool ub = false, nic = false;
  std::vector<std::string> pipelines;
  Op prev = Op::Count_;
  bool prev_per_packet = false;
  for (const auto& text : texts) {
    HopSpec h;
    std::string error;
    parse_hop(text, h, error);
    const OpInfo& info = op_info(h.op);
    auto fail = [&](const std::string& why) { throw ConfigError(source(key), key, "stage '" + text + "': " + why); };
    // a message crosses as packets: send pipeline, wire, receive pipeline, back to back
    if (is_link_op(h.op) && !is_send_op(prev))
      fail("a wire stage must follow a send pipeline (nic.tx, ub.tx, ub.load_tx): the packets come from it");
    if (is_send_op(prev) && !is_link_op(h.op)) fail("a send pipeline's packets go onto the wire next");
    if (is_link_op(prev) && !is_receive_op(h.op)) fail("a receive pipeline must take the packets off the wire");
    if (h.per_packet && !is_transfer_op(h.op))
      fail("only bus, DRAM and PCIe stages can be per packet ('*'): they move each packet's payload");
    if (h.per_packet && !is_receive_op(prev) && !prev_per_packet)
      fail("a per-packet stage ('*') follows the receive pipeline (or another per-packet stage)");
    prev = h.op;
    prev_per_packet = h.per_packet;
    if (h.node != at)
      fail(fmt::format("runs on node {} while the request is on node {} (a wire stage carries it across)",
                       h.node == NodeId::A ? "A" : "B", at == NodeId::A ? "A" : "B"));
    if (info.owner == ComponentKind::Wire) {
      at = at == NodeId::A ? NodeId::B : NodeId::A;
      ++crossings;
    }
    if (info.owner == ComponentKind::Ub) ub = true;
    if (info.owner == ComponentKind::Nic) nic = true;
    if (info.in_cycles) {
      // the pipeline component: node and direction (ub.tx and ub.load_tx share the send pipeline)
      const bool tx = h.op == Op::UbTx || h.op == Op::UbLoadTx || h.op == Op::NicTx;
      const std::string pipe = fmt::format("{}:{}.{}", h.node == NodeId::A ? "A" : "B",
                                           info.owner == ComponentKind::Ub ? "ub" : "nic", tx ? "tx" : "rx");
      if (std::find(pipelines.begin(), pipelines.end(), pipe) != pipelines.end())
        fail("passes the " + pipe + " pipeline a second time (a route uses each RTL pipeline once)");
      pipelines.push_back(pipe);
    }
  }
  if (crossings == 0)
    throw ConfigError(source(key), key, "the route never crosses the wire (a remote access goes A -> B -> A)");
  if (at != NodeId::A)
    throw ConfigError(source(key), key, "the route ends on node B: a request completes at the initiator (node A)");
  if (ub && nic)
    throw ConfigError(source(key), key, "the route mixes the UB controller's and the PCIe NIC's pipelines");
}

void Config::validate_fabric(bool pause) const {
  const uint64_t packet = count(key::transport_mtu) + count(key::transport_header_bytes);
  const uint64_t xoff = count(key::fabric_pause_xoff), xon = count(key::fabric_pause_xon);
  if (pause && xon >= xoff)
    throw ConfigError(source(key::fabric_pause_xon), key::fabric_pause_xon.name,
                      fmt::format("XON ({} B) must be below XOFF (fabric.pause_xoff, {} B): a port resumes below the "
                                  "level that paused it",
                                  xon, xoff));
  // every finite output queue: at least one packet, and with pause room
  // above XOFF for what is still on its way (the headroom)
  auto check_buffer = [&](uint64_t buffer, const std::string& where, const std::string& key) {
    if (buffer == 0) return;
    if (buffer < packet)
      throw ConfigError(where, key,
                        fmt::format("a buffer of {} B is smaller than one packet ({} B: transport.mtu + header)", buffer,
                                    packet));
    if (pause && xoff + packet > buffer)
      throw ConfigError(where, key,
                        fmt::format("a buffer of {} B leaves less than one packet of headroom above XOFF "
                                    "(fabric.pause_xoff, {} B): what is on its way after the pause would be dropped",
                                    buffer, xoff));
  };
  check_buffer(count(key::fabric_buffer), source(key::fabric_buffer), key::fabric_buffer.name);
  if (flag(key::fabric_ecn) && count(key::fabric_ecn_kmin) >= count(key::fabric_ecn_kmax))
    throw ConfigError(source(key::fabric_ecn_kmax), key::fabric_ecn_kmax.name,
                      fmt::format("the marking curve needs fabric.ecn_kmin ({} B) below fabric.ecn_kmax ({} B)",
                                  count(key::fabric_ecn_kmin), count(key::fabric_ecn_kmax)));
  const uint64_t shared = count(key::fabric_shared_buffer);
  if (shared && shared < packet)
    throw ConfigError(source(key::fabric_shared_buffer), key::fabric_shared_buffer.name,
                      fmt::format("a shared buffer of {} B is smaller than one packet ({} B)", shared, packet));
  if (const Topology* t = topology())
    for (size_t i = 0; i < t->links.size(); ++i)
      check_buffer(t->links[i].buffer_bytes, t->links[i].where, fmt::format("topology.link[{}].buffer", i));
}

void Config::validate(const PipelineLimits& lim) const {
  if (clock_period_fs() == 0)
    throw ConfigError(source(key::clock), key::clock.name, "the clock period is below the 1 fs time resolution");
  validate_fabric();
  validate_links(*this);   // the PCIe latencies must leave room for the link's own time
  // A depth is the traversal of both the send and the receive pipeline of a
  // route: it must fit the larger structural minimum and the smaller maximum.
  auto check = [&](Key<Unit::Cycles> key, int min_tx, int min_rx, const char* what) {
    const int v = static_cast<int>(value(key));
    const int lo = std::max(min_tx, min_rx);
    const int hi = std::min({min_tx + lim.max_chain, min_rx + lim.max_chain,
                             (1 << rtl_variant::kDepthBits) - 1});
    if (v < lo)
      throw ConfigError(source(key), key.name,
                        fmt::format("{} cycles is below the {} structural minimum of {} cycles", v, what, lo));
    if (v > hi)
      throw ConfigError(source(key), key.name,
                        fmt::format("{} cycles is above the build maximum of {} cycles (fixed stages + "
                                    "UBSIM_RTL_MAX_CHAIN={} chain registers)",
                                    v, hi, lim.max_chain));
  };
  check(key::pipeline_ub_async, lim.ub_tx_min_async, lim.rx_min, "UB send pipeline's");
  check(key::pipeline_ub_load, lim.ub_tx_min_load, lim.rx_min, "UB Load/Store route's");
  check(key::pipeline_pcie_nic, lim.roce_tx_min, lim.rx_min, "NIC send pipeline's");
  // Context caches: a UB lookup of the async path needs two records (Jetty
  // and TP channel) on chip at once
  if (count(key::cache_ub_entries) < 2)
    throw ConfigError(source(key::cache_ub_entries), key::cache_ub_entries.name,
                      "a UB lookup needs two records at once (Jetty and TP channel): at least 2 entries");
  // Without the caches every record is on chip: the context RAMs hold one
  // per TP channel / QP, indexed by the peer endpoint.
  if (!flag(key::cache_enabled) && count(key::workload_endpoints) > static_cast<uint64_t>(rtl_variant::kCacheMaxEntries))
    throw ConfigError(source(key::workload_endpoints), key::workload_endpoints.name,
                      fmt::format("{} endpoints without context caches (cache.enabled = false) need that many "
                                  "records on chip: the context RAMs hold UBSIM_RTL_CACHE_ENTRIES = {}",
                                  count(key::workload_endpoints), rtl_variant::kCacheMaxEntries));
  if (count(key::workload_warmup) >= count(key::workload_ops))
    throw ConfigError(source(key::workload_warmup), key::workload_warmup.name,
                      fmt::format("{} warm-up requests leave none of the {} (workload.ops) to measure",
                                  count(key::workload_warmup), count(key::workload_ops)));
  for (const auto& [key, hops] : resolved_routes()) check_route(key, hops);
  // Context caches: a set count that is a power of two; at least 2 ways (a
  // lookup may need 2 records).
  for (const char* stack : {"ub", "roce"}) {
    const std::string ek = fmt::format("cache.{}_entries", stack), wk = fmt::format("cache.{}_ways", stack);
    const auto entries = static_cast<long>(value(ek));
    const auto ways = static_cast<long>(value(wk));
    if (ways == 0) continue;
    const long sets = ways > 0 ? entries / ways : 0;
    if (ways < 2 || ways > entries || entries % ways != 0 || (sets & (sets - 1)) != 0)
      throw ConfigError(source(wk), wk,
                        fmt::format("{} ways with {} entries: need 0 (fully associative) or at least 2 ways "
                                    "dividing the entries into a power-of-two number of sets",
                                    ways, entries));
  }
}

}  // namespace ubsim
