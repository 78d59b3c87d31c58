#include "params.h"

#include <limits>

#include "rtl_variant.h"

namespace ubsim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTimeMax = 1e15;  // 1 s, in fs
}  // namespace

const std::vector<ParamDef>& param_table() {
  // Pipeline depth limits depend on the RTL's structural minimum (checked
  // against the RTL itself when a configuration is resolved) and the build
  // variant's longest chain.
  const double depth_max = (1 << rtl_variant::kDepthBits) - 1;
  static const std::vector<ParamDef> table = {
      {"clock", Unit::Frequency, "322MHz", 1, 1e12, "all", "controller / NIC clock (RTL pipelines)"},
      {"bus.traversal", Unit::Time, "30ns", 0, kTimeMax, "latency", "one on-chip bus transaction (posted write, or read request + response)"},
      {"bus.outstanding", Unit::Count, "64", 1, 4096, "latency, load, throughput", "on-chip bus: transactions of a node's controller in flight (like AXI IDs): each read of memory holds one until its data is back, each posted write until the memory accepted it"},
      {"pcie.doorbell", Unit::Time, "150ns", 0, kTimeMax, "latency", "PCIe doorbell MMIO write, unloaded (the device's processing is what the link leaves of it)"},
      {"pcie.dma_read", Unit::Time, "500ns", 0, kTimeMax, "latency", "PCIe DMA read round trip of 64 B incl. host-cache access, unloaded (the host's read latency is what the link leaves of it)"},
      {"pcie.dma_write", Unit::Time, "250ns", 0, kTimeMax, "latency", "PCIe DMA write of 64 B (posted) until the host has consumed it, unloaded"},
      {"nic.cqe_after", Unit::Choice, "visible", 0, 1, "latency, load, throughput", "the PCIe NIC writes a read's completion record after its payload write is visible (visible) or right behind it, relying on posted-write ordering (ordered)", "", false, {"visible", "ordered"}},
      {"pcie.propagation", Unit::Time, "100ns", 0, kTimeMax, "latency, load, throughput, pcie", "PCIe: one-way propagation and PHY latency of a TLP (the host's read latency is what pcie.dma_read leaves)"},
      {"pcie.tlp_overhead", Unit::Bytes, "24B", 0, 4096, "latency, load, throughput, pcie", "PCIe: bytes per TLP beyond its payload (header, framing, sequence number, LCRC, padding)"},
      {"pcie.max_payload", Unit::Bytes, "256B", 64, 4096, "latency, load, throughput, pcie", "PCIe: largest payload of a write or completion TLP (MPS)", "", true},
      {"pcie.max_read_request", Unit::Bytes, "512B", 64, 4096, "latency, load, throughput, pcie", "PCIe: largest read request (MRRS); a longer read is several requests", "", true},
      {"pcie.rcb", Unit::Bytes, "64B", 64, 128, "latency, load, throughput, pcie", "PCIe: read completion boundary: completions are split at its multiples", "", true},
      {"pcie.tags", Unit::Count, "256", 1, 4096, "latency, load, throughput, pcie", "PCIe: the device's tags, one per outstanding read request"},
      {"pcie.np_credits", Unit::Count, "256", 1, 4096, "latency, load, throughput, pcie", "PCIe: the host's non-posted credits, one per outstanding read request (held until its completions return)"},
      {"pcie.p_credits", Unit::Count, "256", 1, 4096, "latency, load, throughput, pcie", "PCIe: the host's posted credits, one per posted TLP until the host consumed it and the update is back"},
      {"wire.latency", Unit::Time, "100ns", 0, kTimeMax, "latency", "wire propagation, one way"},
      {"wire.rate", Unit::Rate, "400Gbit/s", 1, kInf, "latency", "link rate per direction (serialization)"},
      {"dram.row_hit", Unit::Time, "30ns", 0, kTimeMax, "latency", "DRAM access, row hit (payload)"},
      {"dram.row_miss", Unit::Time, "70ns", 0, kTimeMax, "latency", "DRAM access, row miss (context refill)"},
      {"dram.occupancy", Unit::Time, "5ns", 0, kTimeMax, "latency", "time one access holds the DRAM device"},
      {"bus.bandwidth", Unit::Rate, "512Gbit/s", 1, kInf, "latency", "on-chip bus data rate per direction: every transfer's bytes occupy its direction for bytes / rate (a 64 B transaction takes bus.traversal unloaded)"},
      {"dram.bandwidth", Unit::Rate, "409.6Gbit/s", 1, kInf, "latency", "DRAM data rate: B > 64 bytes take (B - 64) / rate beyond the access latency, holding the device as long"},
      {"pcie.bandwidth", Unit::Rate, "252Gbit/s", 1, kInf, "latency", "PCIe data rate per direction after encoding (Gen4 x16): every TLP (payload + pcie.tlp_overhead) is serialized at it"},
      {"sw.submit", Unit::Time, "50ns", 0, kTimeMax, "latency", "software: library submit"},
      {"sw.build_descriptor", Unit::Time, "30ns", 0, kTimeMax, "latency", "software: build request descriptor"},
      {"sw.cq_poll_pcie", Unit::Time, "70ns", 0, kTimeMax, "latency", "software: completion-queue poll, PCIe NIC (CQE in host memory)"},
      {"sw.cq_poll_bus", Unit::Time, "5ns", 0, kTimeMax, "latency", "software: completion-queue poll, bus controller"},
      {"sw.lib_poll", Unit::Time, "30ns", 0, kTimeMax, "latency", "software: library poll"},
      {"sw.seq_alloc", Unit::Time, "50ns", 0, kTimeMax, "latency", "software: in-order sequence-number allocation (RoCE RC)"},
      {"pipeline.pcie_nic", Unit::Cycles, "9", 0, depth_max, "latency", "NIC pipeline traversal, PCIe NIC (input handshake to first flit out)"},
      {"pipeline.ub_async", Unit::Cycles, "25", 0, depth_max, "latency", "controller pipeline traversal, UB async path"},
      {"pipeline.ub_load", Unit::Cycles, "8", 0, depth_max, "latency", "controller pipeline traversal, UB Load/Store path"},
      {"transport.header_bytes", Unit::Bytes, "32B", 0, 4096, "latency", "transport + transaction header bytes of every packet on the wire"},
      {"transport.mtu", Unit::Bytes, "4096B", 64, 65536, "latency", "largest packet payload"},
      {"workload.ops", Unit::Count, "1000", 1, 1e12, "latency", "requests per path"},
      {"workload.outstanding", Unit::Count, "1", 1, 65536, "latency", "closed loop: requests kept in flight (1 = sequential); open loop: send-queue depth"},
      {"workload.rate", Unit::OpRate, "0ops/s", 0, 1e12, "latency, load", "offered load of an open-loop initiator (0 = closed loop)"},
      {"workload.poisson", Unit::Bool, "true", 0, 1, "latency, load", "open loop: Poisson arrivals (false = evenly spaced)"},
      {"workload.warmup", Unit::Count, "0", 0, 1e12, "latency, load", "requests completed before statistics start"},
      {"workload.size", Unit::Bytes, "64B", 1, 1073741824, "latency",
       "message bytes of each read or write (a message leaves as ceil(size / transport.mtu) packets; at most 1 GiB)"},
      {"host.cores", Unit::Count, "1", 1, 64, "latency, load", "CPU cores submitting on node A, each with its own Jetty / QP; a request's software stages run on its core (requests go to the cores in turn)"},
      {"slots.count", Unit::Count, "1024", 1, 65536, "latency, load, throughput, slots", "node A's request slots, shared by its cores: one is taken at submit and freed when software has handled the completion; a submitter finding none waits (slot wait). ub-load uses core.outstanding_loads instead"},
      {"core.outstanding_loads", Unit::Count, "16", 1, 65536, "latency, load, throughput", "ub-load: a core's outstanding-miss buffers, its slots (a Load waits for a free one)"},
      {"slots.submit_interval", Unit::Time, "0ns", 0, kTimeMax, "latency, slots", "node A submits at most one request per interval (0 = no limit)"},
      {"sw.cq_batch", Unit::Count, "0", 0, 65536, "latency, load, throughput, slots", "completion handling: 0 = each completion as it comes; K = up to K completions at every multiple of sw.cq_period (a slot is freed when its completion is handled)"},
      {"sw.cq_period", Unit::Time, "20us", 1, kTimeMax, "latency, load, throughput, slots", "batched completion handling: the handler's period (sw.cq_batch > 0)"},
      {"sw.wr_per_doorbell", Unit::Count, "1", 1, 4096, "latency, load, throughput", "pcie-nic: work requests per doorbell; a core rings once it has posted this many (or has no more in submission), and the NIC fetches their descriptors in one DMA read (the software stages stay per request)"},
      {"slots.ops", Unit::Count, "16", 1, 1000000, "slots", "the slot-release experiment's operations"},
      {"slots.size", Unit::Bytes, "8KiB", 1, 1073741824, "slots", "the slot-release experiment's message bytes per operation"},
      {"workload.endpoints", Unit::Count, "0", 0, 4096, "latency, load, ctx-cache", "all-to-all: N local endpoints on A each reaching N remote ones on B, in the order that keeps every context live (0 = one pair)"},
      {"cache.enabled", Unit::Bool, "true", 0, 1, "latency, load, ctx-cache", "model the context caches (false: every record is always on chip)"},
      {"cache.ub_entries", Unit::Count, "2048", 1, rtl_variant::kCacheMaxEntries, "latency, load, ctx-cache", "UB Jetty/TP-channel state cache entries", "UBSIM_RTL_CACHE_ENTRIES"},
      {"cache.roce_entries", Unit::Count, "512", 1, rtl_variant::kCacheMaxEntries, "latency, load, ctx-cache", "RoCE QP-context cache entries", "UBSIM_RTL_CACHE_ENTRIES"},
      {"cache.grant_fifo", Unit::Count, "16", 1, 64, "latency, load, ctx-cache", "grant FIFO of each pipeline's bus interface: a request's context-cache lookup is issued only with a free entry (at most 64: a record's pins then stay below the cache's pin maximum)"},
      {"cache.ub_ways", Unit::Count, "0", 0, 65536, "latency, load, ctx-cache", "UB cache associativity (0 = fully associative, true LRU)"},
      {"cache.roce_ways", Unit::Count, "0", 0, 65536, "latency, load, ctx-cache", "RoCE cache associativity (0 = fully associative, true LRU)"},
      {"cache.bytes", Unit::Bytes, "256KiB", 1, 1e12, "ctx-cache", "on-chip state budget of the byte model (derived overflow points)"},
      {"record.jetty", Unit::Bytes, "20B", 0, 65536, "ctx-cache", "Jetty record bytes"},
      {"record.segment", Unit::Bytes, "32B", 0, 65536, "ctx-cache", "registered memory segment record bytes"},
      {"record.tp_channel", Unit::Bytes, "56B", 0, 65536, "ctx-cache", "TP-channel record bytes"},
      {"record.qp_context", Unit::Bytes, "512B", 0, 65536, "ctx-cache", "RoCE QP context bytes"},
      {"ctx_cache.ops", Unit::Count, "1000", 1, 1e9, "ctx-cache", "measured reads per point (after warm-up)"},
      {"ctx_cache.max_warmup", Unit::Count, "5000", 0, 1e9, "ctx-cache", "warm-up reads per point: one pass over every context, capped here (a pass longer than the cache misses on every access anyway)"},
      {"loss.data", Unit::Ratio, "0", 0, 1, "latency, load, throughput, loss-paths", "probability that a data packet (request or response) on the node-to-node wire is lost; above 0 the transport engines run inside the paths (transport.in_paths)"},
      {"transport.in_paths", Unit::Bool, "false", 0, 1, "latency, load, throughput, loss-paths", "the transport inside the paths: every packet crossing the node-to-node wire goes through the verilated SACK engine of its TP channel (UB) or the GoBackN engine of its QP (PCIe NIC) and the lossy wire (on whenever loss.data, loss.ack, loss.duplicate or loss.reorder is above 0); off, the wire is lossless and has no transport engines"},
      {"transport.mode", Unit::Choice, "sack", 0, 1, "latency, load, throughput, loss-paths", "the UB controller's transport inside the paths: selective acks (sack) or GoBackN (gbn); the PCIe NIC's is GoBackN", "", false, {"sack", "gbn"}},
      {"loss.messages", Unit::Count, "2000", 1, 1e7, "loss", "messages per point (each ceil(workload.size / MTU) packets)"},
      {"loss.wire_latency", Unit::Time, "1us", 0, kTimeMax, "loss", "one-way propagation of the loss experiment's link (the latency experiments use wire.latency)"},
      {"loss.ack", Unit::Ratio, "-1", -1, 1, "loss, loss-paths, latency", "probability that an ack/SACK packet is lost (-1: as the data packets: loss.data in the paths, --loss in the engine-only experiment)"},
      {"loss.duplicate", Unit::Ratio, "0", 0, 1, "loss, loss-paths, latency", "probability that a packet is delivered twice"},
      {"loss.reorder", Unit::Ratio, "0", 0, 1, "loss, loss-paths, latency", "probability that a packet is delayed at random (reordering)"},
      {"loss.reorder_delay", Unit::Time, "500ns", 0, kTimeMax, "loss", "largest extra delay of a reordered packet"},
      {"loss.first_psn", Unit::Count, "0", 0, 16777215, "loss", "PSN of the first packet (start near 2^24 to exercise wrap-around)"},
      {"sack.window", Unit::Count, "1024", 128, rtl_variant::kSackMaxWindow, "loss", "receiver out-of-order window (PSNs)", "UBSIM_RTL_SACK_MAX_WIN"},
      {"watchdog.span", Unit::Time, "0ns", 0, kTimeMax, "every simulating run", "no-progress watchdog: a run with no request completing and no block handing anything on for this long, while a block holds work, ends with exit status 4 (0: 10 x the longest latency or timer the configuration can arm, at least 10 us)"},
      {"sack.reorder_limit", Unit::Bytes, std::to_string(rtl_variant::kSackReorderMax) + "B", 0, rtl_variant::kSackReorderMax, "loss, loss-paths", "the SACK receiver's reorder limit: payload bytes it holds after a hole; a packet beyond it is dropped (counted) and resent, the next expected PSN always kept", "UBSIM_RTL_SACK_REORDER_MAX"},
      {"sack.reorder_threshold", Unit::Count, "0", 0, rtl_variant::kSackMaxWindow, "loss, loss-paths, multipath", "fast retransmit resends a hole only when a PSN more than this many above it has been SACKed (0: any later PSN; over paths of different delays a late packet is not taken for lost)", "UBSIM_RTL_SACK_MAX_WIN"},
      {"sack.ack_path", Unit::Choice, "fastest", 0, 1, "multipath", "which of several paths the SACK receiver's acks take: the fastest, or the path of the newest data packet the ack covers (data: an ack is as late as the data it answers)", "", false, {"fastest", "data"}},
      {"multipath.paths", Unit::Count, "1", 1, 8, "latency, loss-paths, multipath", "paths between the two nodes for the transport inside the paths: the sending engine spreads its packets over them round robin (its path_select), path p's propagation wire.latency + p x multipath.delay_step, each its own link at wire.rate; lossless but for --drop"},
      {"multipath.delay_step", Unit::Time, "0ns", 0, kTimeMax, "latency, loss-paths, multipath", "what each further path adds to wire.latency (multipath.paths)"},
      {"sack.rto", Unit::Time, "20us", 1, kTimeMax, "loss", "retransmit timeout, first try"},
      {"sack.rto_backoff", Unit::Ratio, "2", 1, 8, "loss", "timeout multiplier per retry (the engine shifts: 1, 2, 4 or 8)", "", true},
      {"sack.max_retries", Unit::Count, "7", 0, 15, "loss", "retries before the request fails (the engine's 4-bit retry counter)"},
      {"sack.probe_after", Unit::Time, "0ns", 0, kTimeMax, "loss, loss-paths, latency", "tail-loss probe (SACK mode): with packets outstanding and no ack or transmission for this long, resend the newest outstanding packet once (a few round trips; 0 = off)"},
      {"sack.fast_retransmit", Unit::Bool, "true", 0, 1, "loss", "resend a hole as soon as a SACK reports it"},
      {"fabric.ecmp", Unit::Choice, "hash", 0, 1, "ecmp, fabric, latency over a topology", "how a switch picks among equal-cost ports: a keyed hash of each packet's header fields (hash: a flow keeps its port), or each new flow the next port in turn (flow_rr: the placement a central scheduler would make)", "", false, {"hash", "flow_rr"}},
      {"fabric.buffer", Unit::Bytes, "0B", 0, 1e15, "fabric, congestion", "every switch output queue's capacity (waiting + in serialization), unless its [[topology.link]] gives a buffer; 0: unbounded (a node's own queue never drops)"},
      {"fabric.shared_buffer", Unit::Bytes, "0B", 0, 1e15, "fabric, latency over a topology", "each switch's shared buffer: the bytes all its output queues may hold together; a packet that would pass it is dropped (counted at the queue it was for); 0: no shared limit (each queue's own capacity only)"},
      {"fabric.ecn", Unit::Bool, "false", 0, 1, "congestion, fabric", "ECN marking on every switch output queue (RED-like, as a packet leaves the queue): the receiver returns a congestion notification (a 64 B frame of its own) to the marked flow's source"},
      {"fabric.ecn_kmin", Unit::Bytes, "32KiB", 0, 1e15, "congestion, fabric", "ECN: queue bytes at or below which nothing is marked"},
      {"fabric.ecn_kmax", Unit::Bytes, "256KiB", 1, 1e15, "congestion, fabric", "ECN: queue bytes at or above which every packet is marked"},
      {"fabric.ecn_pmax", Unit::Ratio, "1", 0, 1, "congestion, fabric", "ECN: the marking probability just below fabric.ecn_kmax (linear from fabric.ecn_kmin)"},
      {"limiter.decrease", Unit::Ratio, "0.5", 0, 1, "congestion", "the rate limiter's cut: the rate times this on a notification (the RTL's cfg_decrease / 256)"},
      {"limiter.interval", Unit::Time, "50us", 0, kTimeMax, "congestion", "the rate limiter acts on at most one notification per this time (later ones are counted)"},
      {"limiter.rate_min", Unit::Rate, "1Gbit/s", 0, kInf, "congestion", "the rate limiter never cuts below this"},
      {"limiter.recover_period", Unit::Time, "0ns", 0, kTimeMax, "congestion", "the rate limiter adds limiter.recover_step every this long without a cut (0: no recovery)"},
      {"limiter.recover_step", Unit::Rate, "8Gbit/s", 0, kInf, "congestion", "what each recovery step adds, up to the line rate"},
      {"limiter.controllers", Unit::Bool, "false", 0, 1, "latency over a topology, congestion", "over a fabric: each controller's packets pass the verilated rate limiter between its send pipeline and its link (its m_ready low while the limiter holds one), cut by the congestion notifications (CNP) its peer returns for ECN-marked packets (fabric.ecn)"},
      {"limiter.burst", Unit::Bytes, "8KiB", 1, 4294967295, "congestion", "the rate limiter's byte budget ceiling (what may leave back to back after an idle stretch)"},
      {"deadlock.slots", Unit::Count, "8", 1, 1024, "deadlock", "receive data slots per node: an incoming read request keeps one (with the data it read) until its response has left, an incoming response until the host took its data"},
      {"deadlock.reserved_response_slots", Unit::Count, "0", 0, 1023, "deadlock", "of the slots, how many only responses may take"},
      {"deadlock.response_channel", Unit::Bool, "false", 0, 1, "deadlock", "responses travel on a channel of their own with their own buffers (not the shared slots)"},
      {"deadlock.reads", Unit::Count, "64", 1, 1000000, "deadlock", "reads each node makes of the other's memory"},
      {"deadlock.outstanding", Unit::Count, "16", 1, 4096, "deadlock", "reads each node has in flight at once"},
      {"deadlock.read_bytes", Unit::Bytes, "4096B", 1, 65536, "deadlock", "bytes each read returns"},
      {"deadlock.writes", Unit::Count, "64", 0, 1000000, "deadlock", "writes each node makes to the other's memory, interleaved with its reads (a write request holds a data slot at its target until its ack, a header-only response, has one of its own)"},
      {"deadlock.write_bytes", Unit::Bytes, "64B", 1, 65536, "deadlock", "bytes each write carries (a 64 B store; at 4 KiB the writes on the link pace the requests below what fills the pool, and the default run completes)"},
      {"fabric.pause", Unit::Bool, "false", 0, 1, "fabric", "link-level pause in the switches (PFC-like, one priority): a port holding more than fabric.pause_xoff pauses its upstream link until it is back to fabric.pause_xon"},
      {"fabric.pause_xoff", Unit::Bytes, "16KiB", 1, 1e15, "fabric, congestion", "bytes a switch holds for one ingress port (fabric.pause_scope = port) or in all (switch) before it pauses the link into it"},
      {"fabric.pause_xon", Unit::Bytes, "8KiB", 0, 1e15, "fabric, congestion", "bytes held for that port (or in all) at or below which it resumes the link"},
      {"fabric.pause_scope", Unit::Choice, "port", 0, 1, "fabric, congestion", "what a switch's XOFF and XON count: the bytes held per ingress port, each port pausing its own upstream (port); or the bytes it holds in all, every ingress port holding bytes paused at once and all resumed together (switch: a shared buffer's pause)", "", false, {"port", "switch"}},
      {"fabric.pause_quanta", Unit::Time, "0ns", 0, kTimeMax, "fabric, congestion", "how long a pause lasts unless refreshed (the switch refreshes every half quantum while the port stays above XON); 0: until resumed"},
      {"fabric.hash_seed", Unit::Count, "1", 0, 18446744073709551615.0, "ecmp, fabric, latency over a topology", "the switches' ECMP hash seed (64 bits; ecmp counts seeds from it)"},
      {"seed", Unit::Count, "1", 0, 18446744073709551615.0, "all", "random seed of every stochastic model (64 bits)"},
      {"path.pcie-nic.read", Unit::Routes, "(built in)", 0, 0, "latency", "stages of a read on the PCIe-NIC path, in order (NODE:op[*][|label]; * = per packet)"},
      {"path.pcie-nic.write", Unit::Routes, "(built in)", 0, 0, "latency", "stages of a write on the PCIe-NIC path"},
      {"path.ub-async.read", Unit::Routes, "(built in)", 0, 0, "latency", "stages of a read on the UB async path"},
      {"path.ub-async.write", Unit::Routes, "(built in)", 0, 0, "latency", "stages of a write on the UB async path"},
      {"path.ub-load.read", Unit::Routes, "(built in)", 0, 0, "latency", "stages of a Load on the UB Load/Store path"},
      {"path.ub-load.write", Unit::Routes, "(built in)", 0, 0, "latency", "stages of a Store on the UB Load/Store path"},
  };
  return table;
}

