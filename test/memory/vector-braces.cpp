// std::vector mutations whose values come in braces, and values that read
// the vector they go into:
// - `v.insert(pos, {e, f})`, `v.assign({e, f})` and `v = {e, f}` (run as
//   `v.assign({e, f})` where the assignment is a statement of its own):
//   the braced values as the forward sweep computes them; in the reverse
//   sweep each element's adjoint goes back to its value, and the shadow
//   loses the elements again (insert) or gets its old size back (assign).
// - A value that reads the vector itself (`v.insert(v.begin(), v[0] * y)`,
//   `v.assign(3, v[0] * y)`, `v.insert(v.begin(), 2, v[1] * x)`): the
//   reverse sweep reads the new elements' adjoints, restores the shadow,
//   and only then passes the adjoints on (before, `insert` and `assign` of
//   a count passed them on into the shadow as it was after the call: the
//   adjoint of `v[0]` was added to the inserted element, or zeroed by the
//   restore; wrong gradients without a diagnostic).
// Both modes; the forward mode mirrors the call on the tangent vector with
// the braces of tangents.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dump %s --function=inserted %dflags | FileCheck %s --check-prefix=DUMP
// RUN: %dump %s --function=insertOne %dflags | FileCheck %s --check-prefix=ORDER
#include "fwdcheck.h"
#include <vector>

using namespace gradcheck;

[[grad, grad::forward]] double inserted(double x, double y) {
  std::vector<double> v{x, 2.0};
  v.insert(v.begin() + 1, {x * y, y, 3.0});
  v.insert(v.end(), {y * y});
  double s = 0;
  for (int i = 0; i < (int)v.size(); ++i)
    s += v[i] * (i + 1);
  return s * x;
}

[[grad, grad::forward]] double assigned(double x, double y) {
  std::vector<double> v(5, x);
  double s = v[4];
  v.assign({x * y, y, std::sin(x)});
  for (double e : v)
    s += e * e;
  return s;
}

[[grad, grad::forward]] double assignOp(double x, double y) {
  std::vector<double> v(3, y);
  double s = v[1];
  v = {x * y, x};
  s += v[0] * v[1] * v.size();
  return s;
}

// In a loop: the positions and old sizes go on the tape.
[[grad, grad::forward]] double inLoop(double x, double y) {
  std::vector<double> v;
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    v.insert(v.begin(), {x * i, y});
    if (i == 2)
      v.assign({s, x});
    s += v[0] * v[1] + v.back();
  }
  return s;
}

// A helper that inserts into a vector it gets by reference.
static void prepend(std::vector<double> &v, double a) {
  v.insert(v.begin(), {a, a * a});
}

