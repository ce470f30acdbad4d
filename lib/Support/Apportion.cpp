//===- Apportion.cpp - Splitting an amount by weights, exactly ------------===//

#include "profkit/Support/Apportion.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

using namespace llvm;

void profkit::apportion(uint64_t Amount, ArrayRef<uint64_t> Weights,
                        SmallVectorImpl<uint64_t> &Parts) {
  Parts.clear();
  if (Weights.empty())
    return;
  unsigned __int128 Sum = 0;
  for (uint64_t W : Weights)
    Sum += W;
  bool Equal = Sum == 0;
  if (Equal)
    Sum = Weights.size();
  SmallVector<unsigned __int128, 8> Remainders;
  uint64_t Given = 0;
  for (uint64_t W : Weights) {
    unsigned __int128 Quota = (unsigned __int128)Amount * (Equal ? 1 : W);
    Parts.push_back(uint64_t(Quota / Sum));
    Remainders.push_back(Quota % Sum);
    Given += Parts.back();
  }
  // Fewer units are left than there are parts.
  SmallVector<size_t, 8> Order(Weights.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(
      Order, [&](size_t A, size_t B) { return Remainders[A] > Remainders[B]; });
  for (size_t I = 0; Given != Amount; ++I, ++Given)
    ++Parts[Order[I]];
}
