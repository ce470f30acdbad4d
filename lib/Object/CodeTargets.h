//===- CodeTargets.h - The architectures whose code profkit reads --------===//

#ifndef PROFKIT_LIB_OBJECT_CODETARGETS_H
#define PROFKIT_LIB_OBJECT_CODETARGETS_H

namespace profkit {

/// Registers the target info and machine-code descriptions of the
/// architectures lib/Object/CMakeLists.txt lists, and their disassemblers if
/// asked; once for each.
void initializeCodeTargets(bool WithDisassemblers);

} // namespace profkit

#endif
