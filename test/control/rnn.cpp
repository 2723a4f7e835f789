// A tanh RNN h = tanh(w*h + x[i]) over 1000 steps. The loop pushes only what
// the reverse sweep needs: no index, no trip count, two values per step.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>

// DUMP-LABEL: void rnn_pullback(const double *x, int n, double w, double h0, double d_ret, double *d_x, double *d_w, double *d_h0) {
// DUMP: _stack.push_all(_t{{[0-9]+}}, _t{{[0-9]+}});
// DUMP-NOT: .push
// DUMP: {{^}$}}
[[grad]] double rnn(const double *x, int n, double w, double h0) {
  double h = h0;
  for (int i = 0; i < n; ++i)
    h = std::tanh(w * h + x[i]);
  return h;
}

int main() {
  const int N = 1000;
  auto In = vecgrad::sample(N + 2, 11);
  In[N] = 0.9;      // w
  In[N + 1] = 0.3;  // h0
  std::vector<double> D(N + 2, 0.0);
  rnn_pullback(In.data(), N, In[N], In[N + 1], 1.0, D.data(), &D[N], &D[N + 1]);
  auto F = [&](const std::vector<double> &V) {
    return rnn(V.data(), N, V[N], V[N + 1]);
  };
  // Check the last 20 inputs, w, h0 and a few early inputs (whose adjoints
  // are tiny: absolute tolerance applies).
  std::vector<double> Sub, Got;
  std::vector<std::size_t> Idx = {0, 1, 500};
  for (int I = N - 20; I < N + 2; ++I)
    Idx.push_back(I);
  for (std::size_t I : Idx)
    gradcheck::expect("rnn.d" + std::to_string(I), D[I],
                      vecgrad::fdAt(F, In, I));
  // CHECK: ok rnn.d0
  // CHECK: ok rnn.d999
  // CHECK: ok rnn.d1000
  // CHECK: ok rnn.d1001
  return gradcheck::failures();
}
