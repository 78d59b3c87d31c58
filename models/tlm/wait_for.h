// WaitForGraph: what each piece of work holds and what it waits for, built
// when a run stops making progress, and the cycle in it if there is one
// (spec textbook 7.5.4: a deadlock is a cycle of waits). A vertex is one
// piece of work (a request, a packet); an edge a -> b says a cannot go on
// until b does (b holds what a needs, or b is ahead of a in a FIFO).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ubsim {

class StageComponent;

// What a component holds now and what it waits for, for the report of a run
// that stopped making progress: one entry per kind of resource held or
// waited for, read from the block's own state (its RTL's ports, its
// queues). `on`: the component that holds what it waits for, when that is
// one of the run's components (an edge of the graph).
struct Holding {
  std::string holds;   // "2 order-tracker slots (1 held back for order)"; "" = nothing
  std::string waits;   // "their completions (...)"; "" = nothing
  const StageComponent* on = nullptr;
};

class WaitForGraph {
 public:
  struct Vertex {
    std::string name;    // "read request #3 A->B"
    std::string holds;   // "receive slot 2 at B" ("" = nothing)
    std::string waits;   // "a receive slot at A (all 8 held)"
  };
  size_t add(Vertex v);
  void add_edge(size_t from, size_t to);
  const Vertex& vertex(size_t i) const { return vertices_[i]; }
  size_t size() const { return vertices_.size(); }
  // A cycle of waits, in order (each waits for the next, the last for the
  // first), or empty: found by depth-first search from every vertex.
  std::vector<size_t> find_cycle() const;

 private:
  std::vector<Vertex> vertices_;
  std::vector<std::vector<size_t>> out_;
};

// The wait-for report of a run's components (their holdings()): every
// component that holds or waits for something, as "name (holds X; waits for
// Y)", joined by ", "; a cycle among them (a holding whose `on` component
// waits, through others, for it) is named first: "cycle of waits: a -> b ->
// a; ". Empty if no component holds or waits for anything.
std::string wait_for_report(const std::vector<const StageComponent*>& components);

}  // namespace ubsim
