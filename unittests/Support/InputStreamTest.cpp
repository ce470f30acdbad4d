//===- InputStreamTest.cpp - Tests of the streaming input -----------------===//

#include "profkit/Support/InputStream.h"
#include "profkit/Formats/Format.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <random>
#include <zlib.h>

using namespace profkit;
using namespace llvm;

namespace {

std::string gzip(StringRef Data) {
  z_stream Z{};
  EXPECT_EQ(deflateInit2(&Z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string Out(deflateBound(&Z, Data.size()) + 32, '\0');
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Data.data()));
  Z.avail_in = Data.size();
  Z.next_out = reinterpret_cast<Bytef *>(Out.data());
  Z.avail_out = Out.size();
  EXPECT_EQ(deflate(&Z, Z_FINISH), Z_STREAM_END);
  Out.resize(Z.total_out);
  deflateEnd(&Z);
  return Out;
}

// Fuzzing found nextLine() passing the empty buffer's null pointer to memchr
// (UBSan: "null pointer passed as argument 1"); the sanitizer build runs this.
TEST(InputStreamTest, EmptyBuffer) {
  std::unique_ptr<InputStream> In = InputStream::fromBuffer("", "empty");
  StringRef Line;
  EXPECT_FALSE(In->nextLine(Line));
  EXPECT_FALSE(bool(In->takeError()));
  Expected<std::unique_ptr<Profile>> P = readCallgrind(*In, ReadOptions());
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(toString(P.takeError()), "empty:0: no profile data");
}

TEST(InputStreamTest, GzipBufferIsInflated) {
  std::string Text = "first\nsecond line\r\nlast";
  std::string Zipped = gzip(Text); // fromBuffer() does not copy it.
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Zipped, "mem.gz");
  StringRef Line;
  std::vector<std::string> Lines;
  while (In->nextLine(Line))
    Lines.push_back(Line.str());
  EXPECT_FALSE(bool(In->takeError()));
  EXPECT_TRUE(In->isCompressed());
  EXPECT_EQ(Lines, (std::vector<std::string>{"first", "second line", "last"}));
}

TEST(InputStreamTest, TruncatedGzipBuffer) {
  std::string Z = gzip(std::string(10000, 'x'));
  std::unique_ptr<InputStream> In =
      InputStream::fromBuffer(StringRef(Z).drop_back(12), "cut.gz");
  Expected<std::unique_ptr<MemoryBuffer>> All = In->readAll();
  ASSERT_FALSE(bool(All));
  EXPECT_EQ(toString(All.takeError()), "cut.gz: truncated gzip data");
}

// The memory limit caps a line, not the input: many short lines pass.
TEST(InputStreamTest, MemoryLimitCapsALine) {
  std::string Many;
  for (int I = 0; I != 100000; ++I)
    Many += "a short line\n";
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Many, "many");
  In->setMemoryLimit(1000);
  StringRef Line;
  unsigned N = 0;
  while (In->nextLine(Line))
    ++N;
  EXPECT_FALSE(bool(In->takeError()));
  EXPECT_EQ(N, 100000u);

  std::string Long = "x\n" + std::string(5000, 'y') + "\nz\n";
  In = InputStream::fromBuffer(Long, "long");
  In->setMemoryLimit(1000);
  EXPECT_TRUE(In->nextLine(Line));
  EXPECT_EQ(Line, "x");
  EXPECT_FALSE(In->nextLine(Line));
  EXPECT_EQ(toString(In->takeError()),
            "long: more than 1000 bytes in one line or binary file: over the "
            "memory limit (-max-memory)");
}

// A gzip bomb read whole (binary readers) stops at the limit.
TEST(InputStreamTest, MemoryLimitCapsReadAll) {
  std::string Bomb = gzip(std::string(1 << 24, '\0'));
  ASSERT_LT(Bomb.size(), 100000u);
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Bomb, "bomb.gz");
  In->setMemoryLimit(1 << 20);
  Expected<std::unique_ptr<MemoryBuffer>> All = In->readAll();
  ASSERT_FALSE(bool(All));
  EXPECT_EQ(toString(All.takeError()),
            "bomb.gz: more than 1048576 bytes in one line or binary file: "
            "over the memory limit (-max-memory)");
  // Exactly at the limit is fine.
  std::string Exact(4096, 'e');
  In = InputStream::fromBuffer(Exact, "exact");
  In->setMemoryLimit(4096);
  All = In->readAll();
  ASSERT_TRUE(bool(All)) << toString(All.takeError());
  EXPECT_EQ((*All)->getBufferSize(), 4096u);
}

