// Active values stored through a pointer held by an object that carries no
// derivatives (`struct Buf { double *p; int n; }`: no adjoint in the ABI,
// no shadow) were dropped without a word: `b.p[0] = x * x; return b.p[0]
// * 3;` gave 0 for 12. Each such store is now an error at the value or at
// the call that stores it; reads through such pointers, writes of constants
// and of the object's integers stay accepted (values against closed forms).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <vector>
using namespace gradcheck;

struct Buf {
  double *p;
  int n;
};
struct CView {
  const double *p;
  int n;
};

#ifdef ERRORS
// ERR: stores-through-held-pointers.cpp:[[@LINE+1]]:51: error: grad: cannot differentiate 'x * x' stored through a pointer held by 'b' (of type 'Buf'), which carries no derivatives (pass the pointer itself) in 'store'
[[grad]] double store(double x, Buf b) { b.p[0] = x * x; return b.p[0] * 3; }

static void put(Buf b, double v) { b.p[0] = v; }
// ERR: stores-through-held-pointers.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate call 'put(b, x * x)', which stores differentiated values through a pointer held by 'b' (of type 'Buf'), which carries no derivatives (pass the pointer itself) in 'viaHelper'
[[grad]] double viaHelper(double x) {
  double t[1];
  Buf b{t, 1};
  put(b, x * x);
  return t[0] * 3;
}

// ERR: stores-through-held-pointers.cpp:[[@LINE+2]]:15: error: grad: cannot differentiate 'x' stored through a pointer held by 'pb' (of type 'Buf *')
[[grad]] double accumulate(double x, Buf *pb) {
  pb->p[0] += x;
  double r = pb->p[0];
  return r * r;
}

// Through a vector of such objects, and through a pointer copied out of one.
// ERR: stores-through-held-pointers.cpp:[[@LINE+2]]:15: error: grad: cannot differentiate 'x * x' stored through a pointer held by 'v' (of type 'std::vector<Buf>')
[[grad]] double inVector(double x, std::vector<Buf> &v) {
  v[0].p[0] = x * x;
  return v[0].p[0] * 3;
}
// ERR: stores-through-held-pointers.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate 'x * x' stored through a pointer held by 'b' (of type 'Buf')
[[grad]] double copied(double x, Buf b) {
  double *q = b.p;
  q[0] = x * x;
  return b.p[0] * 3;
}
#endif

static double rd(Buf b, double x) {
  double s = 0;
  for (int i = 0; i < b.n; ++i)
    s += b.p[i] * x;
  return s;
}
static double rd2(const CView &v, double x) { return v.p[0] * x * x; }
[[grad]] double reads(double x, Buf b) { return rd(b, x) + x; }
[[grad]] double creads(double x, CView v) { return rd2(v, x); }
[[grad]] double ints(double x, Buf b) {
  b.n = 3;
  return x * b.n;
}
[[grad]] double constants(double x, Buf b) {
  b.p[0] = 2.0;
  return x * b.p[0];
}

int main() {
  double t[2] = {1, 2};
  Buf b{t, 2};
  CView v{t, 2};
  double dx = 0;
  reads_pullback(0.5, b, 1.0, &dx);
  expect("reads", dx, 1 + 2 + 1);
  dx = 0;
  creads_pullback(0.5, v, 1.0, &dx);
  expect("creads", dx, 2 * 1 * 0.5);
  dx = 0;
  ints_pullback(0.5, b, 1.0, &dx);
  expect("ints", dx, 3);
  dx = 0;
  constants_pullback(0.5, b, 1.0, &dx);
  expect("constants", dx, 2);
  // CHECK: ok reads
  // CHECK: ok creads
  // CHECK: ok ints
  // CHECK: ok constants
  return failures();
}
