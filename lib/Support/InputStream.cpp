//===- InputStream.cpp - Streaming, decompressing input -------------------===//

#include "profkit/Support/InputStream.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Threads.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <mutex>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

using namespace profkit;
using namespace llvm;

InputStream::~InputStream() {
  consumeError(std::move(Err));
  if (Map)
    ::munmap(Map, MapSize);
}

bool InputStream::mapFile(int FD, uint64_t Offset, uint64_t Length) {
  // Mapped, a file is read without copying each byte out of the page cache
  // into a buffer (the system time of a read() a megabyte).
  if (!Length || Length > SIZE_MAX / 2)
    return false;
  uint64_t PageSize = sys::Process::getPageSizeEstimate();
  uint64_t Aligned = alignDown(Offset, PageSize);
  size_t Size = Offset - Aligned + Length;
  void *M = ::mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, FD, Aligned);
  if (M == MAP_FAILED)
    return false;
#if defined(MADV_NOHUGEPAGE)
  // Pages of the file as they are read, not the 2 MB folios the page cache
  // may hold it in (Linux 6 on ext4): mapped whole, they added up to 6 MB to
  // the peak of two threads reading (c) (docs/Performance.md).
  ::madvise(M, Size, MADV_NOHUGEPAGE);
#endif
  Map = static_cast<char *>(M);
  MapSize = Size;
  MapOffset = Offset - Aligned;
  readInPlace(StringRef(Map + MapOffset, Length));
  return true;
}

void InputStream::readInPlace(StringRef Bytes) {
  InPlace = true;
  Data = Bytes.data();
  InPlaceSize = Bytes.size();
  Begin = End = LinesEnd = 0;
}

void InputStream::releaseMapped() {
  // The pages are the file's (a private mapping never written): one looked
  // at again, by a caller that kept a line too long, is read in again.
  uint64_t PageSize = sys::Process::getPageSizeEstimate();
  size_t Upto = alignDown(MapOffset + keptFrom(), PageSize);
  // A megabyte at a time: each madvise() flushes the TLB of every core the
  // process runs on, which took 5 % of the CPU time of reading (d) on two
  // threads at every quarter megabyte.
  constexpr size_t ReleaseEvery = size_t(1) << 20;
  if (Upto >= Released + ReleaseEvery) {
    ::madvise(Map + Released, Upto - Released, MADV_DONTNEED);
    Released = Upto;
  }
}

uint64_t profkit::askAhead(uint64_t Asked, uint64_t At, uint64_t End,
                           function_ref<void(uint64_t, uint64_t)> Ask) {
  for (uint64_t Want = std::min(End, At + AskAheadBytes); Asked < Want;
       Asked += AskAheadStep)
    Ask(Asked, std::min(AskAheadStep, End - Asked));
  return Asked;
}

void InputStream::prefetchMapped() {
  Prefetched = askAhead(Prefetched, MapOffset + End, MapSize,
                        [&](uint64_t Offset, uint64_t Length) {
                          ::madvise(Map + Offset, Length, MADV_WILLNEED);
                        });
}

void InputStream::releaseMappedRest() {
  // At the end, the last megabyte goes too: the reader is done with it,
  // and the profile peaks in memory as its pieces are put together.
  if (Map && Released < MapSize) {
    ::madvise(Map + Released, MapSize - Released, MADV_DONTNEED);
    Released = MapSize;
  }
}

void InputStream::leaveInPlace() {
  size_t Keep = keptFrom();
  Buf.assign(Data + Keep, Data + End);
  Data = Buf.data();
  Consumed += Keep;
  End -= Keep;
  Begin -= Keep;
  LinesEnd = 0;
  InPlace = false;
  if (Map) {
    ::munmap(Map, MapSize);
    Map = nullptr;
  }
}

/// Reads up to Size bytes from FD, at offset At if given (pread(), which
/// several threads may do at once), else where FD stands; retries when a
/// signal interrupts.
static Expected<size_t> readFrom(int FD, char *Out, size_t Size,
                                 std::optional<uint64_t> At,
                                 const std::string &Name) {
  for (;;) {
    ssize_t N = At ? ::pread(FD, Out, Size, *At) : ::read(FD, Out, Size);
    if (N >= 0)
      return size_t(N);
    if (errno != EINTR)
      return createStringError(std::error_code(errno, std::generic_category()),
                               "%s: %s", Name.c_str(),
                               sys::StrError(errno).c_str());
  }
}

