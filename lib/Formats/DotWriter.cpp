//===- DotWriter.cpp - The call graph as a graphviz picture ---------------===//
//
// `-output-format=dot<event=E;node-min=P%;edge-min=P%;root=G;leaf=G;shorten>`:
// the call graph for graphviz, as gprof2dot draws it: a node for each
// function whose inclusive cost is at least node-min of the run (and, with
// root= or leaf=, that is called from a root or calls into a leaf), labelled
// with its inclusive and self share and its calls, coloured on a ramp from blue
// (cold) to red (hot) by inclusive share; an edge for each call between
// two shown functions of at least edge-min, as thick as its share. Calls
// inside a cycle of the call graph (recursion) are dashed, and cost at most
// their callee's inclusive cost. Inclusive costs are the inclusive
// analysis's, right under recursion.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/BuildReport.h"
#include "profkit/Analysis/CallGraph.h"
#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/TextFormat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

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
static double rampHue(double Share) {
  return 0.66 * (1.0 - std::clamp(Share, 0.0, 1.0));
}
static std::string rampColour(double Share) {
  return formatv("{0:F3} 0.85 0.90", rampHue(Share)).str();
}
/// Black on the ramp's light middle (yellow, green, cyan), where white text
/// is hard to read, white on its dark ends.
static StringRef textColour(double Share) {
  double Hue = rampHue(Share);
  return Hue > 0.1 && Hue < 0.55 ? "black" : "white";
}

static Expected<double> shareParam(const PassParams &Params, StringRef Name) {
  double Percent;
  if (Error E = Params.getPercent(Name, Percent))
    return std::move(E);
  return Percent / 100;
}

/// The functions reachable from those named by the glob in parameter
/// \p Name, along calls (\p Forward) or against them; all functions when
/// the parameter is empty.
static Expected<std::vector<bool>>
focus(const Profile &P, const PassParams &Params, StringRef Name, bool Forward,
      std::optional<CallGraphAnalysis::Result> &CG) {
  size_t N = P.numFunctions();
  StringRef Pattern = Params.get(Name);
  if (Pattern.empty())
    return std::vector<bool>(N, true);
  Expected<GlobPattern> Glob = GlobPattern::create(Pattern);
  if (!Glob)
    return Params.invalid(Name, toString(Glob.takeError()));
  std::vector<FuncId> Seeds;
  for (FuncId F = 0; F != N; ++F)
    if (Glob->match(P.functionName(F)))
      Seeds.push_back(F);
  if (Seeds.empty())
    return Params.invalid(Name, "no function matches '" + Pattern + "'");
  if (!CG) // Made once for root= and leaf=.
    CG = CallGraphAnalysis::compute(P);
  return CG->reachable(Seeds, Forward);
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
  std::optional<CallGraphAnalysis::Result> CG;
  Expected<std::vector<bool>> BelowRoot = focus(P, Params, "root", true, CG);
  if (!BelowRoot)
    return BelowRoot.takeError();
  Expected<std::vector<bool>> AboveLeaf = focus(P, Params, "leaf", false, CG);
  if (!AboveLeaf)
    return AboveLeaf.takeError();

  InclusiveCost IC = InclusiveCost::compute(P);
  double Total = double(IC.total()[Event]);
  auto Share = [&](uint64_t Cost) { return Total ? double(Cost) / Total : 0; };
  std::vector<bool> Shown(IC.numFunctions());
  for (FuncId F = 0; F != IC.numFunctions(); ++F)
    Shown[F] = (*BelowRoot)[F] && (*AboveLeaf)[F] &&
               (IC.partsWithData(F) || IC.hasCallers(F)) &&
               Share(IC.inclusive(F)[Event]) >= *NodeMin &&
               IC.inclusive(F)[Event];
  // Calls between shown functions (the inclusive analysis sums them), in
  // caller and callee order.
  std::vector<unsigned> Calls;
  for (unsigned I = 0; I != IC.arcs().size(); ++I)
    if (Shown[IC.arcs()[I].From] && Shown[IC.arcs()[I].To])
      Calls.push_back(I);
  llvm::sort(Calls, [&](unsigned A, unsigned B) {
    return std::pair(IC.arcs()[A].From, IC.arcs()[A].To) <
           std::pair(IC.arcs()[B].From, IC.arcs()[B].To);
  });

  // nslimit bounds graphviz's placement of nodes along each rank: on the
  // hundreds of functions of a large program's call graph the unbounded
  // search took 30 s and drew the picture twice as wide.
  OS << "digraph profile {\n"
     << "  graph [fontname=\"Helvetica\", nodesep=0.25, ranksep=0.25, "
        "nslimit=1, label="
     << dotString(P.SourceName + ": " + P.events()[Event].Name + " " +
                  groupThousands(IC.total()[Event]))
     << ", labelloc=t];\n"
     << "  node [fontname=\"Helvetica\", shape=box, style=\"filled,rounded\", "
        "fontsize=10];\n"
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
       << ", fillcolor=" << dotString(rampColour(Incl))
       << ", fontcolor=" << textColour(Incl) << "];\n";
  }
  for (unsigned I : Calls) {
    auto [From, To, Count] = IC.arcs()[I];
    // A call inside a cycle sums its nested recursive calls; no call costs
    // more than its callee's inclusive cost.
    double Cost =
        Share(std::min(IC.arcCost(I)[Event], IC.inclusive(To)[Event]));
    if (Cost < *EdgeMin)
      continue;
    bool InCycle = IC.component(From) == IC.component(To);
    OS << "  f" << From << " -> f" << To << " [label="
       << dotString(formatv("{0:P2}\n{1}×", Cost, groupThousands(Count)).str())
       << ", color=" << dotString(rampColour(Cost))
       << formatv(", penwidth={0:F2}", 0.5 + 4.0 * Cost)
       << (InCycle ? ", style=dashed" : "") << "];\n";
  }
  OS << "}\n";
  return Error::success();
}
