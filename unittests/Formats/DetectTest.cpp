//===- DetectTest.cpp - Format detection sees only the head ---------------===//

#include "profkit/Formats/Format.h"
#include "gtest/gtest.h"
#include <string>

using namespace profkit;

namespace {

// A head is the first bytes of a file, a view into a larger buffer: what
// follows it in memory must not change which formats claim it.
TEST(FormatDetect, ReadsNothingPastTheHead) {
  const char *Heads[] = {
      "main:4:5",                       // A text sample profile, no newline.
      "main:4:5\n 1: 4",                // The same with a body line.
      "# callgrind format\nevents: Ir", // Callgrind.
      "events: Ir\nfn=main\n1 5",       // Callgrind without its first line.
      "{\"traceEvents\":[",             // A time trace.
      "gmon",                           // gmon.out's magic.
  };
  for (const char *Head : Heads)
    for (const FormatInfo &F : formats()) {
      if (!F.Detect)
        continue;
      std::string Text = Head;
      size_t Size = Text.size();
      bool Alone = F.Detect(llvm::StringRef(Text.c_str(), Size));
      for (const char *After : {"X", "\n", " 9", "0:0\n"}) {
        std::string Longer = Text + After;
        EXPECT_EQ(Alone, F.Detect(llvm::StringRef(Longer.data(), Size)))
            << F.Name.str() << " on '" << Head << "' followed by '" << After
            << "'";
      }
    }
}

} // namespace
