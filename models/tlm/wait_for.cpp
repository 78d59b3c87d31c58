#include "wait_for.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "component.h"

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

std::string wait_for_report(const std::vector<const StageComponent*>& components) {
  // one vertex per holding; a holding waits for every holding of its `on`
  WaitForGraph g;
  std::vector<const StageComponent*> target;
  std::unordered_map<const StageComponent*, std::vector<size_t>> of;
  std::string all;
  for (const StageComponent* c : components) {
    std::vector<StageComponent::Holding> hs;
    c->holdings(hs);
    if (hs.empty()) continue;
    std::string line;
    for (const auto& h : hs) {
      const size_t v = g.add({c->basename(), h.holds, h.waits});
      target.push_back(h.on);
      of[c].push_back(v);
      line += fmt::format("{}{}{}", line.empty() ? "" : "; ", h.holds.empty() ? "" : "holds " + h.holds,
                          h.waits.empty() ? "" : (h.holds.empty() ? "" : ", ") + std::string("waits for ") + h.waits);
    }
    all += fmt::format("{}{} ({})", all.empty() ? "" : ", ", c->basename(), line);
  }
  for (size_t v = 0; v < g.size(); ++v)
    if (auto it = of.find(target[v]); target[v] && it != of.end())
      for (size_t w : it->second) g.add_edge(v, w);
  const std::vector<size_t> cycle = g.find_cycle();
  if (cycle.empty()) return all;
  std::string c = "cycle of waits: ";
  for (size_t v : cycle) c += fmt::format("{} -> ", g.vertex(v).name);
  return c + g.vertex(cycle.front()).name + "; " + all;
}

}  // namespace ubsim
