// A recursive function template with if constexpr, called from a [[grad]]
// function: every instantiation gets its own pullback (they share one
// signature, so they must not share one function).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

template <int N> double chain(double x) {
  if constexpr (N == 0)
    return x;
  else
    return std::sin(chain<N - 1>(x)) + 0.5 * x;
}

template <class T> T square(T x) { return x * x; }

[[grad]] double top(double x) { return chain<6>(x); }
[[grad]] double mixed(double x) { return square(x) + square(2.0f) * x + chain<2>(x); }

int main() {
  // CHECK: ok top.d0
  gradcheck::check_grad("top", top, top_pullback, 0.7);
  // CHECK: ok mixed.d0
  gradcheck::check_grad("mixed", mixed, mixed_pullback, 0.3);
  return gradcheck::failures();
}
