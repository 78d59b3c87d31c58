// A block's stimulus: the value of every input port at every clock edge a
// bridge or driver evaluated, and the resets, in order. Recorded from any
// run with UBSIM_STIMULUS_DIR set (one file per block instance and process,
// <dir>/<instance>.<pid>.stim), replayed by the lockstep tests into two
// builds of a block (tests/lockstep.h): the restructured block and the
// block as it was must give the same outputs in every cycle.
//
// Format: a text header ("ubsim-stimulus 1 <model> <inputs>", then one line
// "<name> <bytes>" per input but clk and rst), then records: 'R' with the
// reset's edge count (uint32) or 'C', each followed by every input's bytes.
#pragma once
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "port_table.h"

namespace ubsim {

class StimulusWriter {
 public:
  StimulusWriter(const std::string& path, const char* model, const PortInfo* begin, const PortInfo* end);
  ~StimulusWriter();
  // The inputs when the block is reset (its cfg_* among them) and the reset's edges.
  void reset(int edges, void* model) { write('R', edges, model); }
  // The inputs of one clock edge, as driven with the clock low.
  void cycle(void* model) { write('C', 0, model); }

 private:
  void write(char kind, int edges, void* model);
  std::string path_;
  std::ofstream out_;
  std::vector<const PortInfo*> inputs_;
};

// Flushes every open stimulus file: a simulation child ends without
// unwinding (sim/cli/subprocess.cpp), so its writers are never destroyed.
void flush_stimulus_files();

class StimulusReader {
 public:
  explicit StimulusReader(const std::string& path);
  const std::string& model() const { return model_; }
  // Reads the next record; false at the end of the file.
  bool next();
  bool is_reset() const { return kind_ == 'R'; }
  int reset_edges() const { return edges_; }
  uint64_t records() const { return records_; }
  // Copies the record's inputs into `model` (ports [begin, end)); a recorded
  // input the model lacks, or of another size, is an error.
  void apply(void* model, const PortInfo* begin, const PortInfo* end);

 private:
  struct Input {
    std::string name;
    size_t bytes, offset;
  };
  std::string path_, model_;
  std::ifstream in_;
  std::vector<Input> inputs_;
  std::vector<uint8_t> record_;
  std::map<const PortInfo*, std::vector<const PortInfo*>> resolved_;   // per port table: the port of each input
  char kind_ = 0;
  int edges_ = 0;
  uint64_t records_ = 0;
};

}  // namespace ubsim
