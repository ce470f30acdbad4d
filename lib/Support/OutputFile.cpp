//===- OutputFile.cpp - All-or-nothing output files -----------------------===//

#include "profkit/Support/OutputFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <climits>
#include <unistd.h>
// next_in as const, as the data written is.
#define ZLIB_CONST
#include <zlib.h>

using namespace profkit;
using namespace llvm;

/// The file a write to Path lands in: Path with the symbolic links at its
/// end followed, also to a target that does not exist yet. Replacing that
/// file, not the link, keeps the link (as compilers and cp do).
static Expected<std::string> followLinks(StringRef Path) {
  std::string File = Path.str();
  // Linux's limit (MAXSYMLINKS), which also stops a loop of links.
  for (unsigned Hops = 0; Hops != 40; ++Hops) {
    char Link[PATH_MAX];
    ssize_t Size = ::readlink(File.c_str(), Link, sizeof(Link));
    // Not a link, or nothing there: this is the file; opening it says what
    // is wrong, if anything.
    if (Size < 0)
      return File;
    StringRef To(Link, Size);
    if (sys::path::is_absolute(To)) {
      File = To.str();
      continue;
    }
    // Relative to the link's directory. The ".." it may hold is left to the
    // kernel: lexically it would be wrong past a linked directory.
    SmallString<256> Next(sys::path::parent_path(File));
    sys::path::append(Next, To);
    File = std::string(Next);
  }
  std::error_code EC =
      std::make_error_code(std::errc::too_many_symbolic_link_levels);
  return createStringError(EC, "%s: %s", Path.str().c_str(),
                           EC.message().c_str());
}

Error OutputFile::open() {
  sys::fs::file_status St;
  bool Exists = !sys::fs::status(Path, St) && sys::fs::exists(St);
  bool InPlace = Path == "-" || (Exists && !sys::fs::is_regular_file(St));
  if (InPlace) {
    std::error_code EC;
    OS = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, "%s: %s", Path.c_str(),
                               EC.message().c_str());
    return Error::success();
  }
  Expected<std::string> Followed = followLinks(Path);
  if (!Followed)
    return Followed.takeError();
  Target = std::move(*Followed);
  // Beside the target, so that renaming it there stays in one file system.
  Expected<sys::fs::TempFile> T =
      sys::fs::TempFile::create(Target + "-%%%%%%%%.tmp");
  if (!T) {
    std::error_code EC = errorToErrorCode(T.takeError());
    if (Target == Path)
      return createStringError(
          EC, "%s: cannot create a temporary file beside it: %s", Path.c_str(),
          EC.message().c_str());
    return createStringError(
        EC, "%s: cannot create a temporary file beside its target %s: %s",
        Path.c_str(), Target.c_str(), EC.message().c_str());
  }
  Temp.emplace(std::move(*T));
  // The new file replaces the old one, so it takes the old one's permissions
  // (but not set-user-ID and the like, meant for the old contents and owner);
  // a new output keeps the usual 0666 & ~umask.
  if (Exists)
    if (std::error_code EC = sys::fs::setPermissions(
            Temp->FD, St.permissions() & sys::fs::all_perms))
      return createStringError(
          EC, "%s: cannot give the new file the old one's permissions: %s",
          Path.c_str(), EC.message().c_str());
  OS = std::make_unique<raw_fd_ostream>(Temp->FD, /*shouldClose=*/false);
  return Error::success();
}

/// Deflates what is written to it into a gzip stream on Out as it comes, so
/// that the output is never held whole.
class OutputFile::Gzip : public raw_ostream {
public:
  explicit Gzip(raw_ostream &Out) : Out(Out) {}
  ~Gzip() override {
    flush();
    deflateEnd(&Z);
  }
  bool init() {
    // 15 + 16 window bits: a gzip header and trailer around the deflate data.
    return deflateInit2(&Z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                        Z_DEFAULT_STRATEGY) == Z_OK;
  }
  /// Deflates what is buffered and ends the stream with the gzip trailer.
  void finish() {
    flush();
    compress(nullptr, 0, Z_FINISH);
  }

private:
  void write_impl(const char *Ptr, size_t Size) override {
    Pos += Size;
    compress(Ptr, Size, Z_NO_FLUSH);
  }
  uint64_t current_pos() const override { return Pos; }
  size_t preferred_buffer_size() const override { return sizeof(Buf); }
  void compress(const char *Ptr, size_t Size, int Flush);

  raw_ostream &Out;
  z_stream Z = {};
  uint64_t Pos = 0;
  unsigned char Buf[1 << 16];
};

void OutputFile::Gzip::compress(const char *Ptr, size_t Size, int Flush) {
  do {
    // avail_in holds 32 bits.
    size_t Piece = std::min<size_t>(Size, 1u << 30);
    Z.next_in = reinterpret_cast<const unsigned char *>(Ptr);
    Z.avail_in = Piece;
    Ptr += Piece;
    Size -= Piece;
    do {
      Z.next_out = Buf;
      Z.avail_out = sizeof(Buf);
      deflate(&Z, Size ? Z_NO_FLUSH : Flush);
      Out.write(reinterpret_cast<const char *>(Buf), sizeof(Buf) - Z.avail_out);
    } while (Z.avail_out == 0);
  } while (Size);
}

Expected<std::unique_ptr<OutputFile>> OutputFile::create(StringRef Path) {
  std::unique_ptr<OutputFile> F(new OutputFile());
  F->Path = Path.str();
  if (Error E = F->open())
    return std::move(E);
  // The name asks for gzip, as gzip itself names its output.
  if (Path.ends_with(".gz")) {
    F->Compressed = std::make_unique<Gzip>(*F->OS);
    if (!F->Compressed->init())
      return createStringError(
          std::make_error_code(std::errc::not_enough_memory),
          "%s: cannot initialize zlib", F->Path.c_str());
  }
  return std::move(F);
}

OutputFile::~OutputFile() {
  Compressed.reset(); // It writes to OS.
  if (OS) {
    OS->clear_error();
    OS.reset();
  }
  if (Temp)
    consumeError(Temp->discard());
}

raw_ostream &OutputFile::os() {
  if (Compressed)
    return *Compressed;
  return *OS;
}

Error OutputFile::commit() {
  if (Compressed) {
    Compressed->finish();
    Compressed.reset();
  }
  OS->flush();
  if (std::error_code EC = OS->error()) {
    OS->clear_error();
    return createStringError(EC, "%s: write failed: %s", Path.c_str(),
                             EC.message().c_str());
  }
  OS.reset();
  if (!Temp)
    return Error::success();
  if (Error E = Temp->keep(Target)) {
    std::error_code EC = errorToErrorCode(std::move(E));
    return createStringError(EC, "%s: cannot rename the output into place: %s",
                             Path.c_str(), EC.message().c_str());
  }
  Temp.reset();
  return Error::success();
}
