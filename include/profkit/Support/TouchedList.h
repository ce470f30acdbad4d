//===- TouchedList.h - Entries set since a table was emptied ----*- C++ -*-===//
//
// Tables indexed by id (the callgrind reader's compressed names, the ids the
// callgrind writer gives out) are emptied at every part of a profile, and a
// profile may hold tens of thousands of parts of a few dozen ids each, in
// tables of a million. A TouchedList keeps the entries set since the table
// was last emptied, while they are few, so that emptying costs what setting
// them did; past that, the table is emptied whole, which at least that many
// sets paid for.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_TOUCHEDLIST_H
#define PROFKIT_SUPPORT_TOUCHEDLIST_H

#include <cstdint>
#include <vector>

namespace profkit {

class TouchedList {
public:
  /// Notes that entry I was set.
  void note(uint32_t I) {
    if (Entries.size() <= Max) // One past Max: too many to list.
      Entries.push_back(I);
  }
  /// Empties the table: One(I) for each entry noted, or All() if they were
  /// too many to list.
  template <typename OneFn, typename AllFn> void empty(OneFn One, AllFn All) {
    if (Entries.size() <= Max)
      for (uint32_t I : Entries)
        One(I);
    else
      All();
    Entries.clear();
  }

private:
  static constexpr size_t Max = 4096;
  std::vector<uint32_t> Entries;
};

} // namespace profkit

#endif // PROFKIT_SUPPORT_TOUCHEDLIST_H