/// A temporary file holding Data, removed at the end of the test.
class TempFile {
public:
  explicit TempFile(StringRef Data) {
    int FD;
    EXPECT_FALSE(sys::fs::createTemporaryFile("inputstream", "in", FD, Path));
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Data;
  }
  ~TempFile() { sys::fs::remove(Path); }
  StringRef path() const { return Path; }

private:
  SmallString<128> Path;
};

std::unique_ptr<InputStream> openFile(StringRef Path) {
  Expected<std::unique_ptr<InputStream>> In = InputStream::open(Path);
  EXPECT_TRUE(bool(In)) << toString(In.takeError());
  return std::move(*In);
}

// Files are inflated on a thread ahead of the reader (with two cores or
// more), in 1 MB blocks: lines that cross blocks, concatenated members and
// the end of the data come out as from a plain file.
TEST(InputStreamTest, GzipFileAcrossBlocks) {
  std::string Text;
  for (unsigned I = 0; Text.size() < (5u << 20); ++I)
    Text += "line " + std::to_string(I) + std::string(I % 97, 'x') + "\n";
  TempFile F(gzip(Text) + gzip("after\nthe end"));
  std::unique_ptr<InputStream> In = openFile(F.path());
  EXPECT_TRUE(In->isCompressed());
  std::string Back;
  StringRef Line;
  while (In->nextLine(Line))
    (Back += Line) += '\n';
  EXPECT_FALSE(bool(In->takeError()));
  EXPECT_EQ(Back, Text + "after\nthe end\n");
  EXPECT_FALSE(In->nextLine(Line)); // Still at the end.
}

// Errors of the data come through the thread that inflates it.
TEST(InputStreamTest, BrokenGzipFiles) {
  std::string Z = gzip(std::string(3u << 20, 'x'));
  std::string Corrupt = Z;
  Corrupt[Corrupt.size() - 6] ^= 0xff; // The CRC of the data.
  std::pair<std::string, StringRef> Cases[] = {
      {Z.substr(0, Z.size() - 12), "truncated gzip data"},
      {Corrupt, "corrupt gzip data: the trailer's checksum or length does not "
                "match the data"}};
  for (auto &[Data, Message] : Cases) {
    TempFile F(Data);
    Expected<std::unique_ptr<MemoryBuffer>> All = openFile(F.path())->readAll();
    ASSERT_FALSE(bool(All));
    EXPECT_EQ(toString(All.takeError()), (F.path() + ": " + Message).str());
  }
}

// Files and buffers can be read in ranges, each on its own (the callgrind
// reader reads large files in pieces); not a pipe.
TEST(InputStreamTest, Ranges) {
  std::string Text = "first\nsecond\nthird\n";
  TempFile F(Text);
  // gzip data too: each range inflates it from the start; the size is the
  // trailer's.
  std::string Zipped = gzip(Text);
  TempFile Z(Zipped);
  std::unique_ptr<InputStream> Streams[] = {
      InputStream::fromBuffer(Text, "mem"), openFile(F.path()),
      InputStream::fromBuffer(Zipped, "mem.gz"), openFile(Z.path())};
  for (std::unique_ptr<InputStream> &In : Streams) {
    EXPECT_EQ(In->splittableSize(), std::optional<uint64_t>(Text.size()));
    std::unique_ptr<InputStream> Middle = In->range(6, 7);
    StringRef Line;
    ASSERT_TRUE(Middle->nextLine(Line));
    EXPECT_EQ(Line, "second");
    EXPECT_EQ(Middle->tell(), 7u);
    EXPECT_FALSE(Middle->nextLine(Line));
    // The whole stream reads on, unaffected.
    ASSERT_TRUE(In->nextLine(Line));
    EXPECT_EQ(Line, "first");
    EXPECT_EQ(In->tell(), 6u);
  }
  // The trailer gives the size of the last member only (modulo 2^32): a
  // range to where it says the data ends reads on to the true end.
  std::string Two = gzip("zero\n") + Zipped;
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Two, "two.gz");
  EXPECT_EQ(In->splittableSize(), std::optional<uint64_t>(Text.size()));
  std::unique_ptr<InputStream> Tail = In->range(11, Text.size() - 11);
  StringRef Line;
  while (Tail->nextLine(Line))
    ;
  EXPECT_EQ(Line, "third");
  EXPECT_EQ(Tail->tell(), std::strlen("zero\n") + Text.size() - 11);
}

