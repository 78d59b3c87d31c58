#include "initiator_app.h"

namespace ubsim {

InitiatorApp::InitiatorApp(sc_core::sc_module_name name, const Route& route, WorkloadConfig w)
    : StageComponent(name), route_(route), w_(w), record_(std::make_unique<LatencyRecord>()) {
  record_->hops.assign(route.hops.size(), HopSums{});
  SC_HAS_PROCESS(InitiatorApp);
  SC_METHOD(start);   // runs once at time 0
}

void InitiatorApp::start() {
  const int n = static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(w_.outstanding), w_.ops));
  for (int i = 0; i < n; ++i) {
    auto r = std::make_unique<Request>();
    auto* ext = new RequestExtension;
    ext->request = r.get();
    r->gp.set_extension(ext);   // owned by the payload, freed with it
    slots_.push_back(std::move(r));
  }
  for (auto& r : slots_) issue(*r);
  if (w_.ops == 0) sc_core::sc_stop();
}

void InitiatorApp::issue(Request& r) {
  r.reset(&route_);
  r.id = issued_++;
  r.verb = w_.verb;
  r.payload_bytes = w_.payload_bytes;
  r.ctx = 0;
  r.issued_fs = now_fs();
  // The first hop's arrival is the issue time; hand it over through the fabric.
  r.hop = 0;
  r.gp.set_address(static_cast<uint64_t>(route_.component[0]));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(r.gp, phase, delay);
}

void InitiatorApp::accept(Request& r) {
  r.completed_fs = now_fs();
  ++completed_;
  if (completed_ > w_.warmup_ops) {
    LatencyRecord& rec = *record_;
    ++rec.measured_ops;
    rec.total.add(r.completed_fs - r.issued_fs);
    for (size_t i = 0; i < r.times.size(); ++i) {
      const HopTimes& t = r.times[i];
      HopSums& s = rec.hops[i];
      const uint64_t measured = t.depart_fs - t.arrive_fs;
      const uint64_t waited = t.start_fs - t.arrive_fs;
      s.measured += measured;
      s.align += t.align_fs;
      s.serialize += t.serialize_fs;
      s.queue += waited - t.align_fs;
      s.service += measured - waited;
    }
  }
  if (on_complete) on_complete(r);
  if (issued_ < w_.ops) issue(r);
  else if (completed_ == w_.ops) sc_core::sc_stop();
}

void InitiatorApp::collect_stats(StatsTable& table) const {
  table.add(name(), "issued", static_cast<double>(issued_), "ops", "requests issued by the application");
  table.add(name(), "completed", static_cast<double>(completed_), "ops", "requests completed end to end");
}

}  // namespace ubsim
