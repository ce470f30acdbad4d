//===- RowSink.h - Rows on their way into their tables ---------*- C++ -*-===//
//
// A reader fills RowBatches with the rows of one function block at a time
// and hands each batch to a RowSink with the table it belongs to. The sink
// adds the batches to their tables in the order it got them, as
// RowTable::addBatch() would one after the other, either at once or, for
// large inputs, on a worker thread while the reader parses on: sorting and
// encoding rows is about a third of reading a text profile.
//
// Rows travel in packets of many function blocks: a batch of each kind that
// the blocks fill one after the other, and the row range of each block. The
// reader and the worker meet once per packet, not once per block, and the
// batches keep their buffers from packet to packet. At most a few packets
// exist, which bounds the rows in flight. The tables must keep their
// addresses until drain() returns, and the reader must not touch them
// before.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_ROWSINK_H
#define PROFKIT_IR_ROWSINK_H

#include "profkit/IR/RowTable.h"
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace profkit {

class RowSink {
public:
  /// The batches of one block: self costs, calls, jumps.
  static constexpr unsigned NumKinds = 3;

  /// With Threaded, a worker thread starts once the rows handed over fill a
  /// packet; smaller inputs never start one.
  explicit RowSink(bool Threaded);
  ~RowSink();
  RowSink(const RowSink &) = delete;
  RowSink &operator=(const RowSink &) = delete;

  /// The batch that collects rows of kind K; the rows added since the last
  /// flush() are the current block's. Valid until the next flush() or
  /// drain().
  RowBatch &batch(unsigned K) { return Filling->Batches[K]; }
  /// Sets the key widths of the batches; only valid after drain(), or
  /// before anything was added.
  void setKeyWidths(const unsigned (&Widths)[NumKinds]);

  /// Queues the rows of the current block for their tables, Tables[K] for
  /// kind K. Returns true when that handed a packet over (a time to ask for
  /// takeByteGrowth()).
  bool flush(RowTable *const (&Tables)[NumKinds]);
  /// Adds every queued batch to its table and waits until that is done.
  /// Returns false if a sum overflowed 64 bits (it then saturates).
  [[nodiscard]] bool drain();

  /// The growth of the tables' encoded bytes since the last call, as far as
  /// the rows have arrived there (for the memory limit).
  int64_t takeByteGrowth();

private:
  struct Block {
    RowTable *Table;
    unsigned Kind;
    uint32_t Begin, End; // Rows of Batches[Kind].
  };
  struct Packet {
    RowBatch Batches[NumKinds];
    std::vector<Block> Blocks;
    uint32_t BlockStart[NumKinds] = {}; // First row of the current block.
    bool Ok = true;
    int64_t ByteGrowth = 0;
    size_t words() const;
    void store();
  };

  void handOff(bool Wait);
  void work();

  bool Threaded;
  Packet *Filling;
  std::vector<std::unique_ptr<Packet>> Packets;

  // Shared with the worker, under Mutex.
  std::mutex Mutex;
  std::condition_variable Changed;
  std::deque<Packet *> Queue, Free;
  bool Busy = false, Stop = false;
  bool Ok = true;
  int64_t ByteGrowth = 0;
  std::thread Worker;
};

} // namespace profkit

#endif
