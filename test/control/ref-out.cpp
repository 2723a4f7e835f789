// void functions returning results through double& (SPEC: T& in/out; d_out
// holds the exit adjoint when called and the entry adjoint on return).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

// DUMP-LABEL: void square_pullback(double x, {{\[\[maybe_unused\]\]}} double &out, double *d_x, double *d_out) {
[[grad]] void square(double x, double &out) { out = x * x; }

// Reads the entry value of out.
[[grad]] void accumulate(double x, double &out) { out += x * out; }

// A loop writing the result through out.
[[grad]] void power(double x, int n, double &out) {
  out = 1;
  for (int i = 0; i < n; ++i)
    out = out * x;
}

// Two outputs.
[[grad]] void polar(double r, double t, double &x, double &y) {
  x = r * std::cos(t);
  y = r * std::sin(t);
}

int main() {
  using gradcheck::expect;
  {
    double Out = 123, DX = 0, DOut = 0.5;
    square_pullback(1.5, Out, &DX, &DOut);
    // CHECK: ok square.dx
    // CHECK: ok square.dout
    expect("square.dx", DX, 0.5 * 2 * 1.5);
    expect("square.dout", DOut, 0); // out is overwritten
  }
  {
    double Out = 2, DX = 0, DOut = 0.5;
    accumulate_pullback(1.5, Out, &DX, &DOut);
    // CHECK: ok accumulate.dx
    // CHECK: ok accumulate.dout
    expect("accumulate.dx", DX, 0.5 * 2);
    expect("accumulate.dout", DOut, 0.5 * (1 + 1.5));
  }
  {
    double Out = 0, DX = 0, DOut = 1;
    power_pullback(1.1, 6, Out, &DX, &DOut);
    // CHECK: ok power.dx
    // CHECK: ok power.dout
    expect("power.dx", DX, 6 * std::pow(1.1, 5));
    expect("power.dout", DOut, 0);
  }
  {
    double X = 0, Y = 0, DR = 0, DT = 0, DX = 0.3, DY = -0.7;
    double R = 1.7, T = 0.4;
    polar_pullback(R, T, X, Y, &DR, &DT, &DX, &DY);
    // CHECK: ok polar.dr
    // CHECK: ok polar.dt
    expect("polar.dr", DR, 0.3 * std::cos(T) - 0.7 * std::sin(T));
    expect("polar.dt", DT, -0.3 * R * std::sin(T) - 0.7 * R * std::cos(T));
    expect("polar.dx", DX, 0);
    expect("polar.dy", DY, 0);
  }
  return gradcheck::failures();
}
