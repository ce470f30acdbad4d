//===- InputStream.h - Streaming, decompressing input ----------*- C++ -*-===//
//
// Reads a file (or stdin for "-") in bounded chunks, inflating gzip data on
// the fly when the file starts with the gzip magic, whatever its name (with
// ISA-L's inflate, on a second thread, a few megabytes ahead, when the
// machine has two cores). A
// plain regular file is mapped, not read: its lines come straight from the
// page cache, and the pages behind the reader are let go as it goes on, so
// it holds about a chunk of the file at a time; those ahead of it are asked
// for (askAhead()). Text readers take one line
// at a time without copying; binary readers take the whole (decompressed)
// contents.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_INPUTSTREAM_H
#define PROFKIT_SUPPORT_INPUTSTREAM_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace profkit {

/// A file's pages that are not in the page cache (never read, or evicted
/// since) stop a reader at its first touch of each for a read of the disk,
/// in the middle of pages that are: a 150 MB profile with a seventh of its
/// pages evicted read in 370 ms against 304 ms on a machine that reads ahead
/// 128 KB, the kernel's default. So a stream asks for the bytes up to
/// AskAheadBytes past where it reads; for those in the cache that is a
/// lookup (2.4 ms for 160 MB).
constexpr uint64_t AskAheadBytes = uint64_t(16) << 20;
/// The kernel reads at most its read-ahead size or the disk's largest
/// request, if larger, of what one call asks for.
constexpr uint64_t AskAheadStep = uint64_t(256) << 10;
/// Asks, in calls Ask(Offset, Length) of up to AskAheadStep bytes, for the
/// bytes of a file [Asked, min(At + AskAheadBytes, End)), those past what it
/// asked for up to Asked; returns the new Asked.
uint64_t askAhead(uint64_t Asked, uint64_t At, uint64_t End,
                  llvm::function_ref<void(uint64_t, uint64_t)> Ask);

/// Where another thread may end a stream early: a reader of a file in pieces
/// chooses where a piece ends while the piece is read. The stream takes its
/// bytes in a chunk at a time, and a cut holds only at an offset it has not
/// taken in yet.
class CutPoint {
public:
  /// Ends the stream at offset At of its bytes, unless it has taken in a
  /// byte from At on or has been cut already. True if it now ends there.
  bool cut(uint64_t At) {
    std::lock_guard<std::mutex> Lock(M);
    if (At < TakenIn || Cut)
      return false;
    Cut = At;
    return true;
  }
  /// How far the stream has taken in its bytes.
  uint64_t takenIn() const {
    std::lock_guard<std::mutex> Lock(M);
    return TakenIn;
  }

private:
  friend class InputStream;
  /// The stream wants its bytes up to To: returns how far it may go.
  uint64_t takeIn(uint64_t To) {
    std::lock_guard<std::mutex> Lock(M);
    if (Cut)
      To = std::min(To, *Cut);
    TakenIn = std::max(TakenIn, To);
    return To;
  }
  mutable std::mutex M;
  uint64_t TakenIn = 0;
  std::optional<uint64_t> Cut;
};

class InputStream {
public:
  /// Opens Path; "-" is standard input. gzip data is inflated a few blocks
  /// ahead on a thread of its own when MaxThreads allows two (0: every
  /// core).
  static llvm::Expected<std::unique_ptr<InputStream>>
  open(llvm::StringRef Path, unsigned MaxThreads = 0);
  /// Reads from memory (tests, fuzzers); gzip data is inflated as from a
  /// file.
  static std::unique_ptr<InputStream> fromBuffer(llvm::StringRef Data,
                                                 llvm::StringRef Name);
  virtual ~InputStream();

  const std::string &name() const { return Name; }
  bool isCompressed() const { return Compressed; }

  /// Up to N leading bytes of the (decompressed) contents, for detecting the
  /// format; does not consume them.
  llvm::Expected<llvm::StringRef> peek(size_t N);