// A plain file is mapped and read in place, a quarter megabyte at a time: lines
// that cross chunks, a line longer than a chunk, a last line without '\n'
// (which gets one), ranges that start off a page boundary, and the memory
// limit come out as from a buffer read.
TEST(InputStreamTest, PlainFilesInPlace) {
  std::string Text;
  for (unsigned I = 0; Text.size() < (3u << 20); ++I)
    Text += "line " + std::to_string(I) + std::string(I % 89, 'x') + "\n";
  Text += std::string(1500000, 'y') + "\r\nlast";
  TempFile F(Text);
  auto ReadBack = [](InputStream &In) {
    std::string Back;
    StringRef Line;
    while (In.nextLine(Line)) {
      EXPECT_TRUE(Line.end()[0] == '\n' || Line.end()[0] == '\r');
      (Back += Line) += '\n';
    }
    EXPECT_FALSE(bool(In.takeError()));
    return Back;
  };
  std::string Expected = Text;
  Expected.erase(Expected.size() - 6, 1); // The '\r'.
  Expected += '\n';
  std::unique_ptr<InputStream> In = openFile(F.path());
  EXPECT_EQ(ReadBack(*In), Expected);
  EXPECT_EQ(In->tell(), Text.size());

  size_t From = 4099 + Text.substr(4099).find('\n') + 1;
  std::unique_ptr<InputStream> Range =
      openFile(F.path())->range(From, Text.size() - From);
  EXPECT_EQ(ReadBack(*Range), Expected.substr(From));

  In = openFile(F.path());
  In->setMemoryLimit(1 << 20);
  StringRef Line;
  while (In->nextLine(Line))
    ;
  EXPECT_EQ(toString(In->takeError()),
            (F.path() + ": more than 1048576 bytes in one line or binary "
                        "file: over the memory limit (-max-memory)")
                .str());
}

// Readers parse most lines where they stand (wholeLineAhead(), passLine())
// and take the others from nextLine(), in any mix: lines that cross the
// quarter megabytes of a mapped file or the refills of a buffer, which move
// its bytes (gzip data), and a last line without '\n' come out as they are
// in the file, each counted once.
TEST(InputStreamTest, LinesInPlaceAmongLinesTaken) {
  std::string Text;
  for (unsigned I = 0; Text.size() < (3u << 20); ++I)
    Text += std::to_string(I) + std::string(I % 89, 'x') + "\n";
  Text += "last";
  TempFile Plain(Text), Z(gzip(Text));
  std::unique_ptr<InputStream> Streams[] = {
      openFile(Plain.path()), openFile(Z.path()),
      InputStream::fromBuffer(Text, "mem")};
  for (std::unique_ptr<InputStream> &In : Streams) {
    std::string Back;
    uint64_t Lines = 0, InPlace = 0;
    for (;;) {
      const char *Start, *Readable;
      if (Lines % 3 != 2 && In->wholeLineAhead(Start, Readable)) {
        const char *NL = Start;
        while (*NL != '\n')
          ++NL;
        EXPECT_TRUE(NL < Readable && Readable[-1] == '\n');
        Back.append(Start, NL + 1);
        In->passLine(NL + 1);
        ++InPlace;
      } else {
        StringRef Line;
        if (!In->nextLine(Line))
          break;
        (Back += Line) += '\n';
      }
      EXPECT_EQ(In->lineNumber(), ++Lines);
    }
    EXPECT_FALSE(bool(In->takeError()));
    EXPECT_EQ(Back, Text + "\n");
    EXPECT_GT(InPlace, Lines / 2);
    EXPECT_EQ(In->tell(), Text.size());
  }
}

