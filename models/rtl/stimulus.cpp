#include "stimulus.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ubsim {

namespace {
std::vector<std::ofstream*>& open_streams() {
  static std::vector<std::ofstream*> streams;
  return streams;
}
}  // namespace

void flush_stimulus_files() {
  for (std::ofstream* s : open_streams()) s->flush();
}

StimulusWriter::StimulusWriter(const std::string& path, const char* model, const PortInfo* begin,
                               const PortInfo* end)
    : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
  for (const PortInfo* p = begin; p != end; ++p)
    if (p->input && std::strcmp(p->name, "clk") != 0 && std::strcmp(p->name, "rst") != 0) inputs_.push_back(p);
  out_ << "ubsim-stimulus 1 " << model << ' ' << inputs_.size() << '\n';
  for (const PortInfo* p : inputs_) out_ << p->name << ' ' << p->bytes << '\n';
  if (!out_) throw std::runtime_error("cannot write the stimulus file " + path);
  open_streams().push_back(&out_);
}

StimulusWriter::~StimulusWriter() {
  auto& s = open_streams();
  s.erase(std::remove(s.begin(), s.end(), &out_), s.end());
  out_.close();   // (a failed write is reported by write(); nothing to report from a destructor)
}

void StimulusWriter::write(char kind, int edges, void* model) {
  out_.put(kind);
  if (kind == 'R') {
    const uint32_t e = static_cast<uint32_t>(edges);
    out_.write(reinterpret_cast<const char*>(&e), sizeof e);
  }
  for (const PortInfo* p : inputs_) out_.write(static_cast<const char*>(p->addr(model)), static_cast<std::streamsize>(p->bytes));
  if (!out_) throw std::runtime_error("cannot write the stimulus file " + path_ + " (disk full?)");
}

StimulusReader::StimulusReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
  std::string magic;
  int version = 0;
  size_t n = 0;
  if (!(in_ >> magic >> version >> model_ >> n) || magic != "ubsim-stimulus" || version != 1)
    throw std::runtime_error(path + ": not a stimulus file");
  size_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    Input in;
    if (!(in_ >> in.name >> in.bytes)) throw std::runtime_error(path + ": truncated header");
    in.offset = offset;
    offset += in.bytes;
    inputs_.push_back(in);
  }
  in_.get();   // the header's last newline
  record_.resize(offset);
}

bool StimulusReader::next() {
  const int k = in_.get();
  if (k == std::char_traits<char>::eof()) return false;
  kind_ = static_cast<char>(k);
  edges_ = 0;
  if (kind_ == 'R') {
    uint32_t e = 0;
    in_.read(reinterpret_cast<char*>(&e), sizeof e);
    edges_ = static_cast<int>(e);
  } else if (kind_ != 'C') {
    throw std::runtime_error(path_ + ": record " + std::to_string(records_) + " is neither a reset nor a cycle");
  }
  in_.read(reinterpret_cast<char*>(record_.data()), static_cast<std::streamsize>(record_.size()));
  if (!in_) throw std::runtime_error(path_ + ": truncated record " + std::to_string(records_));
  ++records_;
  return true;
}

void StimulusReader::apply(void* model, const PortInfo* begin, const PortInfo* end) {
  auto it = resolved_.find(begin);
  if (it == resolved_.end()) {
    std::vector<const PortInfo*> ports;
    for (const Input& in : inputs_) {
      const PortInfo* found = nullptr;
      for (const PortInfo* p = begin; p != end; ++p)
        if (p->input && in.name == p->name) found = p;
      if (!found) throw std::runtime_error(path_ + ": recorded input '" + in.name + "' is not a port of the model");
      if (found->bytes != in.bytes)
        throw std::runtime_error(path_ + ": input '" + in.name + "' recorded with " + std::to_string(in.bytes) +
                                 " bytes, the model has " + std::to_string(found->bytes));
      ports.push_back(found);
    }
    it = resolved_.emplace(begin, std::move(ports)).first;
  }
  for (size_t i = 0; i < inputs_.size(); ++i)
    std::memcpy(it->second[i]->addr(model), record_.data() + inputs_[i].offset, inputs_[i].bytes);
}

}  // namespace ubsim
