// Braced elements whose values come from calls differentiated in two halves
// (a helper calling a function that calls a function: its forward half
// pushes a frame, its reverse half pops it): the reverse sweep must take
// them last first. `v.assign({h(x, y), h(y, 2 * x)})` and `v.insert(pos,
// {...})` took them in order, so each reverse half popped the other's frame:
// wrong gradients without a diagnostic (found by the random programs,
// features all,memory,owners,vectors,outargs, seed 52301). The other braced
// forms and call arguments are checked alongside.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include <vector>
#include <array>
#include <cmath>
#include "gradcheck.h"
// A helper whose derivative is split in two halves (it calls a function
// that calls a function): each call pushes a frame the reverse sweep pops.
static double lv2(double a) { return std::sin(a) * a; }
static double lv1(double a, double b) { return lv2(a * b) + std::cos(b); }
static double h(double a, double b) { return lv1(a, b) * a + b; }
struct P2 { double a, b; };
static double two(double p, double q) { return p * q + p; }

[[grad]] double assignb(double x, double y) {
  std::vector<double> v(2);
  v.assign({h(x, y), h(y, 2 * x)});
  return v[0] * v[1] + v[0];
}
[[grad]] double vecinit(double x, double y) {
  std::vector<double> v{h(x, y), h(y, 2 * x)};
  return v[0] * v[1] + v[0];
}
[[grad]] double arrinit(double x, double y) {
  double a[2] = {h(x, y), h(y, 2 * x)};
  return a[0] * a[1] + a[0];
}
[[grad]] double stdarr(double x, double y) {
  std::array<double, 2> a{h(x, y), h(y, 2 * x)};
  return a[0] * a[1] + a[0];
}
[[grad]] double structinit(double x, double y) {
  P2 p{h(x, y), h(y, 2 * x)};
  return p.a * p.b + p.a;
}
[[grad]] double args(double x, double y) {
  return two(h(x, y), h(y, 2 * x));
}
[[grad]] double insertb(double x, double y) {
  std::vector<double> v(1, x);
  v.insert(v.begin(), {h(x, y), h(y, 2 * x)});
  return v[0] * v[1] + v[2] * v[0];
}
int main() {
  using namespace gradcheck;
#define CHECK(F)                                                             \
  {                                                                          \
    double dx = 0, dy = 0;                                                   \
    F##_pullback(0.7, -0.4, 1.0, &dx, &dy);                                  \
    expect(#F ".x", dx, fd(F, 0, 0.7, -0.4));                                \
    expect(#F ".y", dy, fd(F, 1, 0.7, -0.4));                                \
  }
  CHECK(assignb) CHECK(vecinit) CHECK(arrinit) CHECK(stdarr) CHECK(structinit)
  CHECK(args) CHECK(insertb)
  return failures();
}
// CHECK: ok assignb.x
// CHECK: ok assignb.y
// CHECK: ok vecinit.x
// CHECK: ok vecinit.y
// CHECK: ok arrinit.x
// CHECK: ok arrinit.y
// CHECK: ok stdarr.x
// CHECK: ok stdarr.y
// CHECK: ok structinit.x
// CHECK: ok structinit.y
// CHECK: ok args.x
// CHECK: ok args.y
// CHECK: ok insertb.x
// CHECK: ok insertb.y
