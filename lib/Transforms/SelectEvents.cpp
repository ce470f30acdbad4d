//===- SelectEvents.cpp - Keep some events, in a given order --------------===//

#include "profkit/Transforms/SelectEvents.h"
#include "profkit/Support/Error.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace profkit;
using namespace llvm;

Expected<SelectEventsPass> SelectEventsPass::create(const PassParams &Params,
                                                    PassContext &) {
  SelectEventsPass S;
  S.Params = Params;
  SmallVector<StringRef, 8> Names = Params.getList("events");
  if (Names.empty())
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "pass 'select-events' needs events=E1,E2,...");
  for (StringRef N : Names) {
    if (is_contained(S.Events, N))
      return Params.invalid("events", "'" + N + "' is listed twice");
    S.Events.push_back(N.str());
  }
  return S;
}

Expected<PreservedAnalyses> SelectEventsPass::run(Profile &P,
                                                  ProfileAnalysisManager &) {
  SmallVector<unsigned, 8> Keep;
  for (const std::string &N : Events) {
    std::optional<unsigned> C = P.findEvent(N);
    if (!C) {
      std::string Known;
      for (const EventType &E : P.events())
        Known += (Known.empty() ? "" : " ") + E.Name;
      return createStringError(make_error_code(ErrorCode::InvalidArgument),
                               "select-events: the profile has no event '" + N +
                                   "' (it has: " + Known + ")");
    }
    Keep.push_back(*C);
  }
  // Drop formulas that refer to an event that is gone.
  erase_if(P.EventDecls, [&](const EventDecl &D) {
    SmallVector<StringRef, 8> Words;
    SplitString(D.Formula, Words, " \t+-*()");
    return any_of(Words, [&](StringRef W) {
      return P.findEvent(W) && !is_contained(Events, W.str());
    });
  });
  if (!keepEvents(P, Keep))
    return overflowError(name());
  return PreservedAnalyses::none();
}
