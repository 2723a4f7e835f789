// Structured bindings of structs and of references to arrays: `auto [u, v]
// = mk(x, y)` (a copy: the hidden object is a struct local `_b`), `auto
// &[qa, qb] = q` (names for members of q, written through), `auto &[k0, k1]
// = k` on a local array; the names are also usable by statements replayed
// as written (printf). Tuple-like types: test/classes/tuples.cpp.
// A name of a copy written after the reverse sweep needs its old value
// (`t4 = t4 * t1.y`, `++t4`) saves it like any write to the hidden object
// (it read the overwritten value: a wrong gradient without a diagnostic).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cstdio>
#include <utility>
struct P2 { double a, b; };
static P2 mk(double x, double y) { return {x * y, x + y}; }
// DUMP-LABEL: void binds_pullback({{.*}}) {
// DUMP: P2 _b{{[0-9]*}} = ::mk(x, y);
// DUMP: double &u = _b{{[0-9]*}}.a;
[[grad]] double binds(double x, double y) {
  auto [u, v] = mk(x, y);
  P2 q{x, 2 * y};
  auto &[qa, qb] = q;
  qa *= u;
  qb += v * qa;
  std::printf("u %g qb %g\n", u, qb);
  double k[2] = {x, 2.0};
  k[1] *= y;
  auto &[k0, k1] = k;
  k0 += k1 * u;
  return u * v + q.a * qb + k1 * qa + k[0];
}
struct C3 { double x, y, z; C3(double a, double b, double c) : x(a), y(b), z(c) {} };
[[grad]] double rebind(double x, double y) {
  C3 t1(x * x, y, 2 * x);
  auto [t2, t3, t4] = t1;
  t4 = t4 * t1.y;
  t1.y = t1.y - t4 + t3 / 2.;
  ++t4;
  t4 *= t4 + t2;
  auto [p, q] = std::pair<double, double>{x * y, y};
  p = p * q;
  q += p;
  return t1.y + t4 + p * q;
}
int main() {
  {
    double dx = 0, dy = 0;
    rebind_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("rebind", [](const std::vector<double> &V) { return rebind(V[0], V[1]); }, {0.7, 1.3}, {dx, dy});
  }
  double dx = 0, dy = 0;
  binds_pullback(0.7, 1.3, 1, &dx, &dy);
  vecgrad::check("binds", [](const std::vector<double> &V) { return binds(V[0], V[1]); }, {0.7, 1.3}, {dx, dy});
  // CHECK: ok rebind.d0
  // CHECK: ok rebind.d1
  // CHECK: u {{.*}} qb
  // CHECK: ok binds.d0
  // CHECK: ok binds.d1
  return gradcheck::failures();
}
