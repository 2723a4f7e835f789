// Parameter sensitivity of an ODE solution: a damped, driven oscillator
// x'' = -k x - c x' + F cos(w t), integrated with the classical Runge-Kutta
// method (C-style helpers writing through pointers, a struct of
// parameters). d x(T) / dk and d x(T) / dc come from the reverse-mode
// pullback and again from the forward-mode pushforward, and are checked
// against central finite differences.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/rk4.cpp -o rk4 && ./rk4
#include <cmath>
#include <cstdio>

struct Params {
  double k, c, F, w;
};

// dy/dt for y = (x, v).
static void rhs(const Params &p, double t, const double *y, double *dy) {
  dy[0] = y[1];
  dy[1] = -p.k * y[0] - p.c * y[1] + p.F * std::cos(p.w * t);
}

// One RK4 step of size h, in place.
static void rk4_step(const Params &p, double t, double *y, double h) {
  double k1[2], k2[2], k3[2], k4[2], tmp[2];
  rhs(p, t, y, k1);
  for (int i = 0; i < 2; ++i)
    tmp[i] = y[i] + 0.5 * h * k1[i];
  rhs(p, t + 0.5 * h, tmp, k2);
  for (int i = 0; i < 2; ++i)
    tmp[i] = y[i] + 0.5 * h * k2[i];
  rhs(p, t + 0.5 * h, tmp, k3);
  for (int i = 0; i < 2; ++i)
    tmp[i] = y[i] + h * k3[i];
  rhs(p, t + h, tmp, k4);
  for (int i = 0; i < 2; ++i)
    y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

// The position at t = steps * h. The plugin declares
//   void final_position_pullback(double k, double c, double x0, int steps,
//                                double h, double d_ret, double *d_k,
//                                double *d_c);
//   grad::dual<double> final_position_pushforward(double k, double c,
//                                double x0, int steps, double h,
//                                double t_k, double t_c);
[[grad("k, c"), grad::forward("k, c")]] double
final_position(double k, double c, double x0, int steps, double h) {
  Params p{k, c, 0.5, 1.3};
  double y[2] = {x0, 0.0};
  for (int s = 0; s < steps; ++s)
    rk4_step(p, s * h, y, h);
  return y[0];
}

int main() {
  const double k = 2.0, c = 0.3, x0 = 1.0, h = 0.01;
  const int steps = 500;
  double dk = 0, dc = 0;
  final_position_pullback(k, c, x0, steps, h, 1.0, &dk, &dc);
  double tk = final_position_pushforward(k, c, x0, steps, h, 1, 0).der[0];
  double tc = final_position_pushforward(k, c, x0, steps, h, 0, 1).der[0];

  double e = 1e-6;
  double fk = (final_position(k + e, c, x0, steps, h) -
               final_position(k - e, c, x0, steps, h)) / (2 * e);
  double fc = (final_position(k, c + e, x0, steps, h) -
               final_position(k, c - e, x0, steps, h)) / (2 * e);
  int failures = 0;
  auto report = [&](const char *name, double got, double fd) {
    bool ok = std::fabs(got - fd) <= 1e-6 * (1 + std::fabs(fd));
    failures += !ok;
    std::printf("%-22s %.10f (finite differences: %.10f)%s\n", name, got, fd,
                ok ? "" : "  MISMATCH");
  };
  std::printf("x(T) = %.10f at T = %g\n", final_position(k, c, x0, steps, h),
              steps * h);
  report("dx(T)/dk, reverse", dk, fk);
  report("dx(T)/dk, forward", tk, fk);
  report("dx(T)/dc, reverse", dc, fc);
  report("dx(T)/dc, forward", tc, fc);
  return failures != 0;
}
