#include "segmenter.h"

namespace ubsim {

uint64_t next_packet_id() {
  static uint64_t next = uint64_t{1} << 31;
  return next++;
}

Request* Segmenter::packet(Request& m, uint32_t k) {
  Request* c = pool_.acquire();
  c->reset(m.route);
  c->hop = m.send_hop;   // the message itself may be further along by now
  c->times[c->hop] = m.times[m.send_hop];
  c->id = next_packet_id();
  c->verb = m.verb;
  c->size = m.size;
  c->ctx = m.ctx;
  c->local_ep = m.local_ep;
  c->remote_ep = m.remote_ep;
  c->ord_mode = m.ord_mode;
  c->ord_tag = m.ord_tag;
  c->issued_fs = m.issued_fs;
  c->parent = &m;
  c->home = &pool_;
  c->pkt = k;
  c->pkts = m.pkts;
  c->data_pkts = m.data_pkts;
  c->payload_bytes = packet_payload(m.size, mtu_, k);
  ++later_packets_;
  return c;
}

}  // namespace ubsim
