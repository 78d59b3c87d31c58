#include "scripted_tx.h"

#include <algorithm>
#include <stdexcept>

#include "block_config.h"
#include "verilated_block.h"

#include "Vroce_tx_multi.h"
#include "Vub_tx_multi.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

namespace {

struct PendingCompletion {
  long due;
  int slot, seq;
  size_t req;
};

// Earliest due completion (one per cycle), or null.
const PendingCompletion* due_completion(const std::vector<PendingCompletion>& pend, long cycle) {
  const PendingCompletion* best = nullptr;
  for (const auto& p : pend)
    if (p.due <= cycle && (!best || p.due < best->due)) best = &p;
  return best;
}

void schedule_completion(std::vector<PendingCompletion>& pend, const Scripted& s, Observed& o, long cycle,
                         size_t req) {
  if (s.never_complete) return;
  const long due = s.complete_at >= 0 ? std::max(s.complete_at, cycle + 1) : cycle + 100;
  pend.push_back({due, o.slot, o.seq, req});
}

bool all_out(const std::vector<Observed>& ob) {
  return std::all_of(ob.begin(), ob.end(), [](const Observed& o) { return o.flit >= 0 || o.error; });
}

// The five-initiator tops share their ports: one driver for both.
template <class M>
std::vector<Observed> drive_multi(VerilatedBlock<M>& b, uint64_t period_ps, const std::vector<Scripted>& sc,
                                  long max_cycles) {
  constexpr int kInits = 5;
  constexpr uint32_t kLowMask = (1u << 29) - 1;   // the top 3 id bits name the initiator
  M& m = b.model();
  m.s_valid = 0;
  m.s_cpl_valid = 0;
  b.reset(4);
  std::vector<Observed> ob(sc.size());
  std::vector<PendingCompletion> pend;
  std::vector<std::vector<size_t>> queue(kInits);
  for (size_t i = 0; i < sc.size(); ++i) queue[static_cast<size_t>(sc[i].initiator)].push_back(i);
  std::vector<size_t> head(kInits, 0);
  for (long c = 1; c < max_cycles && !all_out(ob); ++c) {
    uint32_t valid = 0, fence = 0, rdat = 0, tag = 0;
    for (int i = 0; i < kInits; ++i) {
      const auto& q = queue[static_cast<size_t>(i)];
      if (head[static_cast<size_t>(i)] >= q.size()) continue;
      const size_t g = q[head[static_cast<size_t>(i)]];
      valid |= 1u << i;
      m.s_id[i] = static_cast<uint32_t>(g);
      fence |= (sc[g].fence ? 1u : 0u) << i;
      rdat |= (sc[g].rdat ? 1u : 0u) << i;
      tag |= static_cast<uint32_t>(sc[g].tag) << (2 * i);
    }
    m.s_valid = static_cast<uint8_t>(valid);
    m.s_fence = static_cast<uint8_t>(fence);
    m.s_rdat = static_cast<uint8_t>(rdat);
    m.s_tag = static_cast<uint16_t>(tag);
    const PendingCompletion* cpl = due_completion(pend, c);
    m.s_cpl_valid = cpl != nullptr;
    m.s_cpl_slot = cpl ? static_cast<uint8_t>(cpl->slot) : 0;
    m.s_cpl_seq = cpl ? static_cast<uint8_t>(cpl->seq) : 0;
    uint32_t fired = 0;
    b.cycle([&] {
      fired = m.s_valid & m.s_ready;
      if (m.ord_in_hold) {
        Observed& o = ob.at(m.ord_in_id & kLowMask);
        o.held = true;
        o.hold = c;
      }
      if (m.ord_issue) {
        const size_t g = m.ord_issue_id & kLowMask;
        Observed& o = ob.at(g);
        o.issue = c;
        o.slot = m.ord_issue_slot;
        o.seq = m.ord_issue_seq;
        schedule_completion(pend, sc[g], o, c, g);
      }
      if (m.m_valid && m.m_first) ob.at(m.m_id & kLowMask).flit = c;
      if (cpl) {
        ob.at(cpl->req).cpl = c;
        pend.erase(pend.begin() + (cpl - pend.data()));
      }
    }, static_cast<uint64_t>(c), period_ps);
    for (int i = 0; i < kInits; ++i)
      if (fired & (1u << i)) ob[queue[static_cast<size_t>(i)][head[static_cast<size_t>(i)]++]].in = c;
  }
  if (!all_out(ob)) throw std::runtime_error("ordering: a request never left the send pipeline");
  return ob;
}

}  // namespace

