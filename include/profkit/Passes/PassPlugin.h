//===- PassPlugin.h - Loading pass plugins ----------------------*- C++ -*-===//
//
// A plugin is a shared library that exports
//
//   extern "C" PROFKIT_PLUGIN_EXPORT profkit::PassPluginLibraryInfo
//   profkitGetPassPluginInfo() {
//     return {PROFKIT_PLUGIN_API_VERSION, "MyPlugin", "1.0",
//             [](profkit::PassRegistry &R) { ... R.registerPass<...>(...) }};
//   }
//
// The register callback may add passes and analyses to the registry, and
// formats with profkit::registerFormat(). profkit-opt loads plugins with
// -load-pass-plugin=lib.so before it parses the pipeline. A plugin built
// against another API version is refused.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_PASSES_PASSPLUGIN_H
#define PROFKIT_PASSES_PASSPLUGIN_H

#include "profkit/Passes/PassBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

/// Bumped whenever PassPluginLibraryInfo or the classes a plugin uses
/// change incompatibly.
#define PROFKIT_PLUGIN_API_VERSION 4

#define PROFKIT_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace profkit {

struct PassPluginLibraryInfo {
  uint32_t APIVersion;
  const char *PluginName;
  const char *PluginVersion;
  /// Adds the plugin's passes (and formats).
  void (*RegisterCallbacks)(PassRegistry &);
};

class PassPlugin {
public:
  /// Loads the library at Path and checks its entry point and version.
  static llvm::Expected<PassPlugin> load(const std::string &Path);

  llvm::StringRef fileName() const { return Path; }
  llvm::StringRef name() const { return Info.PluginName; }
  llvm::StringRef version() const { return Info.PluginVersion; }
  void registerCallbacks(PassRegistry &R) const { Info.RegisterCallbacks(R); }

private:
  PassPlugin(std::string Path, llvm::sys::DynamicLibrary Library)
      : Path(std::move(Path)), Library(Library), Info() {}
  std::string Path;
  llvm::sys::DynamicLibrary Library;
  PassPluginLibraryInfo Info;
};

} // namespace profkit

extern "C" {
/// The entry point every plugin defines.
::profkit::PassPluginLibraryInfo PROFKIT_PLUGIN_EXPORT
profkitGetPassPluginInfo();
}

#endif
