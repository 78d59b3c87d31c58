#include "wait_for.h"

#include <algorithm>

namespace ubsim {

size_t WaitForGraph::add(Vertex v) {
  vertices_.push_back(std::move(v));
  out_.emplace_back();
  return vertices_.size() - 1;
}

void WaitForGraph::add_edge(size_t from, size_t to) { out_.at(from).push_back(to); }

std::vector<size_t> WaitForGraph::find_cycle() const {
  enum : char { kNew, kOnPath, kDone };
  std::vector<char> state(vertices_.size(), kNew);
  std::vector<size_t> path;
  // iterative DFS: (vertex, next edge index)
  for (size_t root = 0; root < vertices_.size(); ++root) {
    if (state[root] != kNew) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    state[root] = kOnPath;
    path = {root};
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i < out_[v].size()) {
        const size_t w = out_[v][i++];
        if (state[w] == kOnPath) {   // back edge: the path from w to v closes a cycle
          const auto at = std::find(path.begin(), path.end(), w);
          return std::vector<size_t>(at, path.end());
        }
        if (state[w] == kNew) {
          state[w] = kOnPath;
          stack.emplace_back(w, 0);
          path.push_back(w);
        }
      } else {
        state[v] = kDone;
        stack.pop_back();
        path.pop_back();
      }
    }
  }
  return {};
}

}  // namespace ubsim
