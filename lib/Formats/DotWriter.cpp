//===- DotWriter.cpp - The call graph as a graphviz picture ---------------===//
//
// `-output-format=dot<event=E;node-min=P%;edge-min=P%;shorten>`: the call
// graph for graphviz, as gprof2dot draws it: a node for each function whose
// inclusive cost is at least node-min of the run, labelled with its
// inclusive and self share and its calls, coloured on a ramp from blue
// (cold) to red (hot) by inclusive share; an edge for each call between
// two shown functions of at least edge-min, as thick as its share. Calls
// inside a cycle of the call graph (recursion) are dashed. Inclusive costs
// are the inclusive analysis's, right under recursion.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/BuildReport.h"
#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "profkit/Support/TextFormat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>

using namespace profkit;
using namespace llvm;

/// A DOT string: quoted, quotes and backslashes escaped, line breaks as
/// graphviz's `\n`.
static std::string dotString(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// The colour of a share of the run in [0, 1]: blue, through green and
/// yellow, to red, as an HSV hue graphviz reads.
static std::string rampColour(double Share) {
  double Hue = 0.66 * (1.0 - std::clamp(Share, 0.0, 1.0));
  return formatv("{0:F3} 0.85 0.90", Hue).str();
}

static Expected<double> shareParam(const PassParams &Params, StringRef Name) {
  StringRef V = Params.get(Name);
  double D;
  if (!V.consume_back("%") || V.getAsDouble(D) || D < 0 || D > 100)
    return Params.invalid(Name, "'" + Params.get(Name) +
                                    "' is not a share such as 0.5%");
  return D / 100;
}

Error profkit::writeDot(const Profile &P, raw_ostream &OS,
                        const PassParams &Params, const WriteContext &) {
  if (Error E = requireFunctions(P))
    return E;
  if (P.events().empty())
    return makeError(ErrorCode::InvalidArgument,
                     P.SourceName + ": the profile has no events to draw");
  unsigned Event = 0;
  if (StringRef Name = Params.get("event"); !Name.empty()) {
    std::optional<unsigned> E = P.findEvent(Name);
    if (!E)
      return Params.invalid("event", "the profile has no event '" + Name + "'");
    Event = *E;
  }
  Expected<double> NodeMin = shareParam(Params, "node-min");
  if (!NodeMin)
    return NodeMin.takeError();
  Expected<double> EdgeMin = shareParam(Params, "edge-min");
  if (!EdgeMin)
    return EdgeMin.takeError();
  bool Shorten = Params.getFlag("shorten");

  InclusiveCost IC = InclusiveCost::compute(P);
  double Total = double(IC.total()[Event]);
  auto Share = [&](uint64_t Cost) { return Total ? double(Cost) / Total : 0; };
  std::vector<bool> Shown(IC.numFunctions());
  for (FuncId F = 0; F != IC.numFunctions(); ++F)
    Shown[F] = (IC.partsWithData(F) || IC.hasCallers(F)) &&
               Share(IC.inclusive(F)[Event]) >= *NodeMin &&
               IC.inclusive(F)[Event];
  // Calls between shown functions, summed over the parts.
  std::map<std::pair<FuncId, FuncId>, std::pair<uint64_t, uint64_t>> Calls;
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    for (const FunctionData &FD : Pt->functions()) {
      if (!Shown[FD.Id])
        continue;
      for (const Row &R : FD.Calls) {
        FuncId To = L.callee(R);
        if (!Shown[To])
          continue;
        auto &[Count, Cost] = Calls[{FD.Id, To}];
        (void)addCost(Count, R.value(0));
        (void)addCost(Cost, R.value(1 + Event));
      }
    }
  }

  OS << "digraph profile {\n"
     << "  graph [fontname=\"Helvetica\", nodesep=0.25, ranksep=0.25, "
        "label="
     << dotString(P.SourceName + ": " + P.events()[Event].Name + " " +
                  groupThousands(IC.total()[Event]))
     << ", labelloc=t];\n"
     << "  node [fontname=\"Helvetica\", shape=box, style=\"filled,rounded\", "
        "fontcolor=white, fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.5];\n";
  for (FuncId F = 0; F != IC.numFunctions(); ++F) {
    if (!Shown[F])
      continue;
    std::string Name = P.functionName(F).str();
    if (Shorten)
      Name = collapseTemplateArgs(Name);
    double Incl = Share(IC.inclusive(F)[Event]);
    double Self = Share(IC.self(F)[Event]);
    std::string Label = formatv("{0}\n{1:P2}\n({2:P2})\n{3}×", Name, Incl, Self,
                                groupThousands(IC.calls(F)))
                            .str();
    OS << "  f" << F << " [label=" << dotString(Label)
       << ", tooltip=" << dotString(P.Strings.str(P.function(F).Object))
       << ", fillcolor=" << dotString(rampColour(Incl)) << "];\n";
  }
  for (const auto &[Key, Value] : Calls) {
    auto [From, To] = Key;
    double Cost = Share(Value.second);
    if (Cost < *EdgeMin)
      continue;
    bool InCycle = IC.component(From) == IC.component(To);
    OS << "  f" << From << " -> f" << To << " [label="
       << dotString(
              formatv("{0:P2}\n{1}×", Cost, groupThousands(Value.first)).str())
       << ", color=" << dotString(rampColour(Cost))
       << formatv(", penwidth={0:F2}", 0.5 + 4.0 * Cost)
       << (InCycle ? ", style=dashed" : "") << "];\n";
  }
  OS << "}\n";
  return Error::success();
}