namespace {

/// Runs a producer of bytes (inflate) on a thread of its own, a few blocks
/// ahead of the reader: on a second core, reading a gzip file then takes
/// about as long as reading it plain, not that plus inflating.
class ReadAhead {
public:
  using Producer = unique_function<Expected<size_t>(char *, size_t)>;

  ReadAhead(Producer Produce, size_t BlockSize) : Produce(std::move(Produce)) {
    for (unsigned I = 0; I != NumBlocks; ++I)
      Free.emplace_back(BlockSize);
    Worker = std::thread([this] { run(); });
  }
  ~ReadAhead() {
    {
      std::lock_guard<std::mutex> Lock(M);
      Stop = true;
    }
    CV.notify_all();
    Worker.join();
    consumeError(std::move(Err));
  }

  /// As InputStream::readRaw().
  Expected<size_t> read(char *Out, size_t Size) {
    if (Offset == Current.Size) {
      std::unique_lock<std::mutex> Lock(M);
      if (!Current.Bytes.empty())
        Free.push_back(std::move(Current.Bytes));
      CV.notify_all();
      CV.wait(Lock, [&] { return !Ready.empty() || Done; });
      if (Ready.empty()) {
        Current = Block();
        Offset = 0;
        if (Err)
          return std::move(Err);
        return 0;
      }
      Current = std::move(Ready.front());
      Ready.pop_front();
      Offset = 0;
    }
    size_t N = std::min(Size, Current.Size - Offset);
    memcpy(Out, Current.Bytes.data() + Offset, N);
    Offset += N;
    return N;
  }

private:
  struct Block {
    std::vector<char> Bytes;
    size_t Size = 0;
  };
  // Blocks inflated ahead: enough to ride out the reader's uneven pace,
  // few enough that a gzip bomb stays bounded.
  static constexpr unsigned NumBlocks = 4;

  void run() {
    for (;;) {
      Block C;
      {
        std::unique_lock<std::mutex> Lock(M);
        CV.wait(Lock, [&] { return !Free.empty() || Stop; });
        if (Stop)
          return;
        C.Bytes = std::move(Free.back());
        Free.pop_back();
      }
      Expected<size_t> N = Produce(C.Bytes.data(), C.Bytes.size());
      std::lock_guard<std::mutex> Lock(M);
      if (!N || !*N) {
        if (!N)
          Err = N.takeError();
        Done = true;
        CV.notify_all();
        return;
      }
      C.Size = *N;
      Ready.push_back(std::move(C));
      CV.notify_all();
    }
  }

  Producer Produce;
  std::thread Worker;
  std::mutex M;
  std::condition_variable CV;
  // Guarded by M.
  std::deque<Block> Ready;
  std::vector<std::vector<char>> Free;
  bool Done = false, Stop = false;
  Error Err = Error::success();
  // The reader's own.
  Block Current;
  size_t Offset = 0;
};

/// Reads a file descriptor (or, with FD -1, a buffer in memory); inflates it
/// when it starts with the gzip magic.
class FileStream final : public InputStream {
public:
  FileStream(int FD, bool OwnsFD, std::string Name, StringRef Mem = {},
             unsigned MaxThreads = 0)
      : InputStream(std::move(Name)), FD(FD), OwnsFD(OwnsFD), Mem(Mem),
        Whole(Mem), Start(FD < 0 ? 0 : ::lseek(FD, 0, SEEK_CUR)),
        MaxThreads(MaxThreads) {}
  ~FileStream() override {
    Ahead.reset(); // Joins the thread that inflates.
    if (OwnsFD)
      ::close(FD);
  }
  Error init();

  std::optional<uint64_t> splittableSize() const override;
  std::unique_ptr<InputStream> range(uint64_t Offset,
                                     uint64_t Length) const override;

protected:
  Expected<size_t> readRaw(char *Out, size_t Size) override;

private:
  Expected<size_t> readFD(char *Out, size_t Size);
  /// The bytes of a regular file from Start on.
  std::optional<uint64_t> regularFileSize() const;
  /// The inflated size the gzip trailer gives, if the input is a regular
  /// file or a buffer: that of the last member, modulo 2^32.
  std::optional<uint64_t> trailerSize() const;
  /// inflateInto() of a range: passes over the bytes before it, stops at
  /// its end.
  Expected<size_t> inflateRange(char *Out, size_t Size);
  /// Maps the file if it is a regular file of plain (not gzip) bytes.
  bool mapIfPlain();
  Expected<size_t> inflateInto(char *Out, size_t Size);
  /// Reads more compressed bytes once the inflater has used up the ones it
  /// had.
  Error refillCompressed();