std::vector<Observed> drive_ub_pipeline(const Config& cfg, const std::vector<Scripted>& sc, long max_cycles) {
  VerilatedBlock<Vub_tx_pipeline> b;
  Vub_tx_pipeline& m = b.model();
  configure(m, cfg);
  m.m_ready = 1;
  m.s_valid = 0;
  m.s_cpl_valid = 0;
  b.reset(4);
  std::vector<Observed> ob(sc.size());
  std::vector<PendingCompletion> pend;
  size_t next = 0;
  for (long c = 1; c < max_cycles && !all_out(ob); ++c) {
    m.s_valid = next < sc.size() && sc[next].offer_at <= c;
    if (m.s_valid) {
      const Scripted& s = sc[next];
      m.s_id = static_cast<uint32_t>(next);
      m.s_ctx = 0;
      m.s_load = 0;
      m.s_len = 64;         // a 64 B message: one packet, its payload with the request
      m.s_data_pkts = 1;
      m.s_ord_track = 1;
      m.s_ord_jetty = static_cast<uint16_t>(s.initiator);
      m.s_ord_mode = static_cast<uint8_t>(s.mode);
      m.s_ord_tag = static_cast<uint8_t>(s.tag);
      m.s_ord_fence = s.fence;
      m.s_ord_comp_order = 0;
      m.s_ord_rdat = s.rdat;
      m.s_ord_payload = 64;
    }
    const PendingCompletion* cpl = due_completion(pend, c);
    m.s_cpl_valid = cpl != nullptr;
    m.s_cpl_slot = cpl ? static_cast<uint8_t>(cpl->slot) : 0;
    m.s_cpl_seq = cpl ? static_cast<uint8_t>(cpl->seq) : 0;
    bool in_fire = false;
    b.cycle([&] {
      in_fire = m.s_valid && m.s_ready;
      if (m.ord_in_hold) {
        ob.at(m.ord_in_id).held = true;
        ob.at(m.ord_in_id).hold = c;
      }
      if (m.ord_issue) {
        Observed& o = ob.at(m.ord_issue_id);
        o.issue = c;
        o.slot = m.ord_issue_slot;
        o.seq = m.ord_issue_seq;
        schedule_completion(pend, sc[m.ord_issue_id], o, c, m.ord_issue_id);
      }
      if (m.m_err_valid) {
        ob.at(m.m_err_id).error = true;
        ob.at(m.m_err_id).error_code = m.m_err_code;
      }
      if (m.m_valid && m.m_first) ob.at(m.m_id).flit = c;
      if (cpl) {
        ob.at(cpl->req).cpl = c;
        pend.erase(pend.begin() + (cpl - pend.data()));
      }
    });
    if (in_fire) ob[next++].in = c;
  }
  if (!all_out(ob)) throw std::runtime_error("ordering: a request never left the UB send pipeline");
  return ob;
}

std::vector<Observed> drive_ub_multi(const Config& c, const std::vector<Scripted>& script, long max_cycles,
                                     const std::string& trace_path) {
  VerilatedBlock<Vub_tx_multi> b;
  if (!trace_path.empty()) b.open_trace(trace_path);
  configure(b.model(), c);
  return drive_multi(b, c.clock_period_fs() / 1000, script, max_cycles);
}

std::vector<Observed> drive_roce_multi(const Config& c, const std::vector<Scripted>& script, long max_cycles,
                                       const std::string& trace_path) {
  VerilatedBlock<Vroce_tx_multi> b;
  if (!trace_path.empty()) b.open_trace(trace_path);
  configure(b.model(), c);
  return drive_multi(b, c.clock_period_fs() / 1000, script, max_cycles);
}

}  // namespace ubsim