  /// The next line without its '\n' (and without the '\r's before it). Returns
  /// false at the end of the input or on an error; see takeError(). The line
  /// stays valid until the next call. The byte after the line is readable and
  /// is '\n' or '\r' (also after a last line without '\n'), so scanners may
  /// stop at it rather than check for the end.
  bool nextLine(llvm::StringRef &Line) {
    // Inline: text readers take tens of millions of short lines.
    const char *B = Data + Begin, *E = Data + End;
    const char *NL = findNewline(B, E);
    if (LLVM_UNLIKELY(!NL))
      return nextLineSlow(Line);
    Line = llvm::StringRef(B, NL - B);
    Begin += NL - B + 1;
    // Every '\r' before the '\n', not just one: fuzzing (roundtrip) found a
    // name ending in '\r' that lost one '\r' per round trip through a
    // callgrind file (files converted to CRLF twice end lines in "\r\r\n").
    if (LLVM_UNLIKELY(!Line.empty() && Line.back() == '\r'))
      Line = Line.rtrim('\r');
    ++LineNo;
    return true;
  }
  /// For readers that parse the next line in place, from its first byte,
  /// rather than take it from nextLine(), which first finds its end: Start
  /// is the line's first byte, and the stream holds a '\n' at or after it,
  /// at which any scan for the end of a token stops; Readable is the end of
  /// the whole lines the stream holds (past a '\n'), up to which a scan may
  /// read ahead. False when the stream holds no whole line; nextLine() then
  /// takes in more.
  bool wholeLineAhead(const char *&Start, const char *&Readable) {
    if (LLVM_UNLIKELY(Begin >= LinesEnd) && !findLinesEnd())
      return false;
    Start = Data + Begin;
    Readable = Data + LinesEnd;
    return true;
  }
  /// Moves on past a line parsed in place, to Next, the byte after its
  /// '\n'.
  void passLine(const char *Next) {
    assert(Next > Data + Begin && Next <= Data + LinesEnd && Next[-1] == '\n');
    Begin = Next - Data;
    ++LineNo;
  }
  /// Calls Take(Line) for each next line that holds byte A or B, passing
  /// over the lines between, for readers that skim for a few kinds of
  /// lines: a fraction of the work of taking every line. Lines are as
  /// nextLine() gives them, but lineNumber() does not count those passed
  /// over. Take returns false to stop: the stream stands after that line,
  /// and this returns true. Else this returns false at the end of the input
  /// or on an error (takeError()). Take must not read this stream.
  template <typename TakeFn>
  bool forEachLineContaining(char A, char B, TakeFn &&Take) {
    assert(A != '\n' && B != '\n');
    // Inline with its caller's loop, and no look back for a line's start:
    // a skim takes a line every few, where a call a line cost more than
    // the bytes between.
    size_t Scanned = Begin; // [Begin, Scanned) holds neither A, B nor '\n'.
    for (;;) {
      const char *LineStart = Data + Begin, *P = Data + Scanned,
                 *E = Data + End, *Hit, *NL;
      while ((Hit = findEither(P, E, A, B, LineStart, NL))) {
        if (!NL && !(NL = findNewline(Hit, E)))
          break;
        llvm::StringRef Line(LineStart, NL - LineStart);
        Begin = NL + 1 - Data;
        ++LineNo;
        if (LLVM_UNLIKELY(Line.back() == '\r')) // As in nextLine().
          Line = Line.rtrim('\r');
        if (!Take(Line))
          return true;
        LineStart = P = NL + 1;
      }
      Begin = LineStart - Data;
      if (Hit) { // Its line goes on past the bytes read.
        llvm::StringRef Line;
        if (!nextLineSlow(Line))
          return false;
        if (!Take(Line))
          return true;
        Scanned = Begin;
        continue;
      }
      // Whole lines without a hit go; a last partial line may get one.
      size_t Unscanned = End - Begin;
      if (!fill()) {
        Begin = End; // Left: a last line without '\n' and without a hit.
        return false;
      }
      Scanned = Begin + Unscanned;
    }
  }
  /// Keeps the bytes from the next unread one on until rewind(), for a
  /// reader that looks a few lines ahead before it decides how to take
  /// them.
  void mark() { Mark = tell(); }
  /// Back to the mark, which it drops; lines are numbered from 1 again from
  /// there.
  void rewind() {
    assert(Mark && *Mark >= Consumed && "rewind() without mark()");
    Begin = *Mark - Consumed;
    Mark.reset();
    LineNo = 0;
  }
  /// The number of the line nextLine() returned last (1-based).
  uint64_t lineNumber() const { return LineNo; }
  /// The error that stopped nextLine(), if any.
  llvm::Error takeError();

