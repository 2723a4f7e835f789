// In/out arrays: writes through double* y. On entry d_y holds the adjoint of
// the exit values; on return, the adjoint of the entry values (SPEC).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <grad/grad.h>

// DUMP-LABEL: void scale_pullback(double *y, int n, double a, double *d_y, double *d_a) {
[[grad]] void scale(double *y, int n, double a) {
  for (int i = 0; i < n; ++i)
    y[i] *= a;
}

// Reads a neighbour before it is overwritten: y[i] = y[i] + a * y[i-1].
[[grad]] void smooth(double *y, int n, double a) {
  for (int i = 1; i < n; ++i)
    y[i] = y[i] + a * y[i - 1];
}

// Scalar result plus an in/out array.
[[grad]] double normalize(double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * y[i];
  double r = std::sqrt(s);
  for (int i = 0; i < n; ++i)
    y[i] = y[i] / r;
  return r;
}

template <class Fn, class Pb>
void checkInOut(const char *Name, Fn F, Pb P, int N) {
  auto Y = vecgrad::sample(N, 21), Seed = vecgrad::sample(N, 22);
  double A = 0.8;
  // L(y, a) = sum Seed[i] * (y after F)[i].
  auto L = [&](const std::vector<double> &V) {
    std::vector<double> W(V.begin(), V.begin() + N);
    F(W.data(), N, V[N]);
    double S = 0;
    for (int I = 0; I < N; ++I)
      S += Seed[I] * W[I];
    return S;
  };
  std::vector<double> In = Y;
  In.push_back(A);
  std::vector<double> DY = Seed, Work = Y;
  double DA = 0;
  P(Work.data(), N, A, DY.data(), &DA);
  std::vector<double> D = DY;
  D.push_back(DA);
  vecgrad::check(Name, L, In, D);
}

int main() {
  // CHECK: ok scale.d0
  // CHECK: ok scale.d5
  // CHECK: ok scale.d6
  checkInOut("scale", scale, scale_pullback, 6);
  // CHECK: ok smooth.d0
  // CHECK: ok smooth.d6
  checkInOut("smooth", smooth, smooth_pullback, 6);
  // Closed form for scale: d_y = a * seed, d_a = sum y * seed.
  std::vector<double> Y = {1, 2, 3}, DY = {1, 10, 100};
  double DA = 0;
  scale_pullback(Y.data(), 3, 2.0, DY.data(), &DA);
  // CHECK: ok scale.closed.dy2
  // CHECK: ok scale.closed.da
  gradcheck::expect("scale.closed.dy0", DY[0], 2);
  gradcheck::expect("scale.closed.dy2", DY[2], 200);
  gradcheck::expect("scale.closed.da", DA, 1 + 20 + 300);
  // normalize: L = seed_r * r + sum seed_i * y_out[i].
  {
    const int N = 5;
    auto Y0 = vecgrad::sample(N, 31), Seed = vecgrad::sample(N, 32);
    double SR = 0.7;
    auto L = [&](const std::vector<double> &V) {
      std::vector<double> W = V;
      double R = normalize(W.data(), N);
      double S = SR * R;
      for (int I = 0; I < N; ++I)
        S += Seed[I] * W[I];
      return S;
    };
    std::vector<double> DY = Seed, W = Y0;
    normalize_pullback(W.data(), N, SR, DY.data());
    // CHECK: ok normalize.d4
    vecgrad::check("normalize", L, Y0, DY);
  }
  return gradcheck::failures();
}