  int FD;
  bool OwnsFD;
  StringRef Mem;   // The unread bytes when FD is -1.
  StringRef Whole; // All of them.
  // Where the input starts in the file: standard input may stand anywhere
  // in it; -1 for a pipe.
  off_t Start;
  unsigned MaxThreads; // -threads: 1 inflates on the reader's thread.
  // A range of gzip data (range()) reads the file with pread() from ReadAt
  // on, as its descriptor is shared, and inflates it from the start: Skip
  // bytes to pass over, then Left, or the rest when null.
  std::optional<uint64_t> ReadAt;
  uint64_t Skip = 0;
  std::optional<uint64_t> Left;
  // Where a range reads to the end: the trailer's inflated size.
  std::optional<uint64_t> DecodedSize;
  // ISA-L's inflater (87 KB): three to five times as fast as zlib's.
  std::unique_ptr<inflate_state> Z;
  std::vector<unsigned char> ZIn; // Compressed bytes not yet inflated.
  std::vector<char> Pending;      // Plain bytes read while sniffing the magic.
  bool RawEOF = false;
  // Inflates on another thread (files on a machine of several cores), from
  // the second read on.
  bool InflateAhead = false, InflatedOnce = false;
  std::unique_ptr<ReadAhead> Ahead;
};

/// Bytes [Offset, Offset + Length) of a file, read with pread() so that
/// ranges of one descriptor can be read on several threads at once.
class FileRangeStream final : public InputStream {
public:
  FileRangeStream(int FD, uint64_t Offset, uint64_t Length, std::string Name)
      : InputStream(std::move(Name)), FD(FD), Offset(Offset), Left(Length) {
    mapFile(FD, Offset, Length); // Else read with pread().
  }

protected:
  Expected<size_t> readRaw(char *Out, size_t Size) override {
    Size = std::min<uint64_t>(Size, Left);
    if (!Size)
      return 0;
    Expected<size_t> N = readFrom(FD, Out, Size, Offset, name());
    if (N) {
      Offset += *N;
      Left -= *N;
    }
    return N;
  }

private:
  int FD;
  uint64_t Offset, Left;
};

} // namespace

std::unique_ptr<InputStream> InputStream::range(uint64_t, uint64_t) const {
  llvm_unreachable("range() of an input that cannot be split");
}

std::optional<uint64_t> FileStream::splittableSize() const {
  if (Compressed)
    return DecodedSize;
  if (FD < 0)
    return Whole.size();
  return regularFileSize();
}

std::optional<uint64_t> FileStream::regularFileSize() const {
  sys::fs::file_status Status;
  if (Start < 0 || sys::fs::status(FD, Status) ||
      Status.type() != sys::fs::file_type::regular_file ||
      Status.getSize() < uint64_t(Start))
    return std::nullopt;
  return Status.getSize() - Start;
}

std::optional<uint64_t> FileStream::trailerSize() const {
  constexpr size_t SmallestMember = 18; // Header, empty deflate, trailer.
  char Trailer[4];
  if (FD < 0) {
    if (Whole.size() < SmallestMember)
      return std::nullopt;
    memcpy(Trailer, Whole.end() - 4, 4);
  } else {
    std::optional<uint64_t> Size = regularFileSize();
    if (!Size || *Size < SmallestMember)
      return std::nullopt;
    Expected<size_t> N = readFrom(FD, Trailer, 4, Start + *Size - 4, name());
    if (!N || *N != 4) {
      consumeError(N.takeError()); // Reading gives the error again.
      return std::nullopt;
    }
  }
  uint32_t Size = support::endian::read32le(Trailer);
  return Size ? std::optional<uint64_t>(Size) : std::nullopt;
}

std::unique_ptr<InputStream> FileStream::range(uint64_t Offset,
                                               uint64_t Length) const {
  if (Compressed) {
    // Inflated from the start on the reader's thread, a stream of its own.
    auto S = std::make_unique<FileStream>(FD, false, name(), Whole, 1);
    S->Chunk = Chunk;
    S->Start = Start;
    S->ReadAt = Start;
    S->Skip = Offset;
    // The trailer may give less than the whole (several members, 4 GB or
    // more): a range to where it ends reads to the true end.
    if (Offset + Length < *DecodedSize)
      S->Left = Length;
    S->DecodedSize = DecodedSize;
    if (Error E = S->init())
      S->setError(std::move(E)); // Reported by the first read.
    return S;
  }
  if (FD < 0)
    return InputStream::fromBuffer(Whole.substr(Offset, Length), name());
  return std::make_unique<FileRangeStream>(FD, Start + Offset, Length, name());
}

