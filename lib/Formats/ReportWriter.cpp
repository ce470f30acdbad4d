//===- ReportWriter.cpp - A profile as a report people read ---------------===//
//
// `-output-format=report<format=text|json|csv;event=E;sort=self|inclusive;
// top=N;min=P%;callers=N;source;...>`: the flat profile of a run (self and
// inclusive cost of each function, its share of the run, its calls), for
// the top functions who calls them and what they call, as
// callgrind_annotate --tree=both and gprof's call graph show, and with
// `source` the costliest source files line by line (SourceAnnotation.cpp).
// Inclusive costs are the inclusive analysis's, right under recursion. The
// text fits a terminal; JSON holds every function, CSV the flat profile.
// The numbers are the profile's: callgrind's self costs as
// callgrind_annotate sums them. A time in microseconds (gmon.out's `us`)
// shows in seconds, with gprof's per-call columns, in the text only; calls
// show as gprof's call graph shows them, `1+2000` (non-recursive + direct
// self-recursive).
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Analysis/SourceLines.h"
#include "profkit/Formats/Format.h"
#include "profkit/Formats/SourceAnnotation.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "profkit/Support/TextFormat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <iterator>

using namespace profkit;
using namespace llvm;

namespace {

struct ReportOptions {
  enum Format { Text, Json, Csv } Form = Text;
  unsigned Event = 0;
  bool ByInclusive = false;
  unsigned Top = 20, Callers = 10;
  double MinShare = 0; // In percent of the run's total.
  // The callers and the callees listed per function, and their share.
  unsigned CallTop = 5;
  double CallMinShare = 0;
  SourceOptions Source;
};

class Report {
public:
  Report(const Profile &P, const ReportOptions &O);
  void writeText(raw_ostream &OS) const;
  void writeJson(raw_ostream &OS) const;
  void writeCsv(raw_ostream &OS) const;

private:
  uint64_t key(FuncId F) const {
    return O.ByInclusive ? IC.inclusive(F)[O.Event] : IC.self(F)[O.Event];
  }
  std::string label(FuncId F) const;
  /// A cost of the chosen event as the text shows it.
  std::string cost(uint64_t C) const;
  /// The calls into F from itself (direct recursion).
  uint64_t selfCalls(FuncId F) const { return SelfCalls.lookup(F); }
  /// gprof's `calls` of F: from other functions (cycle members included).
  uint64_t outsideCalls(FuncId F) const {
    return IC.calls(F) - std::min(IC.calls(F), selfCalls(F));
  }
  std::string callsText(FuncId F) const;
  void writeFlatProfile(raw_ostream &OS, ArrayRef<FuncId> Shown) const;
  void writeCallList(raw_ostream &OS, StringRef Title,
                     ArrayRef<std::pair<FuncId, unsigned>> Calls) const;
  void writeFunctionJson(json::OStream &J, FuncId F) const;
  void writeCallGraph(raw_ostream &OS, ArrayRef<FuncId> Shown) const;

  const Profile &P;
  ReportOptions O;
  InclusiveCost IC;
  /// Whether the chosen event is a time in microseconds, shown in seconds
  /// with Decimals places.
  bool Seconds = false;
  int Decimals = 6;
  /// The cost of each source line, with `source` (not for CSV).
  std::optional<SourceLines> Lines;
  /// Every function with data or callers, by the sort key, highest first.
  std::vector<FuncId> Order;
  /// The calls into and out of each function: indices of IC.arcs().
  DenseMap<FuncId, std::vector<unsigned>> CallersOf, CalleesOf;
  DenseMap<FuncId, uint64_t> SelfCalls; // Direct recursion.
};

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * double(Part) / double(Whole) : 0.0;
}

/// A time in microseconds: its long name says so (gmon.out relocated,
/// time traces, .ninja_log: "Time (microseconds)"), or with none, its name
/// is `us`. A long name that says otherwise wins over the name.
bool isMicroseconds(const EventType &E) {
  if (!E.LongName.empty())
    return StringRef(E.LongName).contains_insensitive("microsecond");
  return E.Name == "us";
}

