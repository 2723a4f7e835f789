// Helpers returning a reference to their argument, used inside expressions:
// `s += same(a) * y` where `double &same(double &v) { return v; }` is the
// argument itself (differentiated as `a`); `r += twice(x)` where `double
// &twice(double &v) { v *= 2; return v; }` writes its argument and returns
// it: the value read is that memory after the call, whose shadow takes the
// adjoint; `pick(a, i)` returning a reference into an array after scaling
// the element. Before (issue 49): `s += same(a) * y` in a loop was refused
// ("bind it to a local reference first"), `if (flag) r += twice(x);` gave 1
// for 3 (the adjoint of the call's value was dropped), `twice(x) * y` was a
// Clang error inside generated code, and forward mode crashed on a
// reference into a scalar argument.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"

double &same(double &v) { return v; }
double &twice(double &v) {
  v *= 2;
  return v;
}
double &pick(double *a, int i) {
  a[i] *= 1.5;
  return a[i];
}

[[grad, grad::forward]] double inBranch(double x, double y) {
  double r = 0;
  if (y > 0)
    r += twice(x);
  return r + x;
}

[[grad, grad::forward]] double inProduct(double x, double y) {
  double r = twice(x) * y;
  return r + x;
}

[[grad, grad::forward]] double inLoop(double a, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += same(a) * y;
  return s;
}

[[grad, grad::forward]] double intoArray(double x, double y) {
  double a[3] = {x, y, x * y};
  double s = pick(a, 1) * x + pick(a, 2);
  return s + a[1];
}

[[grad, grad::forward]] double intoArrayLoop(double x, double y) {
  double a[3] = {x, y, x * y};
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += pick(a, i) * a[i];
  return s;
}

int main() {
  fwdcheck::both("inBranch", inBranch, inBranch_pullback, inBranch_pushforward,
                 1.3, 0.7);
  // CHECK: ok inBranch.d0
  // CHECK: ok inBranch.fwd.x
  fwdcheck::both("inProduct", inProduct, inProduct_pullback,
                 inProduct_pushforward, 1.3, 0.7);
  // CHECK: ok inProduct.d1
  fwdcheck::both("inLoop", inLoop, inLoop_pullback, inLoop_pushforward, 1.3,
                 0.7);
  // CHECK: ok inLoop.d0
  fwdcheck::both("intoArray", intoArray, intoArray_pullback,
                 intoArray_pushforward, 1.3, 0.7);
  // CHECK: ok intoArray.d1
  fwdcheck::both("intoArrayLoop", intoArrayLoop, intoArrayLoop_pullback,
                 intoArrayLoop_pushforward, 1.3, 0.7);
  // CHECK: ok intoArrayLoop.fwd.y
  return gradcheck::failures();
}