  /// The offset in the (decompressed) input of the next unread byte.
  uint64_t tell() const { return Consumed + Begin; }

  /// The size of the input when byte ranges of it can be read on their own
  /// (range()): a plain regular file or memory buffer, not gzip data or a
  /// pipe.
  virtual std::optional<uint64_t> splittableSize() const {
    return std::nullopt;
  }
  /// A stream of bytes [Offset, Offset + Length) of a splittable input, with
  /// this stream's name; it reads on its own and may be used on another
  /// thread, while this stream lives.
  virtual std::unique_ptr<InputStream> range(uint64_t Offset,
                                             uint64_t Length) const;

  /// Everything not yet consumed, decompressed.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readAll();

  /// Lets another thread end the stream early through C (before the first
  /// read), which outlives the stream.
  void setCutPoint(CutPoint *C) { Cut = C; }
  /// Asks for none of a mapped file's pages ahead (askAhead()): another
  /// stream of the file reads them first.
  void followAnotherStream() { AskAhead = false; }

  /// Caps the (decompressed) bytes held at once, that is the longest line
  /// and what readAll() returns, at MaxBytes; 0 is no limit. Past it,
  /// reading fails with "NAME: more than N bytes ... (the memory limit)".
  void setMemoryLimit(uint64_t MaxBytes) { Limit = MaxBytes; }

protected:
  InputStream(std::string Name) : Name(std::move(Name)) {}
  /// Fills Out with up to Size bytes; 0 at the end.
  virtual llvm::Expected<size_t> readRaw(char *Out, size_t Size) = 0;
  /// Takes its bytes from [Offset, Offset + Length) of FD through a mapping
  /// of the file, instead of readRaw(). False, changing nothing, if the
  /// range cannot be mapped.
  bool mapFile(int FD, uint64_t Offset, uint64_t Length);
  /// Takes its bytes from Bytes in place, which outlive the stream, instead
  /// of readRaw().
  void readInPlace(llvm::StringRef Bytes);
  /// Makes the first read fail with E.
  void setError(llvm::Error E) {
    Err = std::move(E);
    AtEOF = true;
  }

private:
  bool fill(); // Moves unread bytes to the front and reads more.
  /// fill() of bytes in place: a chunk more of them.
  bool extendInPlace();
  /// Of Want bytes more, those the cut point lets the stream take in.
  size_t allowedByCut(size_t Want) {
    return Cut ? Cut->takeIn(Consumed + End + Want) - (Consumed + End) : Want;
  }
  /// Fails reading if a line would hold more than the memory limit.
  bool overLimit();
  /// The first byte to keep: the next unread one, or the mark.
  size_t keptFrom() const {
    return Mark ? std::min<size_t>(Begin, *Mark - Consumed) : Begin;
  }
  /// Lets go of the mapped pages before the unread bytes.
  void releaseMapped();
  /// Asks for the mapped pages ahead of the unread bytes (askAhead()).
  void prefetchMapped();
  /// At the end of the stream: lets go of all the mapped pages.
  void releaseMappedRest();
  /// Copies the unread bytes in place to Buf and reads no more of them.
  void leaveInPlace();
  bool nextLineSlow(llvm::StringRef &Line);
  bool findLinesEnd();
  /// The first byte A or B in [P, E), or null. LineStart, the start of the
  /// line P is in, moves to the start of the line of that byte (with none,
  /// of the last line begun before E); LineEnd is the '\n' after that byte
  /// if the scan met it, else null.
  LLVM_ATTRIBUTE_ALWAYS_INLINE static const char *
  findEither(const char *P, const char *E, char A, char B,
             const char *&LineStart, const char *&LineEnd) {
    LineEnd = nullptr;
#ifdef __SSE2__
    // Sixteen bytes at a time, for both bytes and the line ends at once.
    const __m128i VA = _mm_set1_epi8(A), VB = _mm_set1_epi8(B),
                  NL = _mm_set1_epi8('\n');
    for (; E - P >= 16; P += 16) {
      __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
      unsigned Hits = _mm_movemask_epi8(
          _mm_or_si128(_mm_cmpeq_epi8(V, VA), _mm_cmpeq_epi8(V, VB)));
      unsigned Ends = _mm_movemask_epi8(_mm_cmpeq_epi8(V, NL));
      if (!Hits) {
        if (Ends)
          LineStart = P + (32 - __builtin_clz(Ends));
        continue;
      }
      unsigned At = __builtin_ctz(Hits);
      if (unsigned Before = Ends & ((1u << At) - 1))
        LineStart = P + (32 - __builtin_clz(Before));
      if (unsigned After = Ends >> At)
        LineEnd = P + At + __builtin_ctz(After);
      return P + At;
    }
#endif
    for (; P != E; ++P) {
      if (*P == A || *P == B)
        return P;
      if (*P == '\n')
        LineStart = P + 1;
    }
    return nullptr;
  }
  /// The first '\n' in [P, E), or null. Sixteen or eight bytes at a time:
  /// lines are short, and a call to memchr costs more than scanning them.
  static const char *findNewline(const char *P, const char *E) {
    constexpr uint64_t Ones = 0x0101010101010101, Highs = 0x8080808080808080;
    // The first match is the lowest flagged byte; on a big-endian host the
    // scan below would need it highest, where borrows give false matches.
    if (!llvm::sys::IsLittleEndianHost)
      return P == E ? nullptr
                    : static_cast<const char *>(std::memchr(P, '\n', E - P));
#ifdef __SSE2__
    // Most lines end within the first sixteen bytes: one compare finds it.
    for (const __m128i NL = _mm_set1_epi8('\n'); E - P >= 16; P += 16) {
      __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
      if (unsigned Mask = _mm_movemask_epi8(_mm_cmpeq_epi8(V, NL)))
        return P + __builtin_ctz(Mask);
    }
#endif
    for (; E - P >= 8; P += 8) {
      uint64_t W;
      std::memcpy(&W, P, 8);
      W ^= Ones * '\n'; // Bytes that were '\n' are now zero.
      if (uint64_t Zero = (W - Ones) & ~W & Highs)
        return P + __builtin_ctzll(Zero) / 8;
    }
    for (; P != E; ++P)
      if (*P == '\n')
        return P;
    return nullptr;
  }

