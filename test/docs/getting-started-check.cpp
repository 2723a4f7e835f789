// The grad::check report shown in docs/getting-started.md (section 4) is
// what grad::check prints for section 1's f at (0.5, 2.0). Relative errors
// below 1e-10 (rounding) are compared as <tiny>.
// RUN: %gradxx %s -o %t
// RUN: %t > %t.out
// RUN: sed -n '/^grad::check pullback: 2 components/,/^grad::check: ok/p' %srcroot/docs/getting-started.md | sed -E 's/[0-9]\.[0-9]+e-1[0-9]/<tiny>/g' > %t.doc
// RUN: sed -E 's/[0-9]\.[0-9]+e-1[0-9]/<tiny>/g' %t.out > %t.got
// RUN: FileCheck --check-prefix=DOC --input-file=%t.doc %s
// RUN: diff %t.doc %t.got
// DOC: grad::check pullback: 2 components, rtol 1.0e-06
// DOC: grad::check: ok (max rel error <tiny>)

#include <grad/check.h>

#include <cmath>

[[grad]] double f(double x, double y) {
  return std::sin(x) * y + std::exp(x * y);
}

int main() { return grad::check(f, f_pullback, 0.5, 2.0) ? 0 : 1; }