const std::string* removed_param_hint(const std::string& key) {
  // Keys of earlier versions whose value is now a property of the RTL:
  // a build option (rtl/blocks.json) and a variant (rtl/variants.toml).
  static const std::vector<std::pair<std::string, std::string>> removed = {
      {"ub.tpc_read_beats",
       "no longer a runtime key: a TP-channel lookup reads ceil(56 B / context-RAM port) words, so the port width "
       "sets it (build option UBSIM_RTL_CTX_PORT_BYTES; variant ctx-port-64 in rtl/variants.toml)"},
      {"roce.qpc_read_latency",
       "no longer a runtime key: the read latency is the QP-context RAM macro's (build option "
       "UBSIM_RTL_CTX_RAM_LATENCY; variant qpc-lat-1 in rtl/variants.toml)"},
      {"workload.payload", "renamed: workload.size (the message's bytes; --size on the command line)"},
      {"loss.message_bytes",
       "renamed: workload.size (--size; the loss experiment takes 4 KiB when it is not set; a message above "
       "transport.mtu is several packets)"},
      {"bus.occupancy",
       "no longer a key: the on-chip bus moves every transfer's bytes at bus.bandwidth per direction, with at most "
       "bus.outstanding transactions in flight"},
      {"pcie.occupancy",
       "no longer a key: the PCIe link serializes every TLP (payload + pcie.tlp_overhead) at pcie.bandwidth, with "
       "tags and credits (pcie.tags, pcie.np_credits, pcie.p_credits)"},
      {"roce.qpc_turnaround",
       "no longer a runtime key: the write-to-read turnaround is the QP-context RAM macro's (build option "
       "UBSIM_RTL_CTX_RAM_TURNAROUND)"},
  };
  for (const auto& [k, hint] : removed)
    if (k == key) return &hint;
  return nullptr;
}

const ParamDef* find_param(const std::string& key) {
  for (const auto& p : param_table())
    if (p.key == key) return &p;
  return nullptr;
}

}  // namespace ubsim
