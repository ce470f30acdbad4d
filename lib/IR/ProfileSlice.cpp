//===- ProfileSlice.cpp - A profile handed over as it is read -------------===//

#include "profkit/IR/ProfileSlice.h"

using namespace profkit;

void PlainRows::keep(size_t Index, Kind K, const RowBatch &B) {
  if (Tables.size() <= Index)
    Tables.resize(Index + 1);
  const unsigned Stride = B.keyWidth() + B.valueWidth();
  uint64_t *Out = Words.Allocate<uint64_t>(B.order().size() * Stride);
  Tables[Index][K] = {Out, uint32_t(B.order().size()), B.valueWidth()};
  for (uint32_t I : B.order())
    Out = std::copy(B.row(I), B.row(I) + Stride, Out);
}

bool PlainRows::moveInto(size_t Index, Kind K, RowTable &To,
                         RowBatch &Scratch) {
  assert(To.empty() && "a table holds its rows encoded or plain");
  Scratch.clear();
  Scratch.setKeyWidth(To.keyWidth());
  forEachRow(table(Index, K), To.keyWidth(),
             [&](const Row &R) { Scratch.add(R.Key, R.Values); });
  Tables[Index][K] = Table();
  // The rows are sorted and summed: adding them sums nothing.
  return To.addBatch(Scratch);
}