/// Microseconds as seconds with Decimals places (0 to 6), rounded half up,
/// thousands grouped.
std::string seconds(uint64_t Us, int Decimals) {
  uint64_t Div = 1, Frac = 1;
  for (int I = Decimals; I != 6; ++I)
    Div *= 10;
  for (int I = 0; I != Decimals; ++I)
    Frac *= 10;
  uint64_t Q = Us / Div + (Us % Div >= (Div + 1) / 2 && Div > 1);
  std::string S = groupThousands(Q / Frac);
  if (Decimals)
    S += "." + std::string(Decimals - utostr(Q % Frac).size(), '0') +
         utostr(Q % Frac);
  return S;
}

/// The decimals a time in seconds needs to show one sample of its
/// histogram: 2 at gprof's 100 Hz, as gprof prints, 3 at 1000 Hz. The
/// period is the relocate pass's `desc: ... one sample = N us`; without
/// one (a time trace) every microsecond shows.
int secondsDecimals(const Profile &P) {
  uint64_t Period = 0;
  for (const auto &Pt : P.parts())
    for (const HeaderLine &H : Pt->Header) {
      StringRef V = H.Value;
      size_t At = V.find("one sample = ");
      uint64_t N;
      if (H.Key != "desc" || At == StringRef::npos)
        continue;
      V = V.drop_front(At + strlen("one sample = "));
      if (V.consume_back(" us") && !V.getAsInteger(10, N) && N &&
          (!Period || N < Period))
        Period = N;
    }
  if (!Period)
    return 6;
  int D = 2;
  for (uint64_t Unit = 10000; D < 6 && Period % Unit; Unit /= 10)
    ++D;
  return D;
}

} // namespace

Report::Report(const Profile &P, const ReportOptions &O)
    : P(P), O(O), IC(InclusiveCost::compute(P)) {
  if ((Seconds = isMicroseconds(P.events()[O.Event])))
    Decimals = secondsDecimals(P);
  if (O.Source.Enabled && O.Form != ReportOptions::Csv)
    Lines = SourceLines::compute(P);
  // The inclusive analysis has summed the calls already.
  ArrayRef<InclusiveCost::Arc> Arcs = IC.arcs();
  for (unsigned I = 0; I != Arcs.size(); ++I) {
    CallersOf[Arcs[I].To].push_back(I);
    CalleesOf[Arcs[I].From].push_back(I);
    if (Arcs[I].From == Arcs[I].To)
      SelfCalls[Arcs[I].From] = Arcs[I].Count;
  }
  for (FuncId F = 0; F != IC.numFunctions(); ++F)
    if (IC.partsWithData(F) || IC.hasCallers(F))
      Order.push_back(F);
  llvm::stable_sort(Order, [&](FuncId A, FuncId B) {
    if (key(A) != key(B))
      return key(A) > key(B);
    return P.functionName(A) < P.functionName(B);
  });
}

std::string Report::label(FuncId F) const {
  const profkit::Function &Fn = P.function(F);
  std::string S = P.functionName(F).str();
  StringRef Object = sys::path::filename(P.Strings.str(Fn.Object));
  StringRef File = P.Strings.str(Fn.File);
  if (!Object.empty() || !File.empty())
    S += "  (" +
         (Object.empty() ? File.str()
          : File.empty() ? Object.str()
                         : (Object + ": " + File).str()) +
         ")";
  return S;
}

std::string Report::cost(uint64_t C) const {
  return Seconds ? seconds(C, Decimals) : groupThousands(C);
}

std::string Report::callsText(FuncId F) const {
  std::string S = groupThousands(outsideCalls(F));
  if (uint64_t Self = selfCalls(F))
    S += "+" + groupThousands(Self);
  return S;
}

