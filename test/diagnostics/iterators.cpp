// Iterator locals over differentiated vectors are not modelled: one error
// at the declaration that says what to write instead, in reverse and in
// forward mode, and no follow-on errors about the iterator's operators.
// Iterators over constant data, iterators passed straight to standard
// algorithms, and iterators that only mark a position, are fine.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
// RUN: not %gradxx -fsyntax-only -DFORWARD %s 2>&1 | %FileCheck-strict %s --check-prefix=FWD
#include <algorithm>
#include <numeric>
#include <vector>

#ifndef FORWARD
// CHECK: iterators.cpp:[[@LINE+3]]:13: error: grad: cannot differentiate iterator 'it' (index the container, use a range-based for loop, or walk a pointer such as 'v.data()') in 'walk'
[[grad]] double walk(const std::vector<double> &v) {
  double s = 0;
  for (auto it = v.begin(); it != v.end(); ++it)
    s += *it * *it;
  return s;
}

// CHECK: iterators.cpp:[[@LINE+3]]:8: error: grad: cannot differentiate iterator 'm' (index the container, use a range-based for loop, or walk a pointer such as 'v.data()') in 'largest'
[[grad]] double largest(std::vector<double> v, double x) {
  v[0] *= x;
  auto m = std::max_element(v.begin(), v.end());
  return *m * x;
}

// A position that is also read through (`*(it - 1)`) is an iterator, not
// an index (test/calls/iterator-positions.cpp: positions alone are fine).
// CHECK: iterators.cpp:[[@LINE+2]]:8: error: grad: cannot differentiate iterator 'it' (index the container, use a range-based for loop, or walk a pointer such as 'v.data()') in 'knot'
[[grad]] double knot(const std::vector<double> &v, double t) {
  auto it = std::lower_bound(v.begin(), v.end(), t);
  long i = it - v.begin();
  return *(it - 1) * t + static_cast<double>(i);
}

static const std::vector<double> table{1.0, 2.0, 3.0};
[[grad]] double constant(double x) {
  double s = 0;
  for (auto it = table.begin(); it != table.end(); ++it)
    s += *it * x;
  return s + std::accumulate(table.begin(), table.end(), 0.0);
}
#else
// FWD: iterators.cpp:[[@LINE+3]]:18: error: grad: cannot differentiate iterator 'it' (index the container, use a range-based for loop, or walk a pointer such as 'v.data()') in 'walkf' in forward mode
[[grad::forward]] double walkf(const std::vector<double> &v) {
  double s = 0;
  for (auto it = v.begin(); it != v.end(); ++it)
    s += *it * *it;
  return s;
}
#endif
