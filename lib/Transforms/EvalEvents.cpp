//===- EvalEvents.cpp - Evaluate derived events ---------------------------===//
//
// `event: Sum = Ir + 2 * Dr` declares an event by a formula. This pass gives
// each such event a column of its own, computed on every cost row, call
// (inclusive) row, summary: and totals: line.
//
//   expr   ::= term (('+' | '-') term)*
//   term   ::= factor ('*' factor)*
//   factor ::= INTEGER | EVENT | '(' expr ')'
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/EvalEvents.h"
#include "profkit/Support/Error.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace profkit;
using namespace llvm;

namespace {
/// A formula compiled to a stack program.
struct Program {
  enum Op : uint8_t { Const, Column, Add, Sub, Mul };
  struct Insn {
    Op Kind;
    uint64_t Arg;
  };
  std::vector<Insn> Code;

  /// False on a negative or overflowing result.
  bool eval(ArrayRef<uint64_t> Costs, uint64_t &Out) const {
    SmallVector<uint64_t, 8> Stack;
    for (const Insn &I : Code) {
      if (I.Kind == Const || I.Kind == Column) {
        Stack.push_back(I.Kind == Const        ? I.Arg
                        : I.Arg < Costs.size() ? Costs[I.Arg]
                                               : 0);
        continue;
      }
      uint64_t B = Stack.pop_back_val(), &A = Stack.back();
      bool Bad = I.Kind == Add   ? __builtin_add_overflow(A, B, &A)
                 : I.Kind == Sub ? __builtin_sub_overflow(A, B, &A)
                                 : __builtin_mul_overflow(A, B, &A);
      if (Bad)
        return false;
    }
    Out = Stack.back();
    return true;
  }
};

class FormulaParser {
public:
  FormulaParser(StringRef Text, const Profile &P) : Text(Text), P(P) {}
  Error parse(Program &Out) {
    if (Error E = expr(Out))
      return E;
    skipSpace();
    if (!Text.empty())
      return error("unexpected '" + Text + "'");
    return Error::success();
  }

private:
  void skipSpace() { Text = Text.ltrim(); }
  Error error(const Twine &Msg) {
    return createStringError(make_error_code(ErrorCode::InvalidArgument), Msg);
  }
  Error expr(Program &Out) {
    if (Error E = term(Out))
      return E;
    while (true) {
      skipSpace();
      if (!Text.starts_with("+") && !Text.starts_with("-"))
        return Error::success();
      Program::Op Op = Text[0] == '+' ? Program::Add : Program::Sub;
      Text = Text.drop_front();
      if (Error E = term(Out))
        return E;
      Out.Code.push_back({Op, 0});
    }
  }
  Error term(Program &Out) {
    if (Error E = factor(Out))
      return E;
    while (true) {
      skipSpace();
      if (!Text.consume_front("*"))
        return Error::success();
      if (Error E = factor(Out))
        return E;
      Out.Code.push_back({Program::Mul, 0});
    }
  }
  Error factor(Program &Out) {
    skipSpace();
    if (Text.consume_front("(")) {
      if (Error E = expr(Out))
        return E;
      skipSpace();
      if (!Text.consume_front(")"))
        return error("missing ')'");
      return Error::success();
    }
    size_t N = 0;
    while (N < Text.size() && (isAlnum(Text[N]) || Text[N] == '_'))
      ++N;
    StringRef Tok = Text.take_front(N);
    Text = Text.drop_front(N);
    if (Tok.empty())
      return error(Text.empty() ? Twine("formula ends early")
                                : "unexpected '" + Text.take_front(1) + "'");
    uint64_t V;
    if (isDigit(Tok[0])) {
      if (Tok.getAsInteger(10, V))
        return error("bad number '" + Tok + "'");
      Out.Code.push_back({Program::Const, V});
      return Error::success();
    }
    std::optional<unsigned> C = P.findEvent(Tok);
    if (!C)
      return error("no event '" + Tok + "'");
    Out.Code.push_back({Program::Column, *C});
    return Error::success();
  }

  StringRef Text;
  const Profile &P;
};
} // namespace

Expected<EvalEventsPass> EvalEventsPass::create(const PassParams &Params,
                                                PassContext &) {
  EvalEventsPass S;
  S.Params = Params;
  for (StringRef N : Params.getList("events"))
    S.Events.push_back(N.str());
  return S;
}

Expected<PreservedAnalyses> EvalEventsPass::run(Profile &P,
                                                ProfileAnalysisManager &) {
  for (const std::string &N : Events)
    if (none_of(P.EventDecls, [&](const EventDecl &D) {
          return D.Name == N && !D.Formula.empty();
        }))
      return createStringError(make_error_code(ErrorCode::InvalidArgument),
                               "eval-events: no derived event '" + N + "'");
  // Evaluate in declaration order, so a formula may use an earlier one.
  bool Changed = false;
  std::vector<EventDecl> Decls = P.EventDecls;
  for (const EventDecl &D : Decls) {
    if (D.Formula.empty() || (!Events.empty() && !is_contained(Events, D.Name)))
      continue;
    if (P.findEvent(D.Name))
      return createStringError(make_error_code(ErrorCode::InvalidArgument),
                               "eval-events: '" + D.Name +
                                   "' is already an event of the profile");
    Program Prog;
    if (Error E = FormulaParser(D.Formula, P).parse(Prog))
      return createStringError(make_error_code(ErrorCode::InvalidArgument),
                               "eval-events: event '" + D.Name + " = " +
                                   D.Formula + "': " + toString(std::move(E)));
    unsigned Col = P.getOrAddEvent(D.Name);
    P.setEventLongName(Col, D.LongName);
    RowMap M;
    for (FuncId F = 0, E = P.numFunctions(); F != E; ++F)
      M.Func.push_back(F);
    bool Negative = false;
    M.Costs = [&](ArrayRef<uint64_t> In, SmallVectorImpl<uint64_t> &Out) {
      size_t Base = Out.size(); // A call row's count comes first.
      Out.append(In.begin(), In.end());
      Out.resize(Base + Col, 0);
      uint64_t V = 0;
      if (!Prog.eval(In, V)) {
        Negative = true;
        return false;
      }
      Out.push_back(V);
      return true;
    };
    bool Ok = rewriteProfile(P, M, /*DropTotals=*/false);
    if (Negative)
      return createStringError(make_error_code(ErrorCode::LimitExceeded),
                               "eval-events: event '" + D.Name + " = " +
                                   D.Formula +
                                   "' is negative or overflows on some cost");
    if (!Ok)
      return overflowError(name());
    erase_if(P.EventDecls,
             [&](const EventDecl &X) { return X.Name == D.Name; });
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
