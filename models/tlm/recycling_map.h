// RecyclingMap: an unordered_map whose erased nodes are kept and reused by
// the next insertions (C++17 node handles), so a map whose size stays
// bounded (the requests inside a block, the grants it holds) allocates
// nothing per entry in steady state.
#pragma once
#include <unordered_map>
#include <utility>
#include <vector>

namespace ubsim {

template <class K, class V>
class RecyclingMap {
 public:
  using Map = std::unordered_map<K, V>;
  using iterator = typename Map::iterator;
  using const_iterator = typename Map::const_iterator;

  std::pair<iterator, bool> emplace(const K& key, const V& value) {
    if (spare_.empty()) return map_.emplace(key, value);
    typename Map::node_type node = std::move(spare_.back());
    spare_.pop_back();
    node.key() = key;
    node.mapped() = value;
    auto r = map_.insert(std::move(node));
    if (!r.inserted) spare_.push_back(std::move(r.node));
    return {r.position, r.inserted};
  }
  void erase(iterator it) { spare_.push_back(map_.extract(it)); }
  size_t erase(const K& key) {
    auto it = map_.find(key);
    if (it == map_.end()) return 0;
    erase(it);
    return 1;
  }
  iterator find(const K& key) { return map_.find(key); }
  const_iterator find(const K& key) const { return map_.find(key); }
  iterator begin() { return map_.begin(); }
  iterator end() { return map_.end(); }
  const_iterator begin() const { return map_.begin(); }
  const_iterator end() const { return map_.end(); }
  size_t size() const { return map_.size(); }
  bool empty() const { return map_.empty(); }

 private:
  Map map_;
  std::vector<typename Map::node_type> spare_;
};

}  // namespace ubsim
