// FabricLink: one direction of a fabric link, with the output queue that
// feeds it. Frames queue in arrival order; the link serializes one at a
// time at its rate, and each arrives at the far device after the
// propagation delay, whole (store and forward). The queue holds at most
// `capacity` bytes (waiting and in serialization; 0: unbounded): a frame
// that does not fit is dropped, counted and handed to on_drop. The queue
// records its occupancy in bytes: the time-weighted mean, the maximum, the
// first drop, the last time it drained to at most one frame, and
// optionally the series of changes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm_utils/peq_with_get.h>

#include "frame.h"

namespace ubsim {

class FabricLink : public sc_core::sc_module {
 public:
  sc_core::sc_port<FrameIn> out;   // the device at the far end

  // far_port: the port of the far device this link arrives on.
  FabricLink(sc_core::sc_module_name name, double rate_Bps, uint64_t delay_fs, int far_port, bool record_series,
             uint64_t capacity = 0);
  // Marks data frames as they start serializing (a switch's queue).
  void set_ecn(const EcnPolicy& p);
  uint64_t marked_frames() const { return marked_frames_; }
  uint64_t first_mark_fs() const { return first_mark_fs_; }   // 0: none
  // A frame the full queue dropped (its owner recycles it).
  std::function<void(Frame&)> on_drop;
  uint64_t capacity() const { return capacity_; }
  uint64_t dropped_frames() const { return dropped_frames_; }
  uint64_t dropped_bytes() const { return dropped_bytes_; }
  uint64_t first_drop_fs() const { return first_drop_fs_; }     // 0: none
  uint64_t first_enqueue_fs() const { return first_enqueue_fs_; }
  // The last time the queue went from more than one frame to at most one
  // (0: it never held more than one).
  uint64_t drained_fs() const { return drained_fs_; }
  // A frame to send (from its device, at the current time).
  void send(Frame& f);
  // A frame for this queue that its switch's full shared buffer dropped:
  // counted with this queue's drops (and apart), handed to on_drop.
  void drop_shared(Frame& f);
  uint64_t shared_dropped_frames() const { return shared_dropped_frames_; }
  // A pause frame to send: next after the frame in serialization, ahead of
  // the queue, paused or not (outside the queue's capacity and occupancy).
  void send_control(Frame& f);
  // The far device paused this link (xoff) for quanta_fs (0: until
  // resumed), or resumed it: the frame in serialization finishes, no new
  // data frame starts while paused.
  void pause(bool xoff, uint64_t quanta_fs);
  // A data frame started serializing: its bytes, when its first and its last
  // byte reach the far device (a switch counting bytes as they arrive).
  std::function<void(uint64_t bytes, uint64_t head_fs, uint64_t tail_fs)> on_start;
  // A data frame finished serializing here (the sending device's accounting).
  std::function<void(Frame&)> on_departed;
  uint64_t paused_fs() const;            // time spent paused
  bool paused() const { return paused_; }
  uint64_t bytes_held() const { return level_; }   // data waiting and in serialization
  // Of them, the bytes of frames that entered its switch on port `in_port`.
  uint64_t bytes_from_port(int in_port) const;
  // Data frames waiting or in serialization.
  size_t frames_held() const { return queue_.size(); }
  // The same just before at_fs (not before the latest change): what an RTL
  // edge at at_fs samples, whether it is stepped ahead of that instant or in
  // it after the link's own activity there.
  size_t frames_held_before(uint64_t at_fs) const { return held_changed_fs_ >= at_fs ? held_before_ : queue_.size(); }
  uint64_t pauses_received() const { return pauses_received_; }
  uint64_t control_frames() const { return control_frames_; }

  double rate_Bps() const { return rate_Bps_; }
  uint64_t delay_fs() const { return delay_fs_; }
  uint64_t frames() const { return frames_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t busy_fs() const { return busy_fs_; }
  // First byte of the first frame on, last byte of the last frame off (0 if none).
  uint64_t first_start_fs() const { return first_start_fs_; }
  uint64_t last_end_fs() const { return last_end_fs_; }
  uint64_t max_queue_bytes() const { return std::max(max_bytes_, level_); }
  double mean_queue_bytes(uint64_t end_fs) const;
  // (time fs, bytes queued from then) at every change, if recorded.
  const std::vector<std::pair<uint64_t, uint64_t>>& series() const { return series_; }
  // Time bins of width_fs from 0 (the last one takes what comes later): per
  // bin the queue's largest occupancy, the data bytes serialized out, the
  // bytes dropped. Memory bounded by the count, whatever the run's length.
  struct Bins {
    uint64_t width_fs = 0;
    std::vector<uint64_t> queue_max, departed, dropped;
  };
  void record_bins(uint64_t width_fs, size_t count);
  // The bins with the queue's level carried over the bins nothing changed in.
  Bins bins() const;
  // Distinct flows that crossed it.
  size_t flows_seen() const { return flows_.size(); }

 private:
  void start_next(uint64_t now);
  void serialized();
  void deliver();
  void occupancy(uint64_t now, int64_t delta);

  const double rate_Bps_;
  const uint64_t delay_fs_;
  const int far_port_;
  const bool record_series_;
  const uint64_t capacity_;
  uint64_t dropped_frames_ = 0, dropped_bytes_ = 0, first_drop_fs_ = 0, first_enqueue_fs_ = 0, drained_fs_ = 0;
  uint64_t largest_frame_ = 0, shared_dropped_frames_ = 0;
  EcnPolicy ecn_;
  std::mt19937_64 ecn_rng_;
  uint64_t marked_frames_ = 0, first_mark_fs_ = 0;
  void count_drop(Frame& f, uint64_t now);
  bool enqueued_ = false;
  std::deque<Frame*> queue_;   // data; front: in serialization while busy_ and !current_control_
  // queue_'s size before the changes at held_changed_fs_ (the latest instant it changed)
  size_t held_before_ = 0;
  uint64_t held_changed_fs_ = 0;
  void note_held_change(uint64_t now) {
    if (now != held_changed_fs_) held_before_ = queue_.size(), held_changed_fs_ = now;
  }
  std::deque<Frame*> control_; // pause frames waiting
  Frame* current_ = nullptr;
  bool current_control_ = false;
  bool paused_ = false;
  uint64_t pause_until_fs_ = 0, paused_since_fs_ = 0, paused_total_fs_ = 0, pauses_received_ = 0, control_frames_ = 0;
  sc_core::sc_event resume_;
  void resume_expired();
  void start_if_idle(uint64_t now);
  bool busy_ = false;
  sc_core::sc_event serialized_;
  tlm_utils::peq_with_get<Frame> arrivals_;
  uint64_t frames_ = 0, bytes_ = 0, busy_fs_ = 0, first_start_fs_ = 0, last_end_fs_ = 0;
  uint64_t level_ = 0, max_bytes_ = 0, last_change_fs_ = 0;
  double area_ = 0;   // byte-fs
  std::vector<std::pair<uint64_t, uint64_t>> series_;
  std::set<uint32_t> flows_;
  size_t bin_of(uint64_t fs) const { return std::min<size_t>(fs / bins_.width_fs, bins_.queue_max.size() - 1); }
  Bins bins_;
  std::vector<uint64_t> bin_end_level_;   // the level after the bin's last change
  std::vector<bool> bin_touched_;
};

}  // namespace ubsim
