//===- CallgrindWriter.cpp - Writing the callgrind format ----------------===//
//
// Writes what valgrind's callgrind writes, in a form callgrind_annotate and
// KCachegrind read: `event:` lines before `events:` (callgrind_annotate ends
// the header at `events:`), name compression in callgrind's three shared id
// tables, subposition compression relative to the last self cost line, jcnd=
// in valgrind's followed/executed form, and `totals:` at the end of each part.
//
// Lines are formatted (CallgrindFormatter.cpp) straight into a large buffer
// that goes to the stream in big writes. Large parts are formatted on several
// threads, in slices of functions; the ids of names, given out in order of
// first use, are filled in as the slices are put together in order.
//
//===----------------------------------------------------------------------===//

#include "CallgrindFormatter.h"
#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Threads.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace profkit;
using namespace profkit::callgrindwriter;
using namespace llvm;

/// The bytes of a function's rows, which its text takes about in proportion.
static size_t rowBytes(const FunctionData &FD) {
  return FD.Self.encodedBytes() + FD.calls().encodedBytes() +
         FD.jumps().encodedBytes() + 64;
}

/// Threads to format a profile with. callgrind<threads=N> takes N (1: only
/// the calling thread), for any profile; by default (0), profiles of a
/// megabyte of rows and more take what -threads allows (MaxThreads):
/// starting threads would cost small profiles more than it saves.
static unsigned writeThreads(unsigned Requested, unsigned MaxThreads,
                             size_t Bytes) {
  if (Requested)
    return std::min(Requested, 64u);
  if (Bytes < (size_t(1) << 20))
    return 1;
  return std::min(availableThreads(MaxThreads), 64u);
}

namespace {

/// Functions Begin to End of part K: a slice of the profile holds one such
/// segment of each part it reaches into.
struct Segment {
  size_t K, Begin, End;
};

/// A slice of the profile formatted apart from the others: its segments,
/// its text without the ids of its names, and for each segment where its
/// text and names end and the sums of its self costs.
struct Slice {
  struct SegmentEnd {
    size_t Text, Refs;
    std::vector<uint64_t> Sum;
    bool Overflow;
  };
  size_t Index = 0; // In the profile's slices.
  bool Done = false;
  std::vector<Segment> Segments;
  TextBuffer Text;
  std::vector<NameRef> Refs;
  std::vector<SegmentEnd> Ends; // One for each segment; only grows.
};

class CallgrindWriter {
public:
  CallgrindWriter(const Profile &P, raw_ostream &OS, const PassParams &Params,
                  const WriteContext &Ctx, unsigned Threads)
      : P(P), Params(Params), Ctx(Ctx), Threads(Threads), Out(&OS), Ids(P) {}
  void write();

private:
  /// The part's lines up to its first function, and a fresh sum of its self
  /// costs in Sum when it has no totals.
  void startPart(const Part &Pt, std::vector<uint64_t> &Sum);
  void endPart(const Part &Pt, const std::vector<uint64_t> &Sum, bool Overflow);
  void writeNumbers(StringRef Key, ArrayRef<uint64_t> V);
  void writeInParallel(unsigned Threads, size_t SliceBytes);
  void stitch(const Slice &S, size_t TextFrom, size_t TextTo, size_t RefsFrom,
              size_t RefsTo);

  const Profile &P;
  const PassParams &Params;
  const WriteContext &Ctx;
  unsigned Threads;
  TextBuffer Out;
  IdTables Ids;
  /// The `event:` lines of every part, formatted once: a run that dumped
  /// often has tens of thousands of parts.
  std::string EventLines;
};

} // namespace

void CallgrindWriter::writeNumbers(StringRef Key, ArrayRef<uint64_t> V) {
  Out.append(Key);
  Out.put(':');
  for (size_t I = 0, E = P.events().size(); I != E; ++I) {
    Out.reserve(24);
    *Out.Cur++ = ' ';
    Out.Cur = formatDecimal(Out.Cur, I < V.size() ? V[I] : 0);
  }
  Out.put('\n');
}

