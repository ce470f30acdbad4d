#ifndef A_H
#define A_H
#include "b.h"
#include "unguarded.h"
#include <map>
#include <string>

template <typename K, typename V> struct Table {
  std::map<K, std::vector<V>> Rows;
  void add(const K &Key, V Value) { Rows[Key].push_back(Value); }
  V total() const {
    V S = V();
    for (const auto &R : Rows)
      S += sumAll(R.second);
    return S;
  }
};
#endif
