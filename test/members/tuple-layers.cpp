// A std::tuple of heterogeneous layers applied in sequence: as a fold
// expression over an index_sequence, as a recursive template over the
// tuple index, and written out (x = l(x), a by-value parameter overwritten
// by member calls). The adjoint of the tuple is a same-typed tuple; every
// parameter of every layer and the input are checked against finite
// differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <functional>
#include <grad/grad.h>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using gradcheck::expect;

struct Scale {
  double a;
  [[grad]] double operator()(double x) const { return a * x; }
};
struct Tanh { // no parameters: no adjoint object
  [[grad]] double operator()(double x) const { return std::tanh(x); }
};
struct Poly {
  std::vector<double> w;
  double b;
  [[grad]] double operator()(double x) const {
    double s = b;
    for (std::size_t i = 0; i < w.size(); ++i)
      s += w[i] * std::pow(x, double(i + 1));
    return s;
  }
};

using Net = std::tuple<Scale, Tanh, Poly, Scale>;

template <class Tuple, std::size_t... I>
double fold(const Tuple &t, double x, std::index_sequence<I...>) {
  ((x = std::get<I>(t)(x)), ...);
  return x;
}
[[grad]] double byFold(const Net &n, double x) {
  return fold(n, x, std::make_index_sequence<std::tuple_size_v<Net>>{});
}

template <std::size_t I, class... L>
double run(const std::tuple<L...> &t, double x) {
  if constexpr (I == sizeof...(L))
    return x;
  else
    return run<I + 1>(t, std::get<I>(t)(x));
}
[[grad]] double byRecursion(const Net &n, double x) { return run<0>(n, x); }

[[grad]] double byHand(const Net &n, double x) {
  x = std::get<0>(n)(x);
  x = std::get<1>(n)(x);
  x = std::get<2>(n)(x);
  x = std::get<3>(n)(x);
  return x;
}

/// Every scalar parameter of the network, for finite differences.
std::vector<double *> params(Net &n) {
  std::vector<double *> P{&std::get<0>(n).a};
  for (double &w : std::get<2>(n).w)
    P.push_back(&w);
  P.push_back(&std::get<2>(n).b);
  P.push_back(&std::get<3>(n).a);
  return P;
}

using Fn = double (*)(const Net &, double);
using Pb = void (*)(const Net &, double, double, Net *, double *);

void check(const std::string &Name, Fn f, Pb pb) {
  Net n{Scale{1.5}, Tanh{}, Poly{{0.5, -0.25, 0.1}, 0.3}, Scale{0.7}};
  Net dn{Scale{0}, Tanh{}, Poly{{0, 0, 0}, 0}, Scale{0}};
  double x = 0.4, dx = 0;
  pb(n, x, 1.0, &dn, &dx);
  double h = 1e-5;
  expect(Name + ".dx", dx, (f(n, x + h) - f(n, x - h)) / (2 * h), 1e-6);
  std::vector<double *> P = params(n), D = params(dn);
  for (std::size_t i = 0; i < P.size(); ++i) {
    double v = *P[i];
    *P[i] = v + h;
    double up = f(n, x);
    *P[i] = v - h;
    double down = f(n, x);
    *P[i] = v;
    expect(Name + ".dparam" + std::to_string(i), *D[i], (up - down) / (2 * h),
           1e-6);
  }
}

int main() {
  // CHECK: ok fold.dx
  // CHECK-COUNT-6: ok fold.dparam
  check("fold", byFold, byFold_pullback);
  // CHECK: ok recursion.dx
  // CHECK-COUNT-6: ok recursion.dparam
  check("recursion", byRecursion, byRecursion_pullback);
  // CHECK: ok hand.dx
  // CHECK-COUNT-6: ok hand.dparam
  check("hand", byHand, byHand_pullback);
  return gradcheck::failures();
}
