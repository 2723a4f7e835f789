// A lambda capturing a vector by reference takes the reverse lowering; its
// pullback also accumulates the capture's adjoint: for
// sum(map([&](z) { z*z + y[0] }, x)), d/dy = [n, 0, ...] and d/dx = 2x.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: void cap_pullback(const V &x, const V &y, double d_ret, V *d_x, V *d_y) {
// DUMP-NOT: tangent_pullback
// DUMP: ::grad::detail::reverse_pullback<&::_grad_lambda_{{[0-9]+}}_pullback>(d_ret, ::grad::detail::pack(x), ::grad::detail::adjoints(d_x), ::grad::detail::refs(y), ::grad::detail::adjoints(d_y));
// DUMP-NEXT: }
// DUMP-LABEL: void _grad_lambda_{{[0-9]+}}_pullback(double z, {{\[\[maybe_unused\]\]}} const V &y, double d_ret, double *d_z, V *d_y) {
// DUMP: (*d_y)[0] += d_ret;
// REMARK-DAG: reverse-capture-ref.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'cap': captures 'y'
// REMARK-DAG: reverse-capture-ref.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-capture-ref.cpp:[[@LINE+1]]:17: remark: grad: generated 'cap_pullback' for 'cap'
[[grad]] double cap(const V &x, const V &y) {
  return grad::sum(grad::map([&](double z) { return z * z + y[0]; }, x));
}

// A capture that depends on the arguments through a local.
// REMARK-DAG: reverse-capture-ref.cpp:[[@LINE+5]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'cap_local': captures 's'
// REMARK-DAG: reverse-capture-ref.cpp:[[@LINE+4]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-capture-ref.cpp:[[@LINE+1]]:17: remark: grad: generated 'cap_local_pullback' for 'cap_local'
[[grad]] double cap_local(const V &x, double a) {
  double s = a * a;
  return grad::sum(grad::map([&](double z) { return std::sin(s * z); }, x)) + s;
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.7}, y{1.5, -2.0, 4.0};
  V dx(4), dy(3);
  cap_pullback(x, y, 1.0, &dx, &dy);
  // CHECK: ok cap.y[0]
  // CHECK: ok cap.y[1]
  // CHECK: ok cap.y[2]
  mapcheck::check_values("cap.y", dy, V{4, 0, 0});
  // CHECK: ok cap.x[3]
  mapcheck::check_values("cap.x", dx, V{0.6, -2.4, 5.0, 1.4});
  // The runtime adds the capture's adjoint into a local copy when the
  // vector is no longer than the elements mapped (above), and straight
  // into d_y otherwise (6 > 4): both add to what d_y held.
  const V big{1.5, -2.0, 4.0, 1.0, 2.0, 3.0};
  V dbig(6, 0.5), dx2(4), dy2(3, 0.25);
  cap_pullback(x, big, 1.0, &dx2, &dbig);
  // CHECK: ok cap.big[5]
  mapcheck::check_values("cap.big", dbig, V{4.5, 0.5, 0.5, 0.5, 0.5, 0.5});
  cap_pullback(x, y, 1.0, &dx2, &dy2);
  // CHECK: ok cap.y2[2]
  mapcheck::check_values("cap.y2", dy2, V{4.25, 0.25, 0.25});

  V ex(4);
  double da = 0;
  cap_local_pullback(x, 0.8, 1.0, &ex, &da);
  // CHECK: ok cap_local.x[3]
  mapcheck::check_elems("cap_local.x", [](const V &v) { return cap_local(v, 0.8); }, x, ex);
  // CHECK: ok cap_local.a
  mapcheck::check_elems("cap_local.a", [&](double a) { return cap_local(x, a); }, 0.8, da);
  return gradcheck::failures();
}
