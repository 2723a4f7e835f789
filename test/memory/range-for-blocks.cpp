// Range-based for over a container declared in a nested block (a vector, a
// row of a vector of vectors, an array), read in the reverse sweep after
// the block has ended: the elements are recorded, not read again from the
// dead variable (it was a stack-use-after-scope in the reverse sweep, found
// by the generator: seed 82120 of all,memory,owners,values,rowptrs).
// Reverse mode against finite differences, with AddressSanitizer.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=rows %dflags > %t.dump.cpp && %gradxx -fsyntax-only -include cmath -include vector %t.dump.cpp
#include "gradcheck.h"
#include <cmath>
#include <vector>

using gradcheck::check_grad;

[[grad]] double rows(double x, double y) {
  double w = y;
  {
    std::vector<std::vector<double>> t{{std::cos(x), 0.5}, {y, x * y}};
    for (double e : t[0])
      w += 0.5 * std::tanh(e * w);
  }
  return w * x;
}

[[grad]] double named(double x, double y) {
  double s = 0;
  {
    std::vector<double> v{x, y * x, std::sin(y)};
    for (double e : v)
      s += e * std::tanh(s + e);
  }
  {
    double a[2] = {y, x * x};
    for (double e : a)
      s *= 0.5 + 0.1 * e;
  }
  return s;
}

int main() {
  check_grad("rows", rows, rows_pullback, 0.7, 1.3);
  check_grad("named", named, named_pullback, 0.7, 1.3);
  // CHECK: ok rows.d0
  // CHECK-NEXT: ok rows.d1
  // CHECK-NEXT: ok named.d0
  // CHECK-NEXT: ok named.d1
  return gradcheck::failures();
}