// Another thread may end a stream at a line it has not taken in yet (the
// callgrind reader's live split); the stream then ends there, and reads on
// past it, counting lines anew, once resumed. Mapped and read through a
// buffer (gzip data) alike.
TEST(InputStreamTest, CutPoints) {
  std::string Text;
  for (unsigned I = 0; Text.size() < (3u << 20); ++I)
    Text += "line " + std::to_string(I) + "\n";
  TempFile F(Text);
  size_t At = Text.find("line 200000\n");
  ASSERT_NE(At, std::string::npos);
  std::string Zipped = gzip(Text); // fromBuffer() does not copy it.
  std::unique_ptr<InputStream> Streams[] = {
      openFile(F.path())->range(0, Text.size()),
      InputStream::fromBuffer(Zipped, "mem.gz")};
  for (std::unique_ptr<InputStream> &In : Streams) {
    CutPoint Cut;
    In->setCutPoint(&Cut);
    StringRef Line;
    ASSERT_TRUE(In->nextLine(Line));
    uint64_t Taken = Cut.takenIn();
    EXPECT_GT(Taken, 0u);
    EXPECT_LT(Taken, At);
    EXPECT_FALSE(Cut.cut(Taken - 1)); // Bytes it holds already.
    EXPECT_TRUE(Cut.cut(At));
    EXPECT_FALSE(Cut.cut(At + 12)); // Once only.
    std::string Last;
    while (In->nextLine(Line))
      Last = Line.str();
    EXPECT_FALSE(bool(In->takeError()));
    EXPECT_EQ(Last, "line 199999");
    EXPECT_EQ(In->lineNumber(), 200000u);
    EXPECT_EQ(In->tell(), At);
    EXPECT_EQ(Cut.takenIn(), At);
  }
}

// A reader looks a few lines ahead from a mark and goes back to it
// (rewind()), across the reads of 1 MB and the pages let go behind a
// mapped file's reader, and then numbers lines from 1 again. Mapped, in
// memory, gzip data and a range of it alike.
TEST(InputStreamTest, MarkAndRewind) {
  std::string Text;
  for (unsigned I = 0; Text.size() < (3u << 20); ++I)
    Text += "line " + std::to_string(I) + "\n";
  TempFile F(Text);
  std::string Zipped = gzip(Text);
  TempFile Z(Zipped);
  std::unique_ptr<InputStream> Gz = openFile(Z.path());
  std::unique_ptr<InputStream> Streams[] = {
      openFile(F.path()), InputStream::fromBuffer(Text, "mem"),
      InputStream::fromBuffer(Zipped, "mem.gz"),
      Gz->range(0, Gz->splittableSize().value_or(0))};
  for (std::unique_ptr<InputStream> &In : Streams) {
    StringRef Line;
    unsigned Next = 0;
    // Every 99,999th line, look 1,000 lines ahead and come back.
    while (In->nextLine(Line)) {
      ASSERT_EQ(Line, "line " + std::to_string(Next));
      ++Next;
      if (Next % 99999)
        continue;
      uint64_t At = In->tell();
      In->mark();
      for (unsigned I = 0; I != 1000 && In->nextLine(Line); ++I)
        ;
      In->rewind();
      EXPECT_EQ(In->tell(), At);
      ASSERT_TRUE(In->nextLine(Line));
      EXPECT_EQ(In->lineNumber(), 1u);
      ASSERT_EQ(Line, "line " + std::to_string(Next));
      ++Next;
    }
    EXPECT_FALSE(bool(In->takeError()));
    EXPECT_EQ(In->tell(), Text.size());
  }
}