Expected<size_t> FileStream::readFD(char *Out, size_t Size) {
  if (FD < 0) {
    size_t N = std::min(Size, Mem.size());
    memcpy(Out, Mem.data(), N);
    Mem = Mem.drop_front(N);
    return N;
  }
  Expected<size_t> N = readFrom(FD, Out, Size, ReadAt, name());
  if (N && ReadAt)
    *ReadAt += *N;
  return N;
}

/// Do Bytes start a gzip member (1f 8b)?
static bool startsGzip(StringRef Bytes) {
  return Bytes.size() >= 2 && uint8_t(Bytes[0]) == 0x1f &&
         uint8_t(Bytes[1]) == 0x8b;
}

bool FileStream::mapIfPlain() {
  std::optional<uint64_t> Size = regularFileSize();
  if (!Size)
    return false;
  char Magic[2];
  Expected<size_t> N = readFrom(FD, Magic, sizeof(Magic), Start, name());
  if (!N) {
    consumeError(N.takeError()); // Reading gives the error again.
    return false;
  }
  return !startsGzip(StringRef(Magic, *N)) && mapFile(FD, Start, *Size);
}

Error FileStream::init() {
  // Plain bytes are read in place: a memory buffer as it is, a regular file
  // mapped.
  if (FD < 0 && !startsGzip(Mem)) {
    readInPlace(Mem);
    return Error::success();
  }
  if (FD >= 0 && mapIfPlain())
    return Error::success();
  // Sniff the first bytes: 1f 8b starts a gzip member.
  Pending.resize(std::min<size_t>(Chunk, 64 << 10));
  size_t Have = 0;
  while (Have < 2) {
    Expected<size_t> N = readFD(Pending.data() + Have, Pending.size() - Have);
    if (!N)
      return N.takeError();
    if (!*N) {
      RawEOF = true;
      break;
    }
    Have += *N;
  }
  Pending.resize(Have);
  if (startsGzip(StringRef(Pending.data(), Have))) {
    Compressed = true;
    ZIn.assign(Pending.begin(), Pending.end());
    Pending = {};
    Z = std::make_unique<inflate_state>();
    isal_inflate_init(Z.get());
    Z->crc_flag = ISAL_GZIP; // The gzip header and trailer, checked.
    Z->next_in = ZIn.data();
    Z->avail_in = ZIn.size();
    if (!DecodedSize)
      DecodedSize = trailerSize();
    // Memory buffers (tests, fuzzers) are small: no thread for them.
    InflateAhead = FD >= 0 && availableThreads(MaxThreads) > 1;
  }
  return Error::success();
}

Error FileStream::refillCompressed() {
  if (Z->avail_in || RawEOF)
    return Error::success();
  // A quarter of a chunk inflates to about a chunk: a file read in two
  // pieces holds three of these buffers.
  ZIn.resize(std::max<size_t>(Chunk / 4, 4096));
  Expected<size_t> N = readFD(reinterpret_cast<char *>(ZIn.data()), ZIn.size());
  if (!N)
    return N.takeError();
  RawEOF = !*N;
  Z->next_in = ZIn.data();
  Z->avail_in = *N;
  return Error::success();
}

/// What is wrong with gzip data that ISA-L's inflate returned RC for.
static const char *inflateProblem(int RC) {
  switch (RC) {
  case ISAL_INVALID_BLOCK:
    return "invalid block";
  case ISAL_INVALID_SYMBOL:
    return "invalid code";
  case ISAL_INVALID_LOOKBACK:
    return "invalid distance too far back";
  case ISAL_INVALID_WRAPPER:
    return "invalid gzip header";
  case ISAL_UNSUPPORTED_METHOD:
    return "unknown compression method";
  case ISAL_INCORRECT_CHECKSUM:
    return "the trailer's checksum or length does not match the data";
  default:
    return "inflate failed";
  }
}

