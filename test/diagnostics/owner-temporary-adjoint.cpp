// A class owning a std::vector, passed to a const member function as a
// temporary or as a member of another object: its adjoint cannot be made
// at the call. With <grad/grad.h> included, the plugin asked the runtime's
// grad::zeros_like (a tensor's) for it: a clang error inside generated
// code ("no matching function for call to 'zeros_like'", found by the
// advice audit, issue 54). Now the plugin's message, whose rewrite
// test/rewrites/calls-helpers.cpp checks.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <vector>

struct Poly { std::vector<double> c; };
struct Rule {
  double h;
  double integrate(const Poly &p) const {
    double s = 0, t = h;
    for (std::size_t k = 0; k < p.c.size(); ++k, t *= h)
      s += p.c[k] * t;
    return s;
  }
};
static Poly makePoly(double x, double y) { return Poly{{x, y, x * y}}; }
struct Model { Poly p; };

[[grad]] double area(double x, double y) {
  Rule r{0.25};
  // CHECK: owner-temporary-adjoint.cpp:[[@LINE+1]]:22: error: grad: cannot differentiate argument 'makePoly(x, y)' of type 'Poly', whose adjoint cannot be made here (bind it to a local first) in 'area'
  return r.integrate(makePoly(x, y));
}
// CHECK: owner-temporary-adjoint.cpp:[[@LINE-5]]:3: note: while differentiating 'area' requested here
[[grad]] double member(double x, double y) {
  Rule r{0.25};
  Model m{makePoly(x, y)};
  // CHECK: owner-temporary-adjoint.cpp:[[@LINE+1]]:22: error: grad: cannot differentiate argument 'm.p' of type 'Poly', whose adjoint cannot be made here (bind it to a local first) in 'member'
  return r.integrate(m.p);
}
// CHECK: owner-temporary-adjoint.cpp:[[@LINE-6]]:3: note: while differentiating 'member' requested here