[[grad, grad::forward]] double viaHelper(double x, double y) {
  std::vector<double> v{y};
  prepend(v, x);
  prepend(v, y * x);
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

// Values that read the vector they go into.
[[grad, grad::forward]] double assignCount(double x, double y) {
  std::vector<double> v{x, y};
  v.assign(3, v[0] * y);
  return v[0] * v[2] + v[1];
}

[[grad, grad::forward]] double insertOne(double x, double y) {
  std::vector<double> v{x, y};
  v.insert(v.begin(), v[0] * y);
  return v[0] * v[1] + v[2];
}

[[grad, grad::forward]] double insertCount(double x, double y) {
  std::vector<double> v{x, y};
  v.insert(v.begin(), 2, v[1] * x);
  return v[0] * v[1] + v[2] * v[3];
}

[[grad, grad::forward]] double resized(double x, double y) {
  std::vector<double> v{x, y};
  v.resize(4, v[1] * x);
  return v[0] * v[1] + v[2] * v[3];
}

[[grad, grad::forward]] double pushed(double x, double y) {
  std::vector<double> v{x, y};
  v.push_back(v[0] * x);
  return v[0] * v[1] + v[2];
}

[[grad, grad::forward]] double bracesOfItself(double x, double y) {
  std::vector<double> v{x, y};
  v.insert(v.begin(), {v[0] * y, v[1]});
  v.assign({v[3] * v[0], x});
  return v[0] * v[1];
}

// Constants into a vector without derivatives, next to one with them.
[[grad, grad::forward]] double constants(double x, double y) {
  std::vector<double> w(2, 1.0);
  w.assign({1.0, 2.0, 3.0});
  w.insert(w.begin(), {4.0});
  std::vector<double> u{1.0};
  u.insert(u.end(), {x, 2.0});
  return w[0] * x + w[3] * y + u[1] * u[2];
}

// A by-reference parameter: in/out adjoint.
[[grad]] double byRef(std::vector<double> &v, double y) {
  v.assign({y, 2 * y, v[0] * y});
  return v[0] * v[1] * v[2];
}

#ifdef REFUSED
[[grad]] double valueUsed(double x) {
  std::vector<double> v, w{x, x};
  // REFUSED: vector-braces.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call to non-const member function 'operator[]' in 'valueUsed'
  return (v = w)[1] * x;
}
#endif

#define BOTH(F) fwdcheck::both(#F, F, F##_pullback, F##_pushforward, 1.3, -0.7)

int main() {
  BOTH(inserted);
  BOTH(assigned);
  BOTH(assignOp);
  BOTH(inLoop);
  BOTH(viaHelper);
  BOTH(assignCount);
  BOTH(insertOne);
  BOTH(insertCount);
  BOTH(resized);
  BOTH(pushed);
  BOTH(bracesOfItself);
  BOTH(constants);
  {
    // f = y * 2y * v0 y = 2 v0 y^3 with v on exit {y, 2y, v0 y}: the seed
    // of v on exit (0.1, 0.2, 0.3) flows into y and into v0 on entry.
    std::vector<double> v{1.5, 0, 0}, dv{0.1, 0.2, 0.3};
    double dy = 0;
    byRef_pullback(v, 0.8, 1.0, &dv, &dy);
    expect("byRef.dy", dy, 6 * 1.5 * 0.8 * 0.8 + 0.1 + 2 * 0.2 + 0.3 * 1.5);
    expect("byRef.dv0", dv[0], 2 * 0.8 * 0.8 * 0.8 + 0.3 * 0.8);
    expect("byRef.size", dv.size(), 3);
  }
  return failures();
}

// CHECK: ok inserted.d0
// CHECK: ok inserted.fwd.val
// CHECK: ok assignOp.d1
// CHECK: ok inLoop.fwd.y
// CHECK: ok viaHelper.d0
// CHECK: ok assignCount.d0
// CHECK: ok insertOne.d0
// CHECK: ok insertCount.d1
// CHECK: ok bracesOfItself.d1
// CHECK: ok constants.fwd.val
// CHECK: ok byRef.dv0
// CHECK: ok byRef.size

// DUMP: void inserted_pullback(
// DUMP: _k[[K:[0-9]+]] = v.begin() + 1 - v.begin();
// DUMP-NEXT: v.insert(v.begin() + _k[[K]], {x * y, y, 3.});
// DUMP: double _r{{[0-9]+}} = _d_v[_k[[K]]];
// DUMP: double _r{{[0-9]+}} = _d_v[_k[[K]] + 1L];
// DUMP: _d_v.erase(_d_v.begin() + _k[[K]], _d_v.begin() + (_k[[K]] + 3L));

// The adjoint of the inserted element is read, the shadow loses it, and
// then it flows into v[0] as it was before the insert.
// ORDER: void insertOne_pullback(
// ORDER: double _r[[R:[0-9]+]] = _d_v[_k[[K:[0-9]+]]];
// ORDER-NEXT: _d_v.erase(_d_v.begin() + _k[[K]]);
// ORDER-NEXT: _d_y += _t{{[0-9]+}} * _r[[R]];
// ORDER-NEXT: _d_v[0] += _r[[R]] * y;
