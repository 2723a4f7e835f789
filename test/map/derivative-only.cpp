// A map lambda lowered to dual numbers for a pullback: only the derivative
// part of its result is read, so a rule call whose value nothing reads takes
// the rule's partial over x alone (tanh: 1 / cosh(x)^2, through
// grad::detail::tanh_der) instead of computing tanh(x) and 1 - y * y.
// Calls whose value is read (a product of two duals, an argument of another
// call, a condition, a local read that way) keep the full rule.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: _grad_tangent_{{[0-9]+}}(::grad::dual<double, 1UL> z) {
// DUMP-NEXT: return ::grad::detail::tanh_der(z);
[[grad]] double root(const V &x) {
  return grad::sum(grad::map([](double z) { return std::tanh(z); }, x));
}

// Sums, negation, products and quotients by literals pass "unread" on.
// DUMP-LABEL: _grad_tangent_{{[0-9]+}}(::grad::dual<double, 1UL> z) {
// DUMP-NEXT: return 2 * ::grad::detail::tanh_der(z) - - ::grad::detail::tanh_der(3 * z) / 4 + z;
[[grad]] double linear(const V &x) {
  return grad::sum(grad::map(
      [](double z) { return 2 * std::tanh(z) - -std::tanh(3 * z) / 4 + z; },
      x));
}

// A local that is only added to and returned.
// DUMP-LABEL: _grad_tangent_{{[0-9]+}}(::grad::dual<double, 1UL> z) {
// DUMP-NEXT: {{(::)?}}grad::dual<double{{(, 1UL)?}}> t = ::grad::detail::tanh_der(0.5 * z);
// DUMP-NEXT: t += z;
// DUMP-NEXT: t = t - ::grad::detail::tanh_der(z);
// DUMP-NEXT: return t;
[[grad]] double local(const V &x) {
  return grad::sum(grad::map(
      [](double z) {
        double t = std::tanh(0.5 * z);
        t += z;
        t = t - std::tanh(z);
        return t;
      },
      x));
}

// Values that are read: the full rule.
// DUMP-LABEL: _grad_tangent_{{[0-9]+}}(::grad::dual<double, 1UL> z) {
// DUMP-NEXT: return ::grad::tanh(z) * ::grad::tanh(z) + z * ::grad::tanh(z) + ::grad::exp(::grad::tanh(z));
[[grad]] double reads(const V &x) {
  return grad::sum(grad::map(
      [](double z) {
        return std::tanh(z) * std::tanh(z) + z * std::tanh(z) +
               std::exp(std::tanh(z));
      },
      x));
}

// DUMP-LABEL: _grad_tangent_{{[0-9]+}}(::grad::dual<double, 1UL> z) {
// DUMP-NEXT: {{(::)?}}grad::dual<double{{(, 1UL)?}}> t = ::grad::tanh(z);
// DUMP-NEXT: {{(::)?}}grad::dual<double{{(, 1UL)?}}> u = ::grad::tanh(2 * z);
// DUMP-NEXT: u *= 3.;
// DUMP-NEXT: if (t > 0.10000000000000001)
// DUMP-NEXT: return t + u;
// DUMP-NEXT: return - t;
[[grad]] double branch(const V &x) {
  return grad::sum(grad::map(
      [](double z) {
        double t = std::tanh(z);
        double u = std::tanh(2 * z);
        u *= 3.0;
        if (t > 0.1)
          return t + u;
        return -t;
      },
      x));
}

template <class F, class PB>
void check(const char *Name, F f, PB Pb, const V &x) {
  V dx(x.size());
  Pb(x, 1.0, &dx);
  mapcheck::check_elems(Name, f, x, dx);
}

int main() {
  const V x{0.3, -1.2, 2.5, -0.05, 0.7};
  // CHECK: ok root[0]
  // CHECK: ok root[4]
  check("root", root, root_pullback, x);
  // CHECK: ok linear[4]
  check("linear", linear, linear_pullback, x);
  // CHECK: ok local[4]
  check("local", local, local_pullback, x);
  // CHECK: ok reads[4]
  check("reads", reads, reads_pullback, x);
  // CHECK: ok branch[4]
  check("branch", branch, branch_pullback, x);
  // Where tanh(z) rounds to 1, 1 - y * y is 0; 1 / cosh(z)^2 is not.
  const V far{20.0, -25.0};
  V dfar(far.size());
  root_pullback(far, 1.0, &dfar);
  V want;
  for (double v : far)
    want.push_back(1 / (std::cosh(v) * std::cosh(v)));
  // CHECK: ok far[0]
  // CHECK: ok far[1]
  mapcheck::check_values("far", dfar, want);
  return gradcheck::failures();
}