void CallgrindWriter::startPart(const Part &Pt, std::vector<uint64_t> &Sum) {
  if (&Pt != P.parts().front().get())
    Out.put('\n');
  // After the first part, the first line must be one that starts a part in
  // the reader, which gives other header lines to the part before: fuzzing
  // (roundtrip) found a part whose header began `summa:`. `positions:` then
  // leads.
  bool PositionsFirst =
      &Pt != P.parts().front().get() && !Pt.Header.empty() &&
      !is_contained({"version", "creator", "cmd", "pid", "thread", "part"},
                    Pt.Header.front().Key);
  auto WritePositions = [&] {
    Out.append("positions:");
    for (PositionKind K : Pt.positions()) {
      Out.put(' ');
      Out.append(positionKindName(K));
    }
    Out.put('\n');
  };
  if (PositionsFirst)
    WritePositions();
  for (const HeaderLine &H : Pt.Header) {
    if (isFieldHeader(H.Key))
      continue;
    Out.append(H.Key);
    Out.append(": ");
    Out.append(H.Value);
    Out.put('\n');
  }
  if (!PositionsFirst)
    WritePositions();
  Out.append(EventLines);
  Out.append("events:");
  for (const EventType &E : P.events()) {
    Out.put(' ');
    Out.append(E.Name);
  }
  Out.put('\n');
  if (Pt.Summary)
    writeNumbers("summary", *Pt.Summary);
  Out.put('\n');

  Ids.clear();
  // Without totals in the part, they are the sums of the self costs,
  // summed as the rows go by.
  Sum.assign(Pt.Totals ? 0 : P.events().size(), 0);
}

void CallgrindWriter::endPart(const Part &Pt, const std::vector<uint64_t> &Sum,
                              bool Overflow) {
  if (Pt.Totals) {
    writeNumbers("\ntotals", *Pt.Totals);
  } else {
    if (Overflow)
      Ctx.Warn("the totals of a part overflow 64 bits; written saturated");
    writeNumbers("\ntotals", Sum);
  }
}

/// Writes the text of a slice from TextFrom to TextTo, with the ids of its
/// names RefsFrom to RefsTo in it, given out as they come.
void CallgrindWriter::stitch(const Slice &S, size_t TextFrom, size_t TextTo,
                             size_t RefsFrom, size_t RefsTo) {
  const char *Base = S.Text.data(), *From = Base + TextFrom;
  for (size_t I = RefsFrom; I != RefsTo; ++I) {
    const NameRef &R = S.Refs[I];
    Out.append(StringRef(From, Base + R.Offset - From));
    writeId(Out, Ids, P, R.Table, R.Entry);
    From = Base + R.Offset;
  }
  Out.append(StringRef(From, Base + TextTo - From));
}

/// Formats the functions of every part in slices on Threads threads (this
/// one among them) and writes the parts with their slices in order as they
/// are done. A run that dumped often has tens of thousands of parts of a
/// few dozen functions: a slice spans parts, in a segment of each, so that
/// slices are few enough for their bookkeeping not to count. Slices are cut
/// as they are taken, and at most a few are formatted ahead of the one being
/// written, so memory stays bounded however large the profile.
void CallgrindWriter::writeInParallel(unsigned Threads, size_t SliceBytes) {
  const auto &Parts = P.parts();
  std::vector<Slice> Slots(2 * Threads);

  // Guarded by M: where the next slice starts (function AtFunction of part
  // AtPart), its index, how many slices are written (their slots are free),
  // and the slots' Index, Done and Segments.
  std::mutex M;
  std::condition_variable CV;
  size_t AtPart = 0, AtFunction = 0, Next = 0, Written = 0;
  auto AllTaken = [&] { return AtPart == Parts.size(); };
  auto CanTake = [&] { return !AllTaken() && Next < Written + Slots.size(); };
  // Cuts the next slice into slot S. Every part has a segment, an empty one
  // if it has no functions, so that its header and totals are written in
  // their turn.
  auto Cut = [&](Slice &S) {
    S.Segments.clear();
    size_t Bytes = 0;
    do {
      const auto &Fns = Parts[AtPart]->functions();
      size_t E = AtFunction;
      while (E != Fns.size() && Bytes < SliceBytes)
        Bytes += rowBytes(Fns[E++]);
      S.Segments.push_back({AtPart, AtFunction, E});
      AtFunction = E;
      if (E == Fns.size())
        ++AtPart, AtFunction = 0;
    } while (!AllTaken() && Bytes < SliceBytes);
  };
  // Formats slot S's slice, which no one else is using.
  auto Format = [&](Slice &S) {
    S.Text.clear();
    S.Refs.clear();
    if (S.Ends.size() < S.Segments.size())
      S.Ends.resize(S.Segments.size());
    for (size_t J = 0; J != S.Segments.size(); ++J) {
      auto [K, B, E] = S.Segments[J];
      const Part &Pt = *Parts[K];
      Slice::SegmentEnd &End = S.Ends[J];
      End.Sum.assign(Pt.Totals ? 0 : P.events().size(), 0);
      Formatter Fmt(P, Pt, Params, S.Text, nullptr, &S.Refs,
                    Pt.Totals ? nullptr : &End.Sum);
      // The object and file lines in effect at a function boundary are
      // those of the function before.
      const auto &Fns = Pt.functions();
      Fmt.startAfter(B ? &P.function(Fns[B - 1].Id) : nullptr);
      for (size_t F = B; F != E; ++F)
        Fmt.function(Fns[F]);
      End.Text = S.Text.size();
      End.Refs = S.Refs.size();
      End.Overflow = Fmt.Overflow;
    }
  };
  // Takes the next slice and formats it, with L unlocked meanwhile.
  auto TakeOne = [&](std::unique_lock<std::mutex> &L) {
    Slice &S = Slots[Next % Slots.size()];
    S.Index = Next++;
    S.Done = false;
    Cut(S);
    L.unlock();
    Format(S);
    L.lock();
    S.Done = true;
    CV.notify_all();
  };
  auto Worker = [&] {
    std::unique_lock<std::mutex> L(M);
    for (;;) {
      CV.wait(L, [&] { return AllTaken() || CanTake(); });
      if (AllTaken())
        return;
      TakeOne(L);
    }
  };
  std::vector<std::thread> Workers;
  for (unsigned T = 1; T < Threads; ++T)
    Workers.emplace_back(Worker);

  std::vector<uint64_t> Sum;
  bool Overflow = false;
  for (size_t I = 0;; ++I) {
    Slice &S = Slots[I % Slots.size()];
    {
      // Help with the formatting while slice I is not done.
      std::unique_lock<std::mutex> L(M);
      while (!(S.Index == I && S.Done)) {
        if (I == Next && AllTaken())
          break; // Every slice is written.
        if (CanTake())
          TakeOne(L);
        else
          CV.wait(L);
      }
      if (!(S.Index == I && S.Done))
        break;
    }
    size_t Text = 0, Refs = 0;
    for (size_t J = 0; J != S.Segments.size(); ++J) {
      auto [K, B, E] = S.Segments[J];
      const Part &Pt = *Parts[K];
      if (B == 0) {
        startPart(Pt, Sum);
        Overflow = false;
      }
      const Slice::SegmentEnd &End = S.Ends[J];
      stitch(S, Text, End.Text, Refs, End.Refs);
      Text = End.Text;
      Refs = End.Refs;
      for (size_t V = 0; V != Sum.size(); ++V)
        Overflow |= !addCost(Sum[V], End.Sum[V]);
      Overflow |= End.Overflow;
      if (E == Pt.functions().size())
        endPart(Pt, Sum, Overflow);
    }
    {
      std::lock_guard<std::mutex> L(M);
      ++Written;
    }
    CV.notify_all();
  }
  for (std::thread &T : Workers)
    T.join();
}

