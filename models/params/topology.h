// Topology: the nodes, switches and links of a fabric, from the
// configuration's [topology] tables (docs/fabric.md), checked whole: every
// name once, every link between known devices at a rate above 0, every
// endpoint on exactly one link, every endpoint reaching every other one
// and every switch reachable from an endpoint. Forwarding is computed from
// it: per switch and destination, the ports on a shortest path (equal-cost
// next hops, the ECMP group). Plain C++: no SystemC.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ubsim {

class Config;

struct TopoDevice {
  enum class Kind { Controller, Source, Switch };
  std::string name;
  Kind kind = Kind::Controller;
  std::string where;   // "file:line" of its entry
  // A controller's part in the experiments' pairs: it initiates (node A of
  // a route), is the target (node B), or both (the default).
  enum class Role { Both, Initiator, Target };
  Role role = Role::Both;
  bool is_switch() const { return kind == Kind::Switch; }
};

struct TopoLink {
  int a = -1, b = -1;           // device indices
  double rate_Bps = 0;          // bytes per second, each direction
  uint64_t delay_fs = 0;        // propagation, one way
  uint64_t buffer_bytes = 0;    // each direction's output queue (0: unbounded)
  // Given in the file; the others follow wire.rate, wire.latency and
  // fabric.buffer as they are set (Topology::apply_defaults).
  bool rate_given = false, delay_given = false, buffer_given = false;
  std::string rate_text, delay_text;   // as written (or the default's text)
  std::string where;
};

// A flow of a traffic source: `bytes` from `src` to `dst` in packets of at
// most `packet_bytes` payload, paced at `rate_Bps`, from `start_fs`.
struct TopoFlow {
  int src = -1, dst = -1;
  uint64_t bytes = 0;
  double rate_Bps = 0;
  uint64_t start_fs = 0;
  bool rate_given = false;
  std::string where;
};

// One port of a device: the link it is on and the device and port at its far end.
struct TopoPort {
  int link = -1, peer = -1, peer_port = -1;
};

// Devices a topology may have (its forwarding tables grow as devices x devices).
inline constexpr size_t kMaxTopologyDevices = 4096;

class Topology {
 public:
  std::vector<TopoDevice> devices;   // endpoints and switches, in file order
  std::vector<TopoLink> links;
  std::vector<TopoFlow> flows;
  std::string file;                  // where it was read ("" = built by an experiment)

  int find(const std::string& name) const;   // -1 if none
  std::vector<int> endpoints() const;
  std::vector<int> switches() const;
  // Ports of each device, in the order of the links naming it.
  const std::vector<std::vector<TopoPort>>& ports() const { return ports_; }
  // Switch s's equal-cost ports towards endpoint dst (shortest paths in hops).
  const std::vector<int>& next_ports(int s, int dst) const { return next_[switch_index_[s]][dst]; }
  // Links on every shortest path from endpoint src to dst (hops).
  int hops(int src, int dst) const { return dist_[dst][src]; }
  // Whether this is today's default: two controllers joined by one link.
  bool is_back_to_back() const;
  // (initiator, target) controller pairs, in file order; the first is the
  // pair an experiment runs unless it is told which.
  std::vector<std::pair<int, int>> controller_pairs() const;
  // Canonical one-line text (the resolved config beside every result).
  std::string canonical() const;

  // Checks the whole topology and computes ports and forwarding; throws
  // ConfigError naming the file and the entry.
  void finish();
  // Links (and flows) that did not give a rate, delay or buffer take these.
  void apply_defaults(const Config& c);

 private:
  std::vector<std::vector<TopoPort>> ports_;
  std::vector<std::vector<int>> dist_;                 // [dst][device]: hops to dst
  std::vector<int> switch_index_;                      // device -> its place among the switches
  std::vector<std::vector<std::vector<int>>> next_;    // [switch place][dst] -> ports
};

// (parse_topology, reading a configuration file's [topology] tables: topology_toml.h)

}  // namespace ubsim