Expected<size_t> FileStream::inflateInto(char *Out, size_t Size) {
  Z->next_out = reinterpret_cast<uint8_t *>(Out);
  Z->avail_out = Size;
  while (Z->avail_out == Size) {
    if (Error E = refillCompressed())
      return std::move(E);
    if (Z->block_state == ISAL_BLOCK_FINISH) {
      // Concatenated gzip members (as `cat a.gz b.gz` makes) continue.
      if (!Z->avail_in)
        return 0;
      uint8_t *In = Z->next_in;
      uint32_t Left = Z->avail_in;
      isal_inflate_reset(Z.get()); // Keeps crc_flag.
      Z->next_in = In;
      Z->avail_in = Left;
      Z->next_out = reinterpret_cast<uint8_t *>(Out);
      Z->avail_out = Size;
    }
    uint32_t InBefore = Z->avail_in;
    if (int RC = isal_inflate(Z.get()); RC < 0)
      return createStringError(make_error_code(ErrorCode::Malformed),
                               "%s: corrupt gzip data: %s", name().c_str(),
                               inflateProblem(RC));
    // No byte in, none out: the input ended inside a member.
    if (Z->avail_in == InBefore && Z->avail_out == Size &&
        Z->block_state != ISAL_BLOCK_FINISH)
      return createStringError(make_error_code(ErrorCode::Malformed),
                               "%s: truncated gzip data", name().c_str());
  }
  return Size - Z->avail_out;
}

Expected<size_t> FileStream::inflateRange(char *Out, size_t Size) {
  while (Skip) {
    Expected<size_t> N = inflateInto(Out, std::min<uint64_t>(Size, Skip));
    if (!N || !*N)
      return N; // The data ends before the range.
    Skip -= *N;
  }
  if (Left)
    Size = std::min<uint64_t>(Size, *Left);
  if (!Size)
    return 0;
  Expected<size_t> N = inflateInto(Out, Size);
  if (N && Left)
    *Left -= *N;
  return N;
}

Expected<size_t> FileStream::readRaw(char *Out, size_t Size) {
  if (Compressed) {
    // The first read inflates in line: the format is told from it, and a
    // file read in pieces reads no more of this stream (each piece inflates
    // on its own), where a thread would inflate megabytes ahead for
    // nothing.
    if (!Ahead && InflateAhead && InflatedOnce)
      Ahead = std::make_unique<ReadAhead>(
          [this](char *Out, size_t Size) { return inflateInto(Out, Size); },
          Chunk);
    if (Ahead)
      return Ahead->read(Out, Size);
    InflatedOnce = true;
    return inflateRange(Out, Size);
  }
  if (!Pending.empty()) {
    size_t N = std::min(Size, Pending.size());
    memcpy(Out, Pending.data(), N);
    Pending.erase(Pending.begin(), Pending.begin() + N);
    return N;
  }
  if (RawEOF)
    return 0;
  return readFD(Out, Size);
}

Expected<std::unique_ptr<InputStream>> InputStream::open(StringRef Path,
                                                         unsigned MaxThreads) {
  int FD = 0;
  bool Owns = false;
  std::string Name = Path == "-" ? "<stdin>" : Path.str();
  if (Path != "-") {
    if (sys::fs::is_directory(Path))
      return createStringError(std::make_error_code(std::errc::is_a_directory),
                               "%s: is a directory", Name.c_str());
    FD = ::open(Name.c_str(), O_RDONLY | O_CLOEXEC);
    if (FD < 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                               "%s: %s", Name.c_str(),
                               sys::StrError(errno).c_str());
    Owns = true;
  }
  auto S = std::make_unique<FileStream>(FD, Owns, std::move(Name), StringRef(),
                                        MaxThreads);
  if (Error E = S->init())
    return std::move(E);
  return std::unique_ptr<InputStream>(std::move(S));
}

std::unique_ptr<InputStream> InputStream::fromBuffer(StringRef Data,
                                                     StringRef Name) {
  // The same stream as for files, so gzip data in memory is inflated too.
  auto S = std::make_unique<FileStream>(-1, false, Name.str(), Data);
  // Small buffers get small chunks: fuzzers read millions of them.
  S->Chunk = std::clamp<size_t>(Data.size(), 4096, S->Chunk);
  if (Error E = S->init())
    S->setError(std::move(E)); // Reported by the first read.
  return S;
}

bool InputStream::overLimit() {
  // The memory limit caps the bytes held: fill() is called for more of a
  // line (nextLine) or of everything (readAll), so bytes over the limit
  // here are a line of gigabytes, or a gzip bomb a binary reader reads
  // whole. Reads stop one byte past the limit.
  if (!Limit || End - Begin <= Limit)
    return false;
  Err = createStringError(std::make_error_code(std::errc::not_enough_memory),
                          "%s: more than %llu bytes in one line or binary "
                          "file: over the memory limit (-max-memory)",
                          Name.c_str(), (unsigned long long)Limit);
  AtEOF = true;
  return true;
}

