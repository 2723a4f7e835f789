// An active sin(x) or cos(x) is computed in derivatives by the runtime's
// grad::detail::sin_cos (one glibc sincos: the same bits as sin and cos),
// and the partial reads the other value instead of calling libm again in
// the reverse sweep: straight-line code, loops (the pair goes on the
// stack), split halves of a helper writing through an out-parameter,
// float and long double spellings, pushforwards (scalar and lanes).
// sin(theta) and cos(theta) of one value are one call at -O2 (IR). When
// only the partial is read (the value fed the return value a pullback does
// not return), the call computes just that (pair_cos). Without the runtime
// (no-runtime-include, nothing included) the rule's partial is used.
// Values against central differences and closed forms.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// RUN: %gradxx -O2 -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR
// RUN: %gradxx -fplugin-arg-grad-no-runtime-include -DNO_RUNTIME %s -o %t2 && %t2 | %FileCheck-strict %s --check-prefix=PLAIN --implicit-check-not=FAIL
// With -fplugin-arg-grad-no-sincos: sin and cos as written, the same
// results bit for bit (the printed digest).
// RUN: %gradxx -fplugin-arg-grad-no-sincos %s -o %t3 && %t3 > %t3.out && %FileCheck-strict %s --implicit-check-not=FAIL < %t3.out
// RUN: %t > %t1.out && diff %t1.out %t3.out
// RUN: %gradxx -fsyntax-only -fplugin-arg-grad-no-sincos -fplugin-arg-grad-dump %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NOSC
// NOSC-LABEL: void angle_pullback(
// NOSC-NOT: sin_cos
// NOSC: _d_theta += {{.*}}::std::cos(theta)
// NOSC-LABEL: void loop_hvp(
// NOSC-NOT: sin_cos
// NOSC: }
#ifndef NO_RUNTIME
#include "fwdcheck.h"
#include <grad/grad.h>
#else
#include "gradcheck.h"
#endif
#include <cmath>
#include <math.h>

// DUMP-LABEL: void only_pullback(double x, double d_ret, double *d_x) {
// DUMP: [[P:_t[0-9]+]] = ::grad::detail::pair_cos(x);
// DUMP: _d_x += d_ret * [[P]].__cos;
// IR-LABEL: define {{.*}}@_Z13only_pullbackddPd(
// IR-NOT: sincos
// IR: call {{.*}}@cos(
// IR: ret void
[[grad]] double only(double x) { return std::sin(x); }

// DUMP-LABEL: void angle_pullback(double theta, double y, double d_ret, double *d_theta, double *d_y) {
// DUMP: [[C:_t[0-9]+]] = ::grad::detail::sin_cos(theta);
// DUMP: c = [[C]].__cos;
// DUMP: [[S:_t[0-9]+]] = ::grad::detail::sin_cos(theta);
// DUMP: s = [[S]].__sin;
// DUMP-NOT: ::std::{{sin|cos}}
// DUMP: _d_theta += {{.*}}[[S]].__cos;
// DUMP: _d_theta += {{.*}}-[[C]].__sin;
// IR-LABEL: define {{.*}}@_Z14angle_pullbackdddPdS_(
// IR: call {{.*}}@_ZN4grad6detail7sin_cosEd(
// IR-NOT: call {{.*}}@_ZN4grad6detail7sin_cosEd(
// IR-NOT: @sin(
// IR-NOT: @cos(
// IR: ret void
[[grad]] double angle(double theta, double y) {
  double c = std::cos(theta), s = std::sin(theta);
  return c * y + s * y * y + c * s;
}

#ifndef NO_RUNTIME // (loops and split halves need the runtime's stack)
// A loop: the pairs are pushed per iteration. The Hessian-vector products
// push the pullbacks forward: the pair's tangent is {cos t, -sin t}, and
// pairs on the stack are pushed with their tangents.
// DUMP-LABEL: void loop_hvp(
// DUMP: [[D:_t__t[0-9]+]] = grad::detail::sin_cos_pair<double>{[[P:_v[0-9]+]].__cos * [[T:_v[0-9]+]], (-[[P]].__sin) * [[T]]};
// DUMP: _stack.push_all(_t{{[0-9]+}}, [[D]], {{.*}});
[[grad::hessian]] double loop(double x, double y) {
  double acc = 0;
  for (int i = 1; i <= 5; ++i) {
    double t = x * i + y;
    acc += std::sin(t) * std::cos(y * i) + acc * 0.1;
  }
  return acc;
}

// Split halves: the helper's pair crosses from its forward to its
// reverse half.
void rotate(const double *v, double angle, double *out) {
  double c = std::cos(angle), s = std::sin(angle);
  out[0] = c * v[0] - s * v[1];
  out[1] = s * v[0] + c * v[1];
}
[[grad::hessian]] double rotated(double a, double b) {
  double v[2] = {a, a * b}, w[2];
  rotate(v, b, w);
  return w[0] * w[1] + w[0];
}
#endif

// float and long double, C and std spellings.
[[grad]] float fl(float x) { return sinf(x) * std::cos(x * 2.F); }
[[grad]] long double ld(long double x) { return sinl(x) * std::cos(x); }

