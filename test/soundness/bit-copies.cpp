// Copies of the bits of a differentiated value into storage without
// floating data (`std::bit_cast<std::uint64_t>(x)`, `std::memcpy(&u, &v,
// 8)`): the derivative cannot follow the bits. Before (issue 49), a round
// trip double -> uint64 -> double gave a zero derivative with no
// diagnostic (the integer was taken for a constant). Refused at the call,
// in both modes; bits of constants are fine in reverse mode.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %gradxx -DFIXED %s -o %t && %t | FileCheck %s --check-prefix=OK
#include "gradcheck.h"
#include <bit>
#include <cstdint>
#include <cstring>

#ifndef FIXED
[[grad, grad::forward]] double roundtrip(double x) {
  // CHECK-DAG: bit-copies.cpp:[[@LINE+2]]:21: error: grad: cannot differentiate copy of the bits of the differentiated value 'x * x' into 'unsigned long' ('std::bit_cast<std::uint64_t>(x * x)'): the derivative cannot follow the bits (compute with the floating value itself) in 'roundtrip'{{$}}
  // CHECK-DAG: bit-copies.cpp:[[@LINE+1]]:21: error: grad: cannot differentiate copy of the bits of the differentiated value 'x * x' into 'unsigned long' ('std::bit_cast<std::uint64_t>(x * x)'): the derivative cannot follow the bits (compute with the floating value itself) in 'roundtrip' in forward mode
  std::uint64_t u = std::bit_cast<std::uint64_t>(x * x);
  double y = std::bit_cast<double>(u);
  return y * 2;
}

[[grad]] double copied(double x) {
  std::uint64_t u;
  double v = 3 * x;
  // CHECK-DAG: bit-copies.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate copy of the bits of the differentiated value 'v' into 'std::uint64_t' ('std::memcpy(&u, &v, sizeof u)'): the derivative cannot follow the bits (compute with the floating value itself) in 'copied'
  std::memcpy(&u, &v, sizeof u);
  double y;
  std::memcpy(&y, &u, sizeof y);
  return y;
}
#endif

// The bits of a constant: no derivative to lose.
[[grad]] double parity(double x) {
  const double c = 0.5;
  std::uint64_t u = std::bit_cast<std::uint64_t>(c);
  return x * x * static_cast<double>((u >> 61) & 1);
}

int main() {
  gradcheck::check_grad("parity", parity, parity_pullback, 1.3);
  // OK: ok parity.d0
  return gradcheck::failures();
}
