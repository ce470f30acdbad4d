//===- RowSink.cpp - Rows on their way into their tables ------------------===//

#include "profkit/IR/RowSink.h"

using namespace profkit;

// A packet is handed over at about half a megabyte of row words: big enough
// that handing it over costs nothing next to storing it, small enough that
// the worker starts early and the rows in flight stay few.
static constexpr size_t WordsPerPacket = size_t(1) << 16;
// One being filled, one being stored, one waiting.
static constexpr size_t MaxPackets = 3;

size_t RowSink::Packet::words() const {
  size_t N = 0;
  for (const RowBatch &B : Batches)
    N += B.words();
  return N;
}

void RowSink::Packet::store() {
  for (const Block &B : Blocks) {
    size_t Before = B.Table->encodedBytes();
    Ok &= B.Table->addRows(Batches[B.Kind], B.Begin, B.End);
    ByteGrowth += int64_t(B.Table->encodedBytes()) - int64_t(Before);
  }
  Blocks.clear();
  for (unsigned K = 0; K != NumKinds; ++K) {
    Batches[K].clear();
    BlockStart[K] = 0;
  }
}

RowSink::RowSink(bool Threaded) : Threaded(Threaded) {
  Packets.push_back(std::make_unique<Packet>());
  Filling = Packets.back().get();
}

RowSink::~RowSink() {
  if (!Worker.joinable())
    return;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stop = true;
  }
  Changed.notify_all();
  Worker.join(); // After storing what is queued: the tables are still there.
}

void RowSink::setKeyWidths(const unsigned (&Widths)[NumKinds]) {
  for (unsigned K = 0; K != NumKinds; ++K)
    if (Filling->Batches[K].keyWidth() != Widths[K])
      Filling->Batches[K].setKeyWidth(Widths[K]);
}

bool RowSink::flush(RowTable *const (&Tables)[NumKinds]) {
  bool Full = false;
  for (unsigned K = 0; K != NumKinds; ++K) {
    RowBatch &B = Filling->Batches[K];
    uint32_t End = B.size();
    if (End != Filling->BlockStart[K]) {
      Filling->Blocks.push_back(
          Block{Tables[K], K, Filling->BlockStart[K], End});
      Filling->BlockStart[K] = End;
    }
    Full |= B.full();
  }
  if (!Full && Filling->words() < WordsPerPacket)
    return false;
  handOff(/*Wait=*/false);
  return true;
}

void RowSink::handOff(bool Wait) {
  unsigned Widths[NumKinds];
  for (unsigned K = 0; K != NumKinds; ++K)
    Widths[K] = Filling->Batches[K].keyWidth();
  if (Threaded && !Wait && !Worker.joinable())
    Worker = std::thread([this] { work(); });
  if (!Worker.joinable()) {
    Filling->store();
    Ok &= Filling->Ok;
    ByteGrowth += Filling->ByteGrowth;
    Filling->Ok = true;
    Filling->ByteGrowth = 0;
    return;
  }
  std::unique_lock<std::mutex> Lock(Mutex);
  Queue.push_back(Filling);
  Changed.notify_all();
  if (Wait)
    Changed.wait(Lock, [&] { return Queue.empty() && !Busy; });
  if (Free.empty() && Packets.size() < MaxPackets) {
    Packets.push_back(std::make_unique<Packet>());
    Filling = Packets.back().get();
  } else {
    Changed.wait(Lock, [&] { return !Free.empty(); });
    Filling = Free.front();
    Free.pop_front();
  }
  Lock.unlock();
  setKeyWidths(Widths);
}

bool RowSink::drain() {
  handOff(/*Wait=*/true);
  std::lock_guard<std::mutex> Lock(Mutex);
  bool Result = Ok;
  Ok = true;
  return Result;
}

int64_t RowSink::takeByteGrowth() {
  std::lock_guard<std::mutex> Lock(Mutex);
  int64_t Result = ByteGrowth;
  ByteGrowth = 0;
  return Result;
}

void RowSink::work() {
  std::unique_lock<std::mutex> Lock(Mutex);
  for (;;) {
    Changed.wait(Lock, [&] { return Stop || !Queue.empty(); });
    if (Queue.empty())
      return;
    Packet *P = Queue.front();
    Queue.pop_front();
    Busy = true;
    Lock.unlock();
    P->store();
    Lock.lock();
    Ok &= P->Ok;
    ByteGrowth += P->ByteGrowth;
    P->Ok = true;
    P->ByteGrowth = 0;
    Busy = false;
    Free.push_back(P);
    Changed.notify_all();
  }
}