// forEachLineContaining() gives the lines nextLine() would that hold either
// byte: across the 1 MB reads, with '\r\n' ends, for a hit at either end of
// a line, in lines longer than a read (with a hit and without), and in a last
// line without '\n'.
TEST(InputStreamTest, LinesContaining) {
  std::string Text;
  std::mt19937 Rng(5);
  unsigned LongLines = 0;
  while (Text.size() < (4u << 20)) {
    unsigned Kind = Rng() % 50;
    if (Text.size() > (LongLines + 1) * (1u << 20)) {
      Text += std::string(1500000, 'x') + (LongLines++ % 2 ? "=\n" : "\n");
      continue;
    }
    if (Kind == 0)
      Text += "fn=(1) a::b\r\n";
    else if (Kind == 1)
      Text += "=at the start\n";
    else if (Kind == 2)
      Text += "at the end:\n";
    else if (Kind == 3)
      Text += "\n";
    else
      Text += "+" + std::to_string(Rng() % 1000) + " 1 2\n";
  }
  for (std::string Last : {"", "last=", "last", "last:\r"}) {
    std::string All = Text + Last;
    std::vector<std::string> Expected, Got;
    std::unique_ptr<InputStream> In = InputStream::fromBuffer(All, "mem");
    StringRef Line;
    while (In->nextLine(Line))
      if (Line.find_first_of("=:") != StringRef::npos)
        Expected.push_back(Line.str());
    In = InputStream::fromBuffer(All, "mem");
    EXPECT_FALSE(In->forEachLineContaining('=', ':', [&](StringRef Line) {
      // The byte after the line is there to stop scanners.
      EXPECT_TRUE(Line.end()[0] == '\n' || Line.end()[0] == '\r');
      Got.push_back(Line.str());
      return true;
    }));
    EXPECT_FALSE(In->takeError());
    EXPECT_GT(Expected.size(), 1000u);
    EXPECT_EQ(Got, Expected) << "ending in '" << Last << "'";
  }
}

// A Take that stops leaves the stream right after its line, across the 1 MB
// reads.
TEST(InputStreamTest, LinesContainingStopped) {
  std::string Text;
  for (unsigned I = 0; I != 300000; ++I)
    Text += I % 7 ? "+" + std::to_string(I) + " 1\n"
                  : "fn=" + std::to_string(I) + "\n";
  std::vector<std::string> All, Expected, Got;
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Text, "mem");
  StringRef Line;
  while (In->nextLine(Line))
    All.push_back(Line.str());
  // Each hit, then the line after it, which the next hit comes after.
  for (size_t I = 0; I < All.size(); ++I)
    if (All[I].find('=') != std::string::npos) {
      Expected.push_back(All[I]);
      if (++I != All.size())
        Expected.push_back(All[I]);
    }
  In = InputStream::fromBuffer(Text, "mem");
  while (In->forEachLineContaining('=', ':', [&](StringRef Line) {
    Got.push_back(Line.str());
    return false;
  }))
    if (In->nextLine(Line))
      Got.push_back(Line.str());
  EXPECT_FALSE(In->takeError());
  EXPECT_EQ(Got, Expected);
}

// A reader that stops early (an error in line 1) leaves the thread inflating
// ahead, blocked on its full blocks: closing the stream stops it.
TEST(InputStreamTest, GzipFileClosedEarly) {
  TempFile F(gzip(std::string(16u << 20, '\n')));
  std::unique_ptr<InputStream> In = openFile(F.path());
  StringRef Line;
  EXPECT_TRUE(In->nextLine(Line));
  In.reset();
}

// A stream asks for each byte of its file once, in order, in steps the
// kernel reads whole, always AskAheadBytes past where it reads, never past
// the end; a reader that jumps ahead leaves no gap behind it.
TEST(InputStreamTest, AskAhead) {
  const uint64_t End = 5 * AskAheadBytes + 12345;
  std::vector<std::pair<uint64_t, uint64_t>> Asks;
  auto Ask = [&](uint64_t Offset, uint64_t Length) {
    Asks.push_back({Offset, Length});
  };
  uint64_t Asked = 0;
  std::vector<uint64_t> Reads;
  for (uint64_t At = 0; At < End;
       At += At == 700000 ? 3 * AskAheadBytes : 100000) // A jump ahead.
    Reads.push_back(At);
  Reads.push_back(End - 1);
  uint64_t Next = 0; // Where the next ask starts.
  for (uint64_t At : Reads) {
    Asks.clear();
    Asked = askAhead(Asked, At, End, Ask);
    for (auto [Offset, Length] : Asks) {
      EXPECT_EQ(Offset, Next);
      EXPECT_GT(Length, 0u);
      EXPECT_LE(Length, AskAheadStep);
      Next = Offset + Length;
    }
    EXPECT_LE(Next, End);
    EXPECT_GE(Next, std::min(End, At + AskAheadBytes));
    EXPECT_LT(Next, std::min(End, At + AskAheadBytes) + AskAheadStep);
  }
  EXPECT_EQ(Next, End);
  Asks.clear();
  askAhead(Asked, End, End, Ask);
  EXPECT_TRUE(Asks.empty());
}

} // namespace
