//===- PassPlugin.cpp - Loading pass plugins ------------------------------===//

#include "profkit/Passes/PassPlugin.h"
#include "profkit/Support/Error.h"

using namespace profkit;
using namespace llvm;

Expected<PassPlugin> PassPlugin::load(const std::string &Path) {
  std::string Err;
  sys::DynamicLibrary Lib =
      sys::DynamicLibrary::getPermanentLibrary(Path.c_str(), &Err);
  if (!Lib.isValid())
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "could not load plugin '" + Path + "': " + Err);
  PassPlugin P(Path, Lib);
  auto *Entry = reinterpret_cast<PassPluginLibraryInfo (*)()>(
      Lib.getAddressOfSymbol("profkitGetPassPluginInfo"));
  if (!Entry)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "plugin '" + Path +
                                 "' has no profkitGetPassPluginInfo entry "
                                 "point");
  P.Info = Entry();
  if (P.Info.APIVersion != PROFKIT_PLUGIN_API_VERSION)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "plugin '" + Path + "' uses plugin API version " +
                                 Twine(P.Info.APIVersion) +
                                 ", but profkit-opt has version " +
                                 Twine(PROFKIT_PLUGIN_API_VERSION));
  if (!P.Info.RegisterCallbacks)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "plugin '" + Path + "' registers nothing");
  return P;
}
