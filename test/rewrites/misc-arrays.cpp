// An array kept for the reverse sweep (the argument a std::span is made
// from, in a call of a helper): an array cannot be kept by assignment (the
// generated code did not compile: "default initialization of an object of
// const type 'const int[3]'", found by the advice audit, issue 54). An
// array of constants at namespace scope is read again as it is, checked
// against finite differences; a local array is refused with that rewrite.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <span>
#include <string>

static const int IDX[3] = {0, 2, 1};
static double ssum(const double *x, std::span<const int, 3> w) {
  double s = 0;
  for (int k = 0; k < 3; ++k)
    s += x[w[k]] * x[w[k]] * (k + 1);
  return s;
}
[[grad]] double picked(const double *x) {
  return ssum(x, std::span<const int, 3>(IDX)) * x[0];
}
#ifdef ERRORS
// ADVICE: (declare the array const at namespace scope)
[[grad]] double shuffled(const double *x) {
  int idx[3] = {2, 0, 1};
  // ERR: misc-arrays.cpp:[[@LINE+1]]:18: error: grad: cannot differentiate value of std::span<const int, 3>(idx), an array of type 'int[3]' kept for the reverse sweep (declare the array const at namespace scope) in 'shuffled'
  return ssum(x, std::span<const int, 3>(idx)) * x[1];
}
// ERR: misc-arrays.cpp:[[@LINE-5]]:3: note: while differentiating 'shuffled' requested here
#else
static const int SHUFFLE[3] = {2, 0, 1};
[[grad]] double shuffled(const double *x) {
  return ssum(x, std::span<const int, 3>(SHUFFLE)) * x[1];
}
#endif

int main() {
  double x[3] = {0.4, -0.9, 1.3}, d[3] = {0, 0, 0}, e[3] = {0, 0, 0};
  picked_pullback(x, 1.0, d);
  shuffled_pullback(x, 1.0, e);
  for (int i = 0; i < 3; ++i) {
    auto at = [&](double (*f)(const double *), double a) {
      double y[3] = {x[0], x[1], x[2]};
      y[i] = a;
      return f(y);
    };
    gradcheck::expect("picked.x" + std::to_string(i), d[i],
                      gradcheck::fd([&](double a) { return at(picked, a); }, 0,
                                    x[i]));
    gradcheck::expect("shuffled.x" + std::to_string(i), e[i],
                      gradcheck::fd([&](double a) { return at(shuffled, a); },
                                    0, x[i]));
  }
  // CHECK: ok picked.x0
  // CHECK: ok shuffled.x0
  // CHECK: ok picked.x2
  // CHECK: ok shuffled.x2
  return gradcheck::failures();
}
