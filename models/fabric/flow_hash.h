// The switches' ECMP hash: a keyed 64-bit mix of the header fields a switch
// reads (source, destination, the flow's entropy field, the destination
// port of the transport), the key being the hash seed and the switch.
// Not a CRC: a CRC is affine in its input, so a different seed (initial
// value) XORs the same constant onto every flow's hash and the same flows
// collide under every seed; a nonlinear mix gives each seed its own
// placement, as switches with per-seed hash functions do.
#pragma once
#include <cstdint>

#include "frame.h"

namespace ubsim {

// MurmurHash3's 64-bit finalizer (full avalanche).
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// The transport's well-known destination port (as RoCEv2's 4791): every
// flow carries it, so it adds nothing to the spread but is hashed as switches do.
inline constexpr uint32_t kTransportPort = 4792;

inline uint32_t ecmp_hash(uint32_t src, uint32_t dst, uint32_t entropy, uint64_t seed, uint32_t switch_id) {
  uint64_t h = mix64(seed + 0x9e3779b97f4a7c15ULL * (static_cast<uint64_t>(switch_id) + 1));
  h = mix64(h ^ (static_cast<uint64_t>(src) << 32 | dst));
  h = mix64(h ^ (static_cast<uint64_t>(entropy) << 16 | kTransportPort));
  return static_cast<uint32_t>(h >> 32);
}

inline uint32_t ecmp_hash(const Frame& f, uint64_t seed, uint32_t switch_id) {
  return ecmp_hash(f.src, f.dst, f.entropy, seed, switch_id);
}

}  // namespace ubsim
