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

}  // namespace ubsim
