// Iterators into differentiated memory passed to a function (std::fill over
// v.begin(), v.end()) are an error at the iterator: the writes through them
// have no shadow (they were replayed and gave a zero gradient). The pointer
// form works (test/memory/std-moves.cpp has the element swaps).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <algorithm>
#include <vector>

[[grad]] double f(double x) {
  std::vector<double> v(3);
  // CHECK: iterators.cpp:[[@LINE+1]]:13: error: grad: cannot differentiate iterator 'v.begin()' passed to 'fill' (write the loop, or pass a pointer such as v.data()) in 'f'
  std::fill(v.begin(), v.end(), x);
  double buf[4];
  std::fill(buf, buf + 4, x * x);
  return v[1] * buf[2];
}
// CHECK: 1 error generated