#ifndef NO_RUNTIME
// sin x cos x = sin(2x) / 2: the second derivative is -2 sin(2x).
[[grad::hessian]] double sc(double x) { return std::sin(x) * std::cos(x); }

// DUMP-LABEL: ::grad::dual<double> fwd_pushforward(double x, double y, double t_x, double t_y) {
// DUMP: = ::grad::detail::sin_cos(x);
// DUMP: = ::grad::detail::sin_cos(x * y);
// DUMP-NOT: ::std::{{sin|cos}}
// DUMP: return
// DUMP-LABEL: void fwd_pullback(
// DUMP: ::grad::detail::pair_sin(x * y);
[[grad, grad::forward]] double fwd(double x, double y) {
  return std::sin(x) * std::cos(x) * y + std::cos(x * y);
}
[[grad::forward("lanes=2")]] double fwdl(double x, double y) {
  return std::sin(x) * std::cos(x) * y + std::cos(x * y);
}
#endif

#ifndef NO_RUNTIME
// Each Hessian-vector product along a unit direction against central
// differences of the pullback.
template <class PB, class HVP>
static void hvpCheck(const char *Name, PB Pullback, HVP Hvp, double X,
                     double Y) {
  using V = std::vector<double>;
  for (int K = 0; K < 2; ++K) {
    double HX = 0, HY = 0;
    Hvp(X, Y, K == 0, K == 1, &HX, &HY);
    for (int C = 0; C < 2; ++C) {
      auto G = [&](const V &P) {
        double DX = 0, DY = 0;
        Pullback(P[0], P[1], 1.0, &DX, &DY);
        return C ? DY : DX;
      };
      gradcheck::expect(std::string(Name) + ".hvp" + std::to_string(K) +
                            (C ? "y" : "x"),
                        C ? HY : HX,
                        fwdcheck::fdAlong(G, {X, Y}, V{double(K == 0),
                                                       double(K == 1)}));
    }
  }
}
#endif

int main() {
  using gradcheck::check_grad;
  // CHECK: ok only.d0
  check_grad("only", only, only_pullback, 0.7);
  // CHECK: ok angle.d0
  // CHECK: ok angle.d1
  check_grad("angle", angle, angle_pullback, 0.7, -1.3);
#ifndef NO_RUNTIME
  // CHECK: ok loop.d0
  // CHECK: ok loop.d1
  check_grad("loop", loop, loop_pullback, 0.4, 0.9);
  // CHECK: ok rotated.d0
  // CHECK: ok rotated.d1
  check_grad("rotated", rotated, rotated_pullback, 0.6, 1.1);
  // CHECK: ok loop.hvp0x
  // CHECK: ok rotated.hvp1y
  hvpCheck("loop", loop_pullback, loop_hvp, 0.4, 0.9);
  hvpCheck("rotated", rotated_pullback, rotated_hvp, 0.6, 1.1);
  double hsc = 0;
  sc_hvp(0.7, 1., &hsc);
  // CHECK: ok sc.hvp
  gradcheck::expect("sc.hvp", hsc, -2 * std::sin(1.4), 1e-13);
#endif
  // PLAIN: ok only.d0
  // PLAIN: ok angle.d0
  // PLAIN: ok angle.d1

  // d/dx sin(x) cos(2x) = cos(x) cos(2x) - 2 sin(x) sin(2x)
  float dxf = 0;
  fl_pullback(0.8F, 1.F, &dxf);
  long double xf = 0.8L;
  // CHECK: ok fl
  // PLAIN: ok fl
  gradcheck::expect("fl", dxf,
                    cosl(xf) * cosl(2 * xf) - 2 * sinl(xf) * sinl(2 * xf),
                    1e-5);
  long double dxl = 0, xl = 0.8L;
  ld_pullback(xl, 1.L, &dxl);
  // CHECK: ok ld
  // PLAIN: ok ld
  gradcheck::expect("ld", dxl, cosl(2 * xl), 1e-15);

#ifndef NO_RUNTIME
  // CHECK: ok fwd.d0
  // CHECK: ok fwd.fwd.val
  fwdcheck::both("fwd", fwd, fwd_pullback, fwd_pushforward, 0.7, 1.4);
  using V = std::vector<double>;
  // CHECK: ok fwdl.v0
  // CHECK: ok fwdl.v2
  fwdcheck::lanes<2>(
      "fwdl", [](const V &X) { return fwdl(X[0], X[1]); },
      [](const V &X, const std::vector<grad::lanes<double, 2>> &D) {
        return fwdl_pushforward(X[0], X[1], D[0], D[1]);
      },
      {0.7, 1.4});
#endif
#ifndef NO_RUNTIME
  // The gradients and Hessian-vector products, bit for bit.
  double G[8] = {};
  angle_pullback(0.7, -1.3, 1., &G[0], &G[1]);
  loop_pullback(0.4, 0.9, 1., &G[2], &G[3]);
  rotated_hvp(0.6, 1.1, 0.3, -0.8, &G[4], &G[5]);
  loop_hvp(0.4, 0.9, -0.5, 0.25, &G[6], &G[7]);
  // CHECK: bits
  std::printf("bits");
  for (double V : G)
    std::printf(" %a", V);
  std::printf("\n");
#endif
  return gradcheck::failures();
}
