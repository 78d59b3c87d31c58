// RequestPool: Requests a component creates on its own (context refills,
// transport packets), each with its TLM extension, recycled instead of
// freed so a long run allocates only its peak number.
#pragma once
#include <memory>
#include <vector>

#include "request.h"

namespace ubsim {

class RequestPool {
 public:
  Request* acquire() {
    if (free_.empty()) {
      auto r = std::make_unique<Request>();
      auto* ext = new RequestExtension;
      ext->request = r.get();
      r->gp.set_extension(ext);   // owned by the payload
      free_.push_back(r.get());
      all_.push_back(std::move(r));
    }
    Request* r = free_.back();
    free_.pop_back();
    return r;
  }
  void release(Request* r) { free_.push_back(r); }

 private:
  std::vector<std::unique_ptr<Request>> all_;
  std::vector<Request*> free_;
};

}  // namespace ubsim