void Report::writeCallList(raw_ostream &OS, StringRef Title,
                           ArrayRef<std::pair<FuncId, unsigned>> List) const {
  // The costliest, call-top at most and above call-min: the text fits a
  // terminal.
  uint64_t Total = IC.total()[O.Event];
  size_t Shown = 0;
  for (auto [F, Arc] : List) {
    uint64_t Cost = IC.arcCost(Arc)[O.Event];
    if (Shown == O.CallTop || share(Cost, Total) < O.CallMinShare)
      break;
    ++Shown;
    OS << format("      %-9s %12s calls %16s  ", Title.str().c_str(),
                 groupThousands(IC.arcs()[Arc].Count).c_str(),
                 cost(Cost).c_str())
       << label(F) << '\n';
  }
  if (List.size() > Shown)
    OS << "      " << Title << " ... " << List.size() - Shown
       << " more (the JSON report has them all)\n";
}

void Report::writeText(raw_ostream &OS) const {
  uint64_t Total = IC.total()[O.Event];
  OS << "profkit report of " << P.SourceName << '\n';
  for (const auto &Pt : P.parts())
    for (const HeaderLine &H : Pt->Header)
      if (H.Key == "cmd" || H.Key == "creator")
        OS << "  " << H.Key << ": " << H.Value << '\n';
  OS << "events:";
  for (const EventType &E : P.events())
    OS << ' ' << E.Name;
  OS << "\ntotals:";
  for (size_t E = 0; E != P.events().size(); ++E)
    if (isMicroseconds(P.events()[E]))
      OS << ' ' << seconds(IC.total()[E], Decimals) << " s";
    else
      OS << ' ' << groupThousands(IC.total()[E]);
  // The functions shown: the top ones above the share. Those without cost
  // of the sort key come last, as gprof lists them, if they were called.
  std::vector<FuncId> Shown;
  for (FuncId F : Order)
    if (Shown.size() < O.Top && share(key(F), Total) >= O.MinShare &&
        (key(F) || IC.calls(F)))
      Shown.push_back(F);
  writeFlatProfile(OS, Shown);
  size_t WithCalls = std::min<size_t>(O.Callers, Shown.size());
  if (WithCalls)
    writeCallGraph(OS, ArrayRef(Shown).take_front(WithCalls));
  if (Lines)
    writeAnnotatedSource(OS, P, *Lines, O.Source, IC.total());
}

void Report::writeFlatProfile(raw_ostream &OS, ArrayRef<FuncId> Shown) const {
  const std::string &Event = P.events()[O.Event].Name;
  uint64_t Total = IC.total()[O.Event];
  OS << "\n\nFunctions by " << (O.ByInclusive ? "inclusive" : "self") << ' '
     << (Seconds ? "time" : Event) << ": the top " << Shown.size() << " of "
     << Order.size() << "\n\n";
  // gprof's per-call columns, for a time: self and inclusive time per call
  // from other functions, in the unit that shows the longest inclusive one
  // with 1 to 3 digits before the point, as gprof picks it.
  static const struct {
    const char *Name;
    double PerUs;
  } Units[] = {{"s", 1e-6}, {"ms", 1e-3}, {"us", 1}, {"ns", 1e3}};
  unsigned Unit = 1;
  if (Seconds) {
    double Longest = 0;
    for (FuncId F : Shown)
      if (uint64_t N = outsideCalls(F))
        Longest =
            std::max(Longest, double(IC.inclusive(F)[O.Event]) / double(N));
    if (Longest > 0)
      for (Unit = 0;
           Unit + 1 != std::size(Units) && Longest * Units[Unit].PerUs < 1;)
        ++Unit;
  }
  std::string Self = Seconds ? "self s" : Event + " self";
  std::string Incl = Seconds ? "incl. s" : Event + " incl.";
  // Wide enough for the labels of a long event name (Xdebug's Time_(10ns)).
  int Width = int(std::max({Self.size() + 1, Incl.size(), size_t(16)}));
  OS << right_justify(Self, Width) << right_justify("%", 8)
     << right_justify(Incl, Width + 1) << right_justify("%", 8)
     << right_justify("calls", 13);
  if (Seconds)
    OS << right_justify(std::string("self ") + Units[Unit].Name + "/call", 14)
       << right_justify(std::string("total ") + Units[Unit].Name + "/call", 15);
  OS << "  function\n";
  for (FuncId F : Shown) {
    uint64_t S = IC.self(F)[O.Event], I = IC.inclusive(F)[O.Event];
    OS << format("%*s %6.2f%% %*s %6.2f%% %12s", Width, cost(S).c_str(),
                 share(S, Total), Width, cost(I).c_str(), share(I, Total),
                 callsText(F).c_str());
    if (Seconds) {
      if (uint64_t N = outsideCalls(F))
        OS << format(" %13.2f %14.2f", double(S) * Units[Unit].PerUs / N,
                     double(I) * Units[Unit].PerUs / N);
      else
        OS.indent(29);
    }
    OS << "  " << label(F) << '\n';
  }
}

