#include "topology.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "config.h"
#include "topology_toml.h"
#include "units.h"

namespace ubsim {

namespace {

constexpr int kUnreached = std::numeric_limits<int>::max();

const char* kind_name(TopoDevice::Kind k) {
  switch (k) {
    case TopoDevice::Kind::Controller: return "controller";
    case TopoDevice::Kind::Source: return "source";
    case TopoDevice::Kind::Switch: return "switch";
  }
  return "?";
}

std::string where_of(const std::string& path, const toml::node& n) {
  const auto& src = n.source();
  return src.begin.line ? fmt::format("{}:{}", path, src.begin.line) : path;
}

// One entry of an array of tables: its fields, each read once, the rest refused.
class Entry {
 public:
  Entry(const toml::table& t, std::string where, std::string key) : t_(t), where_(std::move(where)), key_(std::move(key)) {}
  ConfigError error(const std::string& msg) const { return ConfigError(where_, key_, msg); }
  const std::string& where() const { return where_; }
  const std::string& key() const { return key_; }
  bool has(const char* field) const { return t_.get(field) != nullptr; }
  // A string field; `required` or "" when absent.
  std::string text(const char* field, bool required) {
    used_.insert(field);
    const toml::node* n = t_.get(field);
    if (!n) {
      if (required) throw error(fmt::format("'{}' is missing", field));
      return "";
    }
    if (!n->is_string()) throw error(fmt::format("'{}' must be a string", field));
    return std::string(*n->value<std::string>());
  }
  // A value with a unit, written as a string ("50GB/s", "100ns"), or a whole
  // number of bytes; `def` when absent.
  Parsed value(const char* field, Unit unit, const std::string& def, std::string& shown) {
    used_.insert(field);
    const toml::node* n = t_.get(field);
    if (!n) {
      shown = def;
      return parse_value(unit, def);
    }
    if (n->is_integer() && unit == Unit::Bytes) shown = std::to_string(*n->value<int64_t>());
    else if (n->is_string()) shown = std::string(*n->value<std::string>());
    else throw error(fmt::format("'{}' must be a string with its unit, such as {}", field, unit_example(unit)));
    Parsed p = parse_value(unit, shown);
    if (!p.error.empty()) throw error(fmt::format("'{}': {}", field, p.error));
    return p;
  }
  void check_fields() const {
    for (const auto& [k, v] : t_)
      if (!used_.count(std::string(k.str())))
        throw error(fmt::format("unknown field '{}'", std::string(k.str())));
  }

