//===- SourceLines.cpp - Self cost per source line ------------------------===//

#include "profkit/Analysis/SourceLines.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace profkit;
using namespace llvm;

SourceLines SourceLines::compute(const Profile &P) {
  SourceLines S;
  size_t NE = S.NumEvents = P.events().size();
  // Entries in the order first seen; sorted by file name and line below.
  DenseMap<std::pair<StrId, uint64_t>, uint32_t> Index;
  std::vector<std::pair<StrId, uint64_t>> Keys;
  std::vector<uint64_t> Sums;
  for (const auto &Pt : P.parts()) {
    std::optional<unsigned> LineAt = Pt->positionIndex(PositionKind::Line);
    if (!LineAt) {
      ++S.PartsWithoutLines;
      continue;
    }
    RowLayout L = Pt->layout();
    for (const FunctionData &FD : Pt->functions()) {
      StrId OwnFile = P.function(FD.Id).File;
      for (const Row &R : FD.Self) {
        StrId File = L.sourceFile(R);
        std::pair<StrId, uint64_t> Key(File ? File : OwnFile,
                                       L.position(R)[*LineAt]);
        auto [It, New] = Index.try_emplace(Key, uint32_t(Keys.size()));
        if (New) {
          Keys.push_back(Key);
          Sums.resize(Sums.size() + NE, 0);
        }
        S.HasLines |= Key.second != 0;
        uint64_t *To = Sums.data() + size_t(It->second) * NE;
        for (size_t E = 0; E != NE; ++E)
          S.Overflow |= !addCost(To[E], R.value(E));
      }
    }
  }
  if (!S.HasLines)
    return S;
  Index.clear();
  std::vector<uint32_t> Order(Keys.size());
  for (uint32_t I = 0; I != Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](uint32_t A, uint32_t B) {
    if (Keys[A].first != Keys[B].first) {
      int C =
          P.Strings.str(Keys[A].first).compare(P.Strings.str(Keys[B].first));
      if (C)
        return C < 0;
      return Keys[A].first < Keys[B].first;
    }
    return Keys[A].second < Keys[B].second;
  });
  S.Lines.reserve(Order.size());
  S.Costs.reserve(Order.size() * NE);
  for (uint32_t I : Order) {
    StrId Name = Keys[I].first;
    if (S.Files.empty() || S.Files.back().Name != Name) {
      if (!S.Files.empty())
        S.Files.back().End = S.Lines.size();
      S.Files.push_back(File{Name, S.Lines.size(), S.Lines.size(),
                             std::vector<uint64_t>(NE)});
    }
    S.Lines.push_back(Keys[I].second);
    ArrayRef<uint64_t> C = ArrayRef(Sums).slice(size_t(I) * NE, NE);
    S.Costs.insert(S.Costs.end(), C.begin(), C.end());
    for (size_t E = 0; E != NE; ++E)
      S.Overflow |= !addCost(S.Files.back().Total[E], C[E]);
  }
  if (!S.Files.empty())
    S.Files.back().End = S.Lines.size();
  return S;
}
