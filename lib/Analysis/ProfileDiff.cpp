//===- ProfileDiff.cpp - What changed between two profiles ----------------===//

#include "profkit/Analysis/ProfileDiff.h"
#include "profkit/Analysis/InclusiveCost.h"
#include "llvm/ADT/StringMap.h"

using namespace profkit;
using namespace llvm;

ProfileDiff ProfileDiff::compute(const Profile &Base, const Profile &New,
                                 const PathNormalizer &Paths) {
  ProfileDiff D;
  // Events by name: the columns of each profile that both have.
  std::vector<unsigned> BaseCol, NewCol;
  for (unsigned E = 0; E != Base.events().size(); ++E) {
    const std::string &Name = Base.events()[E].Name;
    if (std::optional<unsigned> N = New.findEvent(Name)) {
      D.Events.push_back(Name);
      BaseCol.push_back(E);
      NewCol.push_back(*N);
    } else {
      D.OnlyInBase.push_back(Name);
    }
  }
  for (const EventType &E : New.events())
    if (!Base.findEvent(E.Name))
      D.OnlyInNew.push_back(E.Name);

  size_t NE = D.Events.size();
  InclusiveCost BaseIC = InclusiveCost::compute(Base),
                NewIC = InclusiveCost::compute(New);
  for (size_t E = 0; E != NE; ++E) {
    D.BaseTotals.push_back(BaseIC.total()[BaseCol[E]]);
    D.NewTotals.push_back(NewIC.total()[NewCol[E]]);
  }
  // Functions by identity, as text: the two profiles intern apart.
  StringMap<size_t> Index;
  auto Add = [&](const Profile &P, const InclusiveCost &IC,
                 ArrayRef<unsigned> Col, bool IsNew) {
    for (FuncId F = 0; F != P.numFunctions(); ++F) {
      if (!IC.partsWithData(F) && !IC.hasCallers(F))
        continue;
      const profkit::Function &Fn = P.function(F);
      StringRef Name = P.Strings.str(Fn.Name);
      std::string File = Paths(P.Strings.str(Fn.File)),
                  Object = Paths(P.Strings.str(Fn.Object));
      std::string Key = Object + "\n" + File + "\n" + Name.str();
      auto [It, Inserted] = Index.try_emplace(Key, D.Functions.size());
      if (Inserted) {
        Function G;
        G.Name = Name.str();
        G.File = std::move(File);
        G.Object = std::move(Object);
        G.BaseSelf.assign(NE, 0);
        G.NewSelf.assign(NE, 0);
        G.BaseInclusive.assign(NE, 0);
        G.NewInclusive.assign(NE, 0);
        D.Functions.push_back(std::move(G));
      }
      Function &G = D.Functions[It->second];
      (IsNew ? G.InNew : G.InBase) = true;
      for (size_t E = 0; E != NE; ++E) {
        (IsNew ? G.NewSelf : G.BaseSelf)[E] = IC.self(F)[Col[E]];
        (IsNew ? G.NewInclusive : G.BaseInclusive)[E] = IC.inclusive(F)[Col[E]];
      }
    }
  };
  Add(Base, BaseIC, BaseCol, false);
  Add(New, NewIC, NewCol, true);
  return D;
}