 private:
  const toml::table& t_;
  std::string where_, key_;
  std::set<std::string> used_;
};

template <class F>
void for_each_entry(const toml::table& topo, const char* array, const std::string& path, F f) {
  const toml::node* n = topo.get(array);
  if (!n) return;
  const toml::array* arr = n->as_array();
  const std::string key = fmt::format("topology.{}", array);
  if (!arr) throw ConfigError(where_of(path, *n), key, fmt::format("expected [[{}]] tables", key));
  for (size_t i = 0; i < arr->size(); ++i) {
    const toml::node& el = *arr->get(i);
    const toml::table* t = el.as_table();
    if (!t) throw ConfigError(where_of(path, el), key, fmt::format("expected [[{}]] tables", key));
    Entry e(*t, where_of(path, el), fmt::format("{}[{}]", key, i));
    f(e);
    e.check_fields();
  }
}

}  // namespace

int Topology::find(const std::string& name) const {
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<int> Topology::endpoints() const {
  std::vector<int> out;
  for (size_t i = 0; i < devices.size(); ++i)
    if (!devices[i].is_switch()) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> Topology::switches() const {
  std::vector<int> out;
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i].is_switch()) out.push_back(static_cast<int>(i));
  return out;
}

bool Topology::is_back_to_back() const {
  return devices.size() == 2 && links.size() == 1 && devices[0].kind == TopoDevice::Kind::Controller &&
         devices[1].kind == TopoDevice::Kind::Controller;
}

void Topology::apply_defaults(const Config& c) {
  for (TopoLink& l : links) {
    if (!l.rate_given) {
      l.rate_Bps = c.value(key::wire_rate);
      l.rate_text = c.text_of(key::wire_rate);
    }
    if (!l.delay_given) {
      l.delay_fs = c.fs(key::wire_latency);
      l.delay_text = c.text_of(key::wire_latency);
    }
    if (!l.buffer_given) l.buffer_bytes = c.count(key::fabric_buffer);
  }
  for (TopoFlow& f : flows)
    if (!f.rate_given) f.rate_Bps = c.value(key::wire_rate);
}

std::vector<std::pair<int, int>> Topology::controller_pairs() const {
  std::vector<std::pair<int, int>> out;
  using R = TopoDevice::Role;
  for (size_t i = 0; i < devices.size(); ++i)
    for (size_t j = 0; j < devices.size(); ++j) {
      const TopoDevice &a = devices[i], &b = devices[j];
      if (i == j || a.kind != TopoDevice::Kind::Controller || b.kind != TopoDevice::Kind::Controller) continue;
      if (a.role != R::Target && b.role != R::Initiator) out.emplace_back(static_cast<int>(i), static_cast<int>(j));
    }
  return out;
}

std::string Topology::canonical() const {
  std::string s;
  for (const TopoDevice& d : devices)
    s += fmt::format("{}{}={}{}", s.empty() ? "" : " ", d.name, kind_name(d.kind),
                     d.role == TopoDevice::Role::Initiator ? "/initiator" : d.role == TopoDevice::Role::Target ? "/target" : "");
  for (const TopoLink& l : links)
    s += fmt::format(" {}-{}@{}/{}", devices[l.a].name, devices[l.b].name, l.rate_text, l.delay_text);
  return s;
}

void Topology::finish() {
  const int n = static_cast<int>(devices.size());
  const std::string src = file.empty() ? "topology" : file;
  if (std::none_of(devices.begin(), devices.end(), [](const TopoDevice& d) { return !d.is_switch(); }))
    throw ConfigError(src, "topology", "no nodes: at least two [[topology.node]] entries are needed");
  ports_.assign(n, {});
  for (size_t i = 0; i < links.size(); ++i) {
    TopoLink& l = links[i];
    const int pa = static_cast<int>(ports_[l.a].size()), pb = static_cast<int>(ports_[l.b].size());
    ports_[l.a].push_back({static_cast<int>(i), l.b, pb});
    ports_[l.b].push_back({static_cast<int>(i), l.a, pa});
  }
  for (int d = 0; d < n; ++d) {
    if (devices[d].is_switch()) continue;
    if (ports_[d].empty())
      throw ConfigError(devices[d].where, "topology.node",
                        fmt::format("node '{}' is on no link: it has no route to any other node", devices[d].name));
    if (ports_[d].size() > 1)
      throw ConfigError(devices[d].where, "topology.node",
                        fmt::format("node '{}' is on {} links; a node has one port (put a switch between)",
                                    devices[d].name, ports_[d].size()));
  }
  // Hops to each endpoint, breadth first; endpoints do not forward.
  dist_.assign(n, std::vector<int>(n, kUnreached));
  for (int dst : endpoints()) {
    std::deque<int> q{dst};
    dist_[dst][dst] = 0;
    while (!q.empty()) {
      const int u = q.front();
      q.pop_front();
      if (u != dst && !devices[u].is_switch()) continue;
      for (const TopoPort& p : ports_[u])
        if (dist_[dst][p.peer] == kUnreached) {
          dist_[dst][p.peer] = dist_[dst][u] + 1;
          q.push_back(p.peer);
        }
    }
  }
  const auto eps = endpoints();
  for (int a : eps)
    for (int b : eps)
      if (a != b && dist_[b][a] == kUnreached)
        throw ConfigError(devices[a].where, "topology.node",
                          fmt::format("node '{}' has no route to node '{}'", devices[a].name, devices[b].name));
  for (int s : switches())
    if (std::all_of(eps.begin(), eps.end(), [&](int e) { return dist_[e][s] == kUnreached; }))
      throw ConfigError(devices[s].where, "topology.switch",
                        fmt::format("switch '{}' is reached from no node: a loop or island of switches without a "
                                    "route to it",
                                    devices[s].name));
  // Per switch and destination: the ports one hop closer (shortest paths
  // only, so forwarding can never loop).
  const auto sws = switches();
  switch_index_.assign(n, -1);
  next_.assign(sws.size(), std::vector<std::vector<int>>(n));
  for (size_t k = 0; k < sws.size(); ++k) {
    const int s = sws[k];
    switch_index_[s] = static_cast<int>(k);
    for (int dst : eps) {
      if (dist_[dst][s] == kUnreached) continue;
      for (size_t p = 0; p < ports_[s].size(); ++p) {
        const int peer = ports_[s][p].peer;
        if (dist_[dst][peer] == dist_[dst][s] - 1 && (peer == dst || devices[peer].is_switch()))
          next_[k][dst].push_back(static_cast<int>(p));
      }
    }
  }
  for (const TopoFlow& f : flows) {
    if (devices[f.src].is_switch() || devices[f.dst].is_switch())
      throw ConfigError(f.where, "topology.flow", "a flow runs between two nodes, not a switch");
    if (f.src == f.dst) throw ConfigError(f.where, "topology.flow", "a flow from a node to itself");
  }
}

Topology parse_topology(const toml::table& t, const std::string& path, const Config& cfg) {
  Topology topo;
  topo.file = path;
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (key != "node" && key != "switch" && key != "link" && key != "flow")
      throw ConfigError(where_of(path, v), "topology." + key,
                        "unknown table (a topology has [[topology.node]], [[topology.switch]], [[topology.link]], "
                        "[[topology.flow]])");
  }
  auto add_device = [&](Entry& e, TopoDevice::Kind kind) {
    TopoDevice d;
    d.name = e.text("name", true);
    if (d.name.empty()) throw e.error("'name' is empty");
    // (names become the SystemC modules' and the result rows' names)
    if (d.name.size() > 64 || d.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") !=
                                  std::string::npos)
      throw e.error(fmt::format("name '{}' is not 1..64 letters, digits, '_' or '-'", one_line_text(d.name)));
    if (topo.devices.size() >= kMaxTopologyDevices)
      throw e.error(fmt::format("more than {} nodes and switches", kMaxTopologyDevices));
    if (topo.find(d.name) >= 0)
      throw e.error(fmt::format("duplicate name '{}' (first at {})", d.name, topo.devices[topo.find(d.name)].where));
    d.kind = kind;
    d.where = e.where();
    topo.devices.push_back(d);
  };
  for_each_entry(t, "node", path, [&](Entry& e) {
    const std::string kind = e.text("kind", false);
    TopoDevice::Kind k = TopoDevice::Kind::Controller;
    if (kind == "source") k = TopoDevice::Kind::Source;
    else if (!kind.empty() && kind != "controller")
      throw e.error(fmt::format("kind '{}' is not one of: controller, source", kind));
    add_device(e, k);
    const std::string role = e.text("role", false);
    if (!role.empty() && k != TopoDevice::Kind::Controller) throw e.error("'role' is a controller's (initiator, target, both)");
    if (role == "initiator") topo.devices.back().role = TopoDevice::Role::Initiator;
    else if (role == "target") topo.devices.back().role = TopoDevice::Role::Target;
    else if (!role.empty() && role != "both") throw e.error(fmt::format("role '{}' is not one of: initiator, target, both", role));
  });
  for_each_entry(t, "switch", path, [&](Entry& e) { add_device(e, TopoDevice::Kind::Switch); });
  auto device = [&](Entry& e, const char* field) {
    const std::string name = e.text(field, true);
    const int i = topo.find(name);
    if (i < 0) throw e.error(fmt::format("unknown node or switch '{}'", name));
    return i;
  };
  const std::string def_rate = cfg.text_of(key::wire_rate), def_delay = cfg.text_of(key::wire_latency);
  for_each_entry(t, "link", path, [&](Entry& e) {
    if (topo.links.size() >= 16 * kMaxTopologyDevices)
      throw e.error(fmt::format("more than {} links", 16 * kMaxTopologyDevices));
    TopoLink l;
    l.a = device(e, "from");
    l.b = device(e, "to");
    if (l.a == l.b) throw e.error(fmt::format("a loop: a link from '{}' to itself", topo.devices[l.a].name));
    l.rate_given = e.has("rate");
    l.delay_given = e.has("delay");
    l.buffer_given = e.has("buffer");
    const Parsed rate = e.value("rate", Unit::Rate, def_rate, l.rate_text);
    if (!(rate.value > 0)) throw e.error(fmt::format("rate {} is not above 0", l.rate_text));
    const Parsed delay = e.value("delay", Unit::Time, def_delay, l.delay_text);
    if (delay.exact.negative()) throw e.error(fmt::format("delay {} is negative", l.delay_text));
    l.rate_Bps = rate.value;
    l.delay_fs = delay.exact.to_u64();
    std::string buffer_text;
    const Parsed buffer = e.value("buffer", Unit::Bytes, cfg.text_of(key::fabric_buffer), buffer_text);
    l.buffer_bytes = buffer.exact.to_u64();
    l.where = e.where();
    topo.links.push_back(l);
  });
  for_each_entry(t, "flow", path, [&](Entry& e) {
    TopoFlow f;
    f.src = device(e, "from");
    f.dst = device(e, "to");
    std::string shown;
    const Parsed bytes = e.value("bytes", Unit::Bytes, "", shown);
    if (shown.empty()) throw e.error("'bytes' is missing");
    if (bytes.value < 1) throw e.error("'bytes' must be at least 1");
    f.bytes = bytes.exact.to_u64();
    f.rate_given = e.has("rate");
    const Parsed rate = e.value("rate", Unit::Rate, def_rate, shown);
    if (!(rate.value > 0)) throw e.error(fmt::format("rate {} is not above 0", shown));
    f.rate_Bps = rate.value;
    const Parsed start = e.value("start", Unit::Time, "0ns", shown);
    if (start.exact.negative()) throw e.error(fmt::format("start {} is negative", shown));
    f.start_fs = start.exact.to_u64();
    // the simulator's clock ends at 2^64 fs (about 5.1 hours)
    const double end_s = static_cast<double>(f.start_fs) / 1e15 + static_cast<double>(f.bytes) / f.rate_Bps;
    if (end_s > 0.9 * 18446.744)
      throw e.error(fmt::format("the flow would end about {:.4g} s in, beyond the simulator's time horizon of 18446.7 s "
                                "(2^64 fs)",
                                end_s));
    f.where = e.where();
    topo.flows.push_back(f);
  });
  topo.finish();
  return topo;
}

}  // namespace ubsim
