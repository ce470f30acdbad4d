//===- CodeTargets.cpp - The architectures whose code profkit reads ------===//

#include "CodeTargets.h"

#define PROFKIT_CODE_TARGET(T)                                                 \
  extern "C" void LLVMInitialize##T##TargetInfo();                             \
  extern "C" void LLVMInitialize##T##TargetMC();                               \
  extern "C" void LLVMInitialize##T##Disassembler();
#include "CodeTargets.def"
#undef PROFKIT_CODE_TARGET

void profkit::initializeCodeTargets(bool WithDisassemblers) {
  static bool Described = [] {
#define PROFKIT_CODE_TARGET(T)                                                 \
  LLVMInitialize##T##TargetInfo();                                             \
  LLVMInitialize##T##TargetMC();
#include "CodeTargets.def"
#undef PROFKIT_CODE_TARGET
    return true;
  }();
  (void)Described;
  if (!WithDisassemblers)
    return;
  static bool Disassembling = [] {
#define PROFKIT_CODE_TARGET(T) LLVMInitialize##T##Disassembler();
#include "CodeTargets.def"
#undef PROFKIT_CODE_TARGET
    return true;
  }();
  (void)Disassembling;
}
