//===- AddressData.cpp - Combining gmon.out data as gprof does ------------===//
//
// gprof's rules for several histogram records and arcs (hist.c, call_graph.c,
// and `gprof -s`), shared by the reader (records of one file) and the merge
// pass (several runs). See AddressData.h.
//
//===----------------------------------------------------------------------===//

#include "profkit/IR/AddressData.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/Twine.h"
#include <cmath>
#include <map>

using namespace profkit;
using namespace llvm;

Error profkit::addHistogram(std::vector<Histogram> &Hists, Histogram H,
                            bool &Saturated) {
  auto Scale = [](const Histogram &X) {
    return double((X.HighPC - X.LowPC) / 2) / double(X.Bins.size());
  };
  if (!Hists.empty()) {
    const Histogram &First = Hists.front();
    if (First.Dimension != H.Dimension)
      return makeError(
          ErrorCode::Mismatch,
          "dimension unit changed between histogram records (from '" +
              First.Dimension + "' to '" + H.Dimension + "')");
    if (First.Abbrev != H.Abbrev)
      return makeError(ErrorCode::Mismatch,
                       "dimension abbreviation changed between histogram "
                       "records (from '" +
                           Twine(First.Abbrev) + "' to '" + Twine(H.Abbrev) +
                           "')");
    if (std::fabs(Scale(First) - Scale(H)) > 1e-6)
      return makeError(ErrorCode::Mismatch,
                       "different scales in histogram records");
  }
  unsigned Overlapping = 0;
  Histogram *Same = nullptr;
  for (Histogram &Old : Hists) {
    if (Old.LowPC == H.LowPC && Old.HighPC == H.HighPC)
      Same = &Old;
    else if (H.LowPC < Old.HighPC && Old.LowPC < H.HighPC)
      ++Overlapping;
  }
  if (Same) {
    if (Same->Bins.size() != H.Bins.size())
      return makeError(ErrorCode::Mismatch,
                       "different scales in histogram records");
    for (size_t I = 0; I != H.Bins.size(); ++I)
      Saturated |= !addCost(Same->Bins[I], H.Bins[I]);
    return Error::success();
  }
  if (Overlapping >= 2)
    return makeError(ErrorCode::Mismatch,
                     "found a symbol that covers several histogram records");
  if (Overlapping == 1)
    return makeError(ErrorCode::Mismatch, "overlapping histogram records");
  Hists.push_back(std::move(H));
  return Error::success();
}

bool profkit::addArcs(std::vector<AddressArc> &To, ArrayRef<AddressArc> From) {
  // Any address may occur (hostile files): no DenseMap sentinel keys.
  std::map<std::pair<uint64_t, uint64_t>, size_t> Index;
  for (size_t I = 0; I != To.size(); ++I)
    Index.try_emplace({To[I].FromPC, To[I].SelfPC}, I);
  bool Ok = true;
  for (const AddressArc &A : From) {
    auto [It, New] = Index.try_emplace({A.FromPC, A.SelfPC}, To.size());
    if (New)
      To.push_back(A);
    else
      Ok &= addCost(To[It->second].Count, A.Count);
  }
  return Ok;
}

bool profkit::addBlocks(std::vector<BlockCount> &To,
                        ArrayRef<BlockCount> From) {
  std::map<uint64_t, size_t> Index;
  for (size_t I = 0; I != To.size(); ++I)
    Index.try_emplace(To[I].Address, I);
  bool Ok = true;
  for (const BlockCount &B : From) {
    auto [It, New] = Index.try_emplace(B.Address, To.size());
    if (New)
      To.push_back(B);
    else
      Ok &= addCost(To[It->second].Count, B.Count);
  }
  return Ok;
}