  std::string Name;
  llvm::SmallVector<char, 0> Buf; // Grown without zeroing: bytes past End
                                  // are never read.
  // The bytes lines come from: Buf's, or the bytes in place.
  const char *Data = nullptr;
  size_t Begin = 0, End = 0;
  // One past the last '\n' in [Begin, End) when wholeLineAhead() looked,
  // while Data and End stand; 0 once fill() moves them.
  size_t LinesEnd = 0;
  uint64_t Consumed = 0; // Bytes before Data[0].
  std::optional<uint64_t> Mark; // Where rewind() goes back to.
  // Bytes in place (readInPlace(), mapFile()): End grows by a chunk at a
  // time up to InPlaceSize, as if they were read.
  bool InPlace = false;
  size_t InPlaceSize = 0;
  // A mapping of the file (mapFile()), Data at MapOffset in it; the pages
  // before Released are let go.
  char *Map = nullptr;
  size_t MapSize = 0, MapOffset = 0, Released = 0, Prefetched = 0;
  bool AskAhead = true;
  uint64_t LineNo = 0;
  uint64_t Limit = 0;
  CutPoint *Cut = nullptr;
  bool AtEOF = false;
  llvm::Error Err = llvm::Error::success();

protected:
  bool Compressed = false;
  size_t Chunk = 1 << 20; // Bytes read (or inflated) at a time.
};

} // namespace profkit

#endif
