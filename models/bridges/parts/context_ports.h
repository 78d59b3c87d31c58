// What a pipeline bridge and its node's context cache see of each other:
// the cache grants a pipeline's lookups (GrantSink), the pipeline's context
// RAM is the cache's data array (ContextDataArray), and the pipeline asks
// and releases records (ContextCacheService). Interfaces, so a bridge part
// can be tested against a fake neighbour.
#pragma once
#include <cstdint>

#include "context_memory.h"
#include "request.h"

namespace ubsim {

class GrantSink {
 public:
  virtual ~GrantSink() = default;
  // The cache grants request g.id at at_fs (a clock edge, >= now).
  virtual void grant(const CtxGrant& g, uint64_t at_fs) = 0;
};

class ContextDataArray {
 public:
  virtual ~ContextDataArray() = default;
  // A refilled record for entry `entry` arrives at at_fs (>= now).
  virtual void fill(uint32_t entry, const RecordBits& record, uint64_t at_fs) = 0;
  // Whether the entry's record changed since its fill, and its next PSN now
  // (what an eviction writes back).
  virtual bool entry_dirty(uint32_t entry) const = 0;
  virtual uint32_t entry_psn(uint32_t entry) const = 0;
};

class ContextCacheService {
 public:
  virtual ~ContextCacheService() = default;
  // The records of r are looked up at at_fs (>= now: r's arrival, which may
  // be annotated ahead); the grant goes to `sink`.
  virtual void lookup(const Request& r, GrantSink* sink, uint64_t at_fs) = 0;
  // The holder is done with the records of grant g (at at_fs >= now).
  virtual void release(const CtxGrant& g, uint64_t at_fs) = 0;
  virtual Stack stack() const = 0;
  virtual NodeId node() const = 0;
};

}  // namespace ubsim
