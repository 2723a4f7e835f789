// Tape memory is reused: the second call of a pullback with loops (and of a
// split derivative) allocates nothing, neither through operator new nor by
// growing the thread's stack.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

static long News = 0;
void *operator new(std::size_t N) {
  ++News;
  if (void *P = std::malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete(void *P, std::size_t) noexcept { std::free(P); }

// Overwrites s every iteration: 2n values on the stack per call.
[[grad]] double recur(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = std::sin(s * x[i]) + s;
  return s;
}

double g1(double x) { return x * std::tanh(x); }
double g2(double x) { return g1(x) * g1(x + 0.5); }
double g3(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g2(x + s * 0.01);
  return s;
}
[[grad]] double chain(double x, int n) { return g3(x, n) * g3(-x, n); }

int main() {
  std::vector<double> X(5000), DX(5000);
  for (int I = 0; I < 5000; ++I)
    X[I] = 0.1 + 0.8 * I / 5000.0;
  auto &St = grad::detail::thread_stack();
  recur_pullback(X.data(), 5000, 1.0, DX.data());
  long NewsAfterFirst = News;
  std::size_t GrowthsAfterFirst = St.allocations();
  recur_pullback(X.data(), 5000, 1.0, DX.data());
  double D = 0;
  chain_pullback(0.3, 200, 1.0, &D);
  long NewsChain = News;
  std::size_t GrowthsChain = St.allocations();
  chain_pullback(0.3, 200, 1.0, &D);
  // CHECK: ok recur.new
  gradcheck::expect("recur.new", News - NewsAfterFirst - (NewsChain - NewsAfterFirst), 0);
  // CHECK: ok recur.growth
  gradcheck::expect("recur.growth", double(GrowthsChain - GrowthsAfterFirst), 0);
  // CHECK: ok chain.new
  gradcheck::expect("chain.new", double(News - NewsChain), 0);
  // CHECK: ok chain.growth
  gradcheck::expect("chain.growth", double(St.allocations() - GrowthsChain), 0);
  // CHECK: ok empty
  gradcheck::expect("empty", double(St.size()), 0);
  // The values are right, too.
  double Y[3] = {0.4, 0.7, 1.3}, DY[3] = {0, 0, 0};
  recur_pullback(Y, 3, 1.0, DY);
  // CHECK: ok recur.d0
  gradcheck::expect("recur.d0", DY[0],
                    gradcheck::fd([](double a) {
                      double Z[3] = {a, 0.7, 1.3};
                      return recur(Z, 3);
                    }, 0, 0.4));
  return gradcheck::failures();
}