void Report::writeCallGraph(raw_ostream &OS, ArrayRef<FuncId> Shown) const {
  const std::string &Event = P.events()[O.Event].Name;
  size_t WithCalls = Shown.size();
  OS << "\nCallers and callees of the top " << WithCalls << " ("
     << (Seconds ? "seconds" : Event) << " inclusive of the calls):\n";
  for (FuncId F : Shown) {
    OS << '\n' << label(F) << '\n';
    auto ListOf = [&](const DenseMap<FuncId, std::vector<unsigned>> &Of,
                      bool Callers) {
      std::vector<std::pair<FuncId, unsigned>> List;
      auto It = Of.find(F);
      if (It == Of.end())
        return List;
      for (unsigned Arc : It->second)
        List.push_back(
            {Callers ? IC.arcs()[Arc].From : IC.arcs()[Arc].To, Arc});
      // Ties (recursive calls carry as much as the outermost one) by name.
      llvm::stable_sort(List, [&](const auto &A, const auto &B) {
        uint64_t CA = IC.arcCost(A.second)[O.Event],
                 CB = IC.arcCost(B.second)[O.Event];
        if (CA != CB)
          return CA > CB;
        return P.functionName(A.first) < P.functionName(B.first);
      });
      return List;
    };
    writeCallList(OS, "called by", ListOf(CallersOf, true));
    writeCallList(OS, "calls", ListOf(CalleesOf, false));
  }
}

void Report::writeFunctionJson(json::OStream &J, FuncId F) const {
  const profkit::Function &Fn = P.function(F);
  auto Costs = [&](StringRef Key, ArrayRef<uint64_t> V) {
    J.attributeArray(Key, [&] {
      for (uint64_t X : V)
        J.value(int64_t(std::min<uint64_t>(X, INT64_MAX)));
    });
  };
  auto CallList = [&](StringRef Key,
                      const DenseMap<FuncId, std::vector<unsigned>> &Of,
                      bool Callers) {
    J.attributeArray(Key, [&] {
      auto It = Of.find(F);
      if (It == Of.end())
        return;
      for (unsigned Arc : It->second) {
        const InclusiveCost::Arc &C = IC.arcs()[Arc];
        FuncId G = Callers ? C.From : C.To;
        J.object([&] {
          J.attribute("name", P.functionName(G));
          J.attribute("file", P.Strings.str(P.function(G).File));
          J.attribute("object", P.Strings.str(P.function(G).Object));
          J.attribute("calls", int64_t(std::min<uint64_t>(C.Count, INT64_MAX)));
          Costs("inclusive", IC.arcCost(Arc));
        });
      }
    });
  };
  J.object([&] {
    J.attribute("name", P.functionName(F));
    J.attribute("file", P.Strings.str(Fn.File));
    J.attribute("object", P.Strings.str(Fn.Object));
    Costs("self", IC.self(F));
    Costs("inclusive", IC.inclusive(F));
    J.attribute("calls", int64_t(std::min<uint64_t>(IC.calls(F), INT64_MAX)));
    J.attribute("self_calls",
                int64_t(std::min<uint64_t>(selfCalls(F), INT64_MAX)));
    CallList("callers", CallersOf, true);
    CallList("callees", CalleesOf, false);
  });
}