void CallgrindWriter::write() {
  raw_string_ostream EventOS(EventLines);
  printEventLines(P, EventOS);
  Out.append("# callgrind format\n");
  size_t Bytes = 0, NumFunctions = 0;
  for (const auto &Pt : P.parts()) {
    for (const FunctionData &FD : Pt->functions())
      Bytes += rowBytes(FD);
    NumFunctions += Pt->functions().size();
  }
  unsigned Threads = writeThreads(this->Threads, Ctx.MaxThreads, Bytes);
  if (Threads > 1 && NumFunctions > 1) {
    // Slices small enough to spread the work and to keep the text formatted
    // ahead small (64 KB of rows a slice), large enough that
    // their bookkeeping does not count.
    writeInParallel(Threads, std::clamp<size_t>(Bytes / (8 * Threads), 1,
                                                size_t(64) << 10));
  } else {
    // Blocks in the part's order: the order the input had them in
    // (callgrind groups them by object and file), which callgrind_annotate's
    // last-one-wins bookkeeping of objects depends on.
    std::vector<uint64_t> Sum;
    for (const auto &Pt : P.parts()) {
      startPart(*Pt, Sum);
      Formatter Fmt(P, *Pt, Params, Out, &Ids, nullptr,
                    Pt->Totals ? nullptr : &Sum);
      Fmt.startAfter(nullptr);
      for (const FunctionData &FD : Pt->functions())
        Fmt.function(FD);
      endPart(*Pt, Sum, Fmt.Overflow);
    }
  }
  Out.flush();
}

Error profkit::writeCallgrind(const Profile &P, raw_ostream &OS,
                              const PassParams &Params,
                              const WriteContext &Ctx) {
  if (Error E = requireFunctions(P))
    return E;
  // Fuzzing (roundtrip) found a gmon.out of a header only, read as a profile
  // of no events: its `events:` line would be empty, which no reader takes.
  if (P.events().empty())
    return makeError(ErrorCode::InvalidArgument,
                     "the profile has no events; the callgrind format needs "
                     "at least one");
  for (const auto &Pt : P.parts())
    for (PositionKind K : Pt->positions())
      if (!isCallgrindKind(K))
        return makeError(ErrorCode::InvalidArgument,
                         "the callgrind format cannot hold " +
                             positionKindName(K) + " positions");
  unsigned Threads;
  if (Params.get("threads").getAsInteger(10, Threads))
    return Params.invalid("threads", "expected a whole number");
  warnDroppedData(P, "callgrind", Ctx);
  CallgrindWriter(P, OS, Params, Ctx, Threads).write();
  return Error::success();
}
