// Iterators into differentiated memory passed to a function other than a
// standard algorithm with a pointer form (a user helper taking iterators)
// are an error at the iterator: the writes through them have no shadow
// (they were replayed and gave a zero gradient). The pointer form works,
// and std::fill(v.begin(), v.end(), x) is std::fill over v.data()
// (test/memory/iterator-ranges.cpp).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <algorithm>
#include <vector>

template <class It> void fill_range(It b, It e, double x) {
  for (; b != e; ++b)
    *b = x;
}

[[grad]] double f(double x) {
  std::vector<double> v(3);
  // CHECK: iterators.cpp:[[@LINE+1]]:14: error: grad: cannot differentiate iterator 'v.begin()' passed to 'fill_range' (write the loop, or pass a pointer such as v.data()) in 'f'
  fill_range(v.begin(), v.end(), x);
  std::fill(v.begin(), v.end(), x);
  double buf[4];
  std::fill(buf, buf + 4, x * x);
  return v[1] * buf[2];
}
// CHECK: 1 error generated
