// Re-entrancy: 8 threads run the same RNN pullback (with its tape)
// concurrently; every result equals a single-threaded reference bit for bit.
// RUN: %gradxx -pthread %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstring>
#include <grad/grad.h>
#include <thread>
#include <vector>

[[grad]] double rnn(const double *x, int n, double w, double h0) {
  double h = h0;
  for (int i = 0; i < n; ++i)
    h = std::tanh(w * h + x[i]);
  return h;
}

struct Result {
  std::vector<double> DX;
  double DW = 0, DH = 0;
};

static Result run(const std::vector<double> &X) {
  Result R;
  R.DX.assign(X.size(), 0.0);
  rnn_pullback(X.data(), (int)X.size(), 0.9, 0.1, 1.0, R.DX.data(), &R.DW,
               &R.DH);
  return R;
}

static bool same(const Result &A, const Result &B) {
  return A.DW == B.DW && A.DH == B.DH &&
         std::memcmp(A.DX.data(), B.DX.data(), A.DX.size() * sizeof(double)) == 0;
}

int main() {
  std::vector<double> X(5000);
  for (std::size_t I = 0; I < X.size(); ++I)
    X[I] = std::sin(0.37 * I);
  Result Ref = run(X);
  const int T = 8, Reps = 20;
  std::vector<int> Bad(T, 0);
  std::vector<std::thread> Threads;
  for (int K = 0; K < T; ++K)
    Threads.emplace_back([&, K] {
      for (int Rep = 0; Rep < Reps; ++Rep)
        Bad[K] += !same(run(X), Ref);
    });
  for (auto &Th : Threads)
    Th.join();
  for (int K = 0; K < T; ++K)
    // CHECK: ok thread0
    // CHECK: ok thread7
    gradcheck::expect("thread" + std::to_string(K), Bad[K], 0);
  // CHECK: ok reference.dw
  double DW = 0, DH = 0;
  std::vector<double> Small(X.begin(), X.begin() + 50), DX(50);
  rnn_pullback(Small.data(), 50, 0.9, 0.1, 1.0, DX.data(), &DW, &DH);
  auto F = [&](double W) { return rnn(Small.data(), 50, W, 0.1); };
  gradcheck::expect("reference.dw", DW, gradcheck::fd(F, 0, 0.9));
  return gradcheck::failures();
}
