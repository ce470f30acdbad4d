//===- SvgWriter.cpp - The call graph drawn by graphviz -------------------===//
//
// `-output-format=svg`: the dot format's graph (DotWriter.cpp, with the same
// parameters), laid out by graphviz's dot engine through its library, as
// `dot -Tsvg` would draw it: one command from a profile to a picture.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"
#include <graphviz/gvc.h>

using namespace profkit;
using namespace llvm;

Error profkit::writeSvg(const Profile &P, raw_ostream &OS,
                        const PassParams &Params, const WriteContext &Ctx) {
  SmallString<0> Dot;
  raw_svector_ostream DotOS(Dot);
  if (Error E = writeDot(P, DotOS, Params, Ctx))
    return E;
  GVC_t *Gvc = gvContext();
  auto FreeContext = make_scope_exit([&] { gvFreeContext(Gvc); });
  Agraph_t *G = agmemread(Dot.c_str());
  if (!G)
    return makeError(ErrorCode::InvalidArgument,
                     "svg: graphviz could not read the call graph");
  auto Close = make_scope_exit([&] { agclose(G); });
  if (gvLayout(Gvc, G, "dot"))
    return makeError(ErrorCode::InvalidArgument,
                     "svg: graphviz could not lay out the call graph");
  auto FreeLayout = make_scope_exit([&] { gvFreeLayout(Gvc, G); });
  char *Data = nullptr;
  unsigned Length = 0;
  if (gvRenderData(Gvc, G, "svg", &Data, &Length) || !Data)
    return makeError(ErrorCode::InvalidArgument,
                     "svg: graphviz could not draw the call graph (its svg "
                     "plugin is missing?)");
  OS.write(Data, Length);
  gvFreeRenderData(Data);
  return Error::success();
}