bool InputStream::extendInPlace() {
  if (End == InPlaceSize) {
    AtEOF = true;
    releaseMappedRest();
    return false;
  }
  if (overLimit())
    return false;
  if (Map) {
    releaseMapped();
    if (AskAhead)
      prefetchMapped();
  }
  // A mapped file's pages count in the reader's memory until let go: a
  // quarter of a megabyte at a time, not a chunk.
  size_t Step = Map ? std::min<size_t>(Chunk, 256 << 10) : Chunk;
  size_t Want = std::min(Step, InPlaceSize - End);
  if (Limit) // At most one byte past the limit, as a read.
    Want = std::min<uint64_t>(Want, Limit + 1 - (End - Begin));
  Want = allowedByCut(Want);
  if (!Want) {
    AtEOF = true;
    releaseMappedRest();
    return false;
  }
  End += Want;
  return true;
}

bool InputStream::fill() {
  if (AtEOF)
    return false;
  LinesEnd = 0;
  if (InPlace)
    return extendInPlace();
  if (size_t Keep = keptFrom()) {
    memmove(Buf.data(), Buf.data() + Keep, End - Keep);
    End -= Keep;
    Consumed += Keep;
    Begin -= Keep;
  }
  if (overLimit())
    return false;
  // A line longer than the buffer grows it; lines are otherwise bounded.
  if (Buf.size() - End < Chunk / 2) {
    Buf.resize_for_overwrite(std::max(Buf.size() * 2, Chunk));
    Data = Buf.data();
  }
  size_t Want = Buf.size() - End;
  if (Limit) // At most one byte past the limit (refused on the next call).
    Want = std::min<uint64_t>(Want, Limit + 1 - (End - Begin));
  // A short read leaves the cut point thinking more taken in: it then
  // refuses cuts it could have taken, never one it cannot.
  Want = allowedByCut(Want);
  if (!Want) {
    AtEOF = true;
    return false;
  }
  Expected<size_t> N = readRaw(Buf.data() + End, Want);
  if (!N) {
    Err = N.takeError();
    AtEOF = true;
    return false;
  }
  if (!*N) {
    AtEOF = true;
    return false;
  }
  End += *N;
  return true;
}

Expected<StringRef> InputStream::peek(size_t N) {
  while (End - Begin < N && fill())
    ;
  if (Err)
    return std::move(Err);
  return StringRef(Data + Begin, std::min(N, End - Begin));
}

bool InputStream::nextLineSlow(StringRef &Line) {
  size_t Scanned = Begin;
  for (;;) {
    // Fuzzing found memchr called with the null data() of the empty buffer
    // (undefined even for length 0): scan only when there are bytes.
    const char *NL = Scanned == End ? nullptr
                                    : static_cast<const char *>(memchr(
                                          Data + Scanned, '\n', End - Scanned));
    if (NL) {
      size_t Len = NL - (Data + Begin);
      Line = StringRef(Data + Begin, Len);
      Begin += Len + 1;
      break;
    }
    size_t Unscanned = End - Begin;
    if (!fill()) {
      if (Err || Begin == End)
        return false;
      // The last line has no '\n': give it one after its end, as promised,
      // in a buffer of ours.
      if (InPlace)
        leaveInPlace();
      if (End == Buf.size())
        Buf.resize_for_overwrite(End + 1);
      Data = Buf.data();
      Buf[End] = '\n';
      Line = StringRef(Data + Begin, End - Begin);
      Begin = End;
      break;
    }
    Scanned = Begin + Unscanned;
  }
  if (!Line.empty() && Line.back() == '\r') // As in nextLine().
    Line = Line.rtrim('\r');
  ++LineNo;
  return true;
}

bool InputStream::findLinesEnd() {
  // Lines are short: the last '\n' is near the end.
  const char *NL =
      Begin == End
          ? nullptr
          : static_cast<const char *>(memrchr(Data + Begin, '\n', End - Begin));
  if (!NL)
    return false;
  LinesEnd = NL + 1 - Data;
  return true;
}

Error InputStream::takeError() { return std::move(Err); }

Expected<std::unique_ptr<MemoryBuffer>> InputStream::readAll() {
  while (fill())
    ;
  if (Err)
    return std::move(Err);
  return MemoryBuffer::getMemBufferCopy(StringRef(Data + Begin, End - Begin),
                                        Name);
}