void Report::writeJson(raw_ostream &OS) const {
  json::OStream J(OS, 1);
  J.object([&] {
    J.attributeArray("events", [&] {
      for (const EventType &E : P.events())
        J.value(E.Name);
    });
    J.attributeArray("totals", [&] {
      for (uint64_t T : IC.total())
        J.value(int64_t(std::min<uint64_t>(T, INT64_MAX)));
    });
    J.attributeArray("functions", [&] {
      for (FuncId F : Order)
        writeFunctionJson(J, F);
    });
    if (Lines)
      writeSourceLinesJson(J, P, *Lines);
  });
  OS << '\n';
}

void Report::writeCsv(raw_ostream &OS) const {
  auto Field = [&](StringRef S) { writeCsvField(OS, S); };
  OS << "name,file,object";
  for (const EventType &E : P.events())
    OS << ",self " << E.Name << ",inclusive " << E.Name;
  OS << ",calls\n";
  for (FuncId F : Order) {
    Field(P.functionName(F));
    OS << ',';
    Field(P.Strings.str(P.function(F).File));
    OS << ',';
    Field(P.Strings.str(P.function(F).Object));
    for (size_t E = 0; E != P.events().size(); ++E)
      OS << ',' << IC.self(F)[E] << ',' << IC.inclusive(F)[E];
    OS << ',' << IC.calls(F) << '\n';
  }
}

Error profkit::writeReport(const Profile &P, raw_ostream &OS,
                           const PassParams &Params, const WriteContext &) {
  if (Error E = requireFunctions(P))
    return E;
  ReportOptions O;
  StringRef Form = Params.get("format");
  if (Form == "json")
    O.Form = ReportOptions::Json;
  else if (Form == "csv")
    O.Form = ReportOptions::Csv;
  else if (Form != "text")
    return Params.invalid("format", "'" + Form +
                                        "' is not a report format (text, "
                                        "json or csv)");
  if (P.events().empty())
    return makeError(ErrorCode::InvalidArgument,
                     P.SourceName + ": the profile has no events to report");
  if (StringRef Event = Params.get("event"); !Event.empty()) {
    std::optional<unsigned> E = P.findEvent(Event);
    if (!E)
      return Params.invalid("event",
                            "the profile has no event '" + Event + "'");
    O.Event = *E;
  }
  StringRef Sort = Params.get("sort");
  if (Sort != "self" && Sort != "inclusive")
    return Params.invalid("sort", "'" + Sort + "' is not self or inclusive");
  O.ByInclusive = Sort == "inclusive";
  if (Error E = Params.getCount("top", O.Top, "functions"))
    return E;
  if (Error E = Params.getCount("callers", O.Callers, "functions"))
    return E;
  if (Error E = Params.getCount("call-top", O.CallTop, "calls"))
    return E;
  if (Error E = Params.getPercent("call-min", O.CallMinShare))
    return E;
  if (Error E = Params.getPercent("min", O.MinShare))
    return E;
  if (Error E = parseSourceOptions(Params, O.Source))
    return E;
  O.Source.Event = O.Event;
  Report R(P, O);
  switch (O.Form) {
  case ReportOptions::Text:
    R.writeText(OS);
    break;
  case ReportOptions::Json:
    R.writeJson(OS);
    break;
  case ReportOptions::Csv:
    R.writeCsv(OS);
    break;
  }
  return Error::success();
}
