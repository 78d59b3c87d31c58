// Paths as compositions of stages. Each path/verb has a default route (the
// spec's stage order); a config file may replace it ("path.<id>.<verb>").
#pragma once
#include <map>
#include <string>
#include <vector>

#include "stage.h"

namespace ubsim {

extern const std::vector<std::string> kPathIds;   // pcie-nic, ub-async, ub-load

// Default route text of a path and verb ("read" / "write").
std::vector<std::string> default_route(const std::string& path, const std::string& verb);

// Parses "A:pcie.dma_read|label"; on error returns false and sets error.
bool parse_hop(const std::string& text, HopSpec& hop, std::string& error);

// Batched completion handling: inserts the completion batch wait before the
// route's completion handling (its first completion-software stage on node A
// after the last wire crossing). False when the route has none (a Load
// completes in the core).
bool add_completion_batch_wait(std::vector<HopSpec>& hops);

// Doorbell batching: inserts the doorbell batch wait before node A's
// doorbell write that a descriptor fetch follows; returns the fetch's hop
// index afterwards (-1: the route rings no doorbell).
int add_doorbell_batch_wait(std::vector<HopSpec>& hops);

// A reference table of docs/ (key,number[,...] per line): the first column ->
// the number in the second; comments, the header and malformed rows are
// skipped. The published simulator's read latencies (docs/published_reference.csv,
// spec §4) and the recorded bench speeds (docs/bench_reference.csv); never
// used by the model.
std::map<std::string, double> load_reference_csv(const std::string& csv_path);

}  // namespace ubsim
