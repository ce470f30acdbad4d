//===- IRPrinter.h - Canonical text form of the profile IR -----*- C++ -*-===//
//
// Prints a profile in a stable, canonical text form: functions sorted by
// name, file and object; rows sorted by source file and position. Two
// profiles that hold the same data print the same text, whatever order their
// files listed it in, so tests compare IRs by comparing this text.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_IRPRINTER_H
#define PROFKIT_IR_IRPRINTER_H

namespace llvm {
class raw_ostream;
}

namespace profkit {
class Profile;

void printIR(const Profile &P, llvm::raw_ostream &OS);

/// Prints the profile's `event:` lines (long names, derived events) as the
/// callgrind format spells them; the IR text uses the same spelling.
void printEventLines(const Profile &P, llvm::raw_ostream &OS);

} // namespace profkit

#endif
