//===- matmul.cpp - BLAS matmul and a two-layer network -------------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Issue 5. (1) `sum(matmul(A, B))` at 1024 x 1024, float and double: the
/// plugin's pullback (forward product plus both pullback products) against
/// the same three products as direct cblas_{s,d}gemm calls (mm_*/hand).
/// (2) A two-layer network Dense(1280 -> 64, leaky relu) -> Dense(64 -> 1)
/// with a squared-error loss on a 1280 x 1000 float batch (one sample per
/// column), gradient w.r.t. W1, b1, W2, b2: net_float has an all-float
/// activation (`0.01f * u`), net_mixed the same activation with a double
/// literal (`0.01 * u`), which makes the hidden layer double.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <grad/grad.h>

#include <vector>

using grad::tensor;

// Two functions, not one template: [[grad]] templates are issue 6.
[[grad]] float matmulSumF(const tensor<float> &A, const tensor<float> &B) {
  return grad::sum(grad::matmul(A, B));
}
[[grad]] double matmulSumD(const tensor<double> &A, const tensor<double> &B) {
  return grad::sum(grad::matmul(A, B));
}

namespace {
float matmulSum(const tensor<float> &A, const tensor<float> &B) {
  return matmulSumF(A, B);
}
double matmulSum(const tensor<double> &A, const tensor<double> &B) {
  return matmulSumD(A, B);
}
void matmulSumPullback(const tensor<float> &A, const tensor<float> &B, float D,
                       tensor<float> *DA, tensor<float> *DB) {
  matmulSumF_pullback(A, B, D, DA, DB);
}
void matmulSumPullback(const tensor<double> &A, const tensor<double> &B,
                       double D, tensor<double> *DA, tensor<double> *DB) {
  matmulSumD_pullback(A, B, D, DA, DB);
}
} // namespace

[[grad("W1, b1, W2, b2")]] float
netFloat(const tensor<float> &X, const tensor<float> &Y,
         const tensor<float> &W1, const tensor<float> &b1,
         const tensor<float> &W2, const tensor<float> &b2) {
  auto H = grad::broadcast(
      [](float z, float b) {
        float u = z + b;
        return u > 0 ? u : 0.01f * u;
      },
      grad::matmul(W1, X), b1);
  auto E = grad::broadcast(
      [](float o, float b, float t) {
        float e = o + b - t;
        return e * e;
      },
      grad::matmul(W2, H), b2, Y);
  return grad::sum(E);
}

// The loss lambda takes doubles: with float parameters next to the double
// output of the second layer, the forward lowering does not compile (see
// docs/performance.md, "Plugin problems found").
[[grad("W1, b1, W2, b2")]] double
netMixed(const tensor<float> &X, const tensor<float> &Y,
         const tensor<float> &W1, const tensor<float> &b1,
         const tensor<float> &W2, const tensor<float> &b2) {
  auto H = grad::broadcast(
      [](float z, float b) {
        float u = z + b;
        return u > 0 ? u : 0.01 * u;
      },
      grad::matmul(W1, X), b1);
  auto E = grad::broadcast(
      [](double o, double b, double t) {
        double e = o + b - t;
        return e * e;
      },
      grad::matmul(W2, H), b2, Y);
  return grad::sum(E);
}

namespace {
constexpr std::size_t NM = 1024, In = 1280, Hid = 64, Batch = 1000;

template <class T>
tensor<T> sampled(std::vector<std::size_t> Shape, unsigned Seed,
                  double Scale = 1.0) {
  const std::size_t Size = grad::shape_size(Shape);
  std::vector<double> V = bench::sample(Size, Seed, -Scale, Scale);
  return tensor<T>(std::move(Shape), std::vector<T>(V.begin(), V.end()));
}

template <class T> struct MatInputs {
  tensor<T> A = sampled<T>({NM, NM}, 31), B = sampled<T>({NM, NM}, 32);
};
template <class T> MatInputs<T> &matIn() {
  static MatInputs<T> I;
  return I;
}

struct NetInputs {
  tensor<float> X = sampled<float>({In, Batch}, 41),
                Y = sampled<float>({1, Batch}, 42),
                W1 = sampled<float>({Hid, In}, 43, 0.05),
                b1 = sampled<float>({Hid, 1}, 44, 0.1),
                W2 = sampled<float>({1, Hid}, 45, 0.2),
                b2 = sampled<float>({1, 1}, 46, 0.1);
};
NetInputs &netIn() {
  static NetInputs I;
  return I;
}

/// The three products of `sum(matmul(A, B))` and its pullback, straight
/// from CBLAS: C = A B, dA += 1 B^T, dB += A^T 1.
void gemm3(const float *A, const float *B, float *C, const float *Ones,
           float *DA, float *DB, int N) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1, A, N, B, N,
              0, C, N);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, N, N, N, 1, Ones, N, B,
              N, 1, DA, N);
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, N, N, N, 1, A, N, Ones,
              N, 1, DB, N);
}
void gemm3(const double *A, const double *B, double *C, const double *Ones,
           double *DA, double *DB, int N) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1, A, N, B, N,
              0, C, N);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, N, N, N, 1, Ones, N, B,
              N, 1, DA, N);
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, N, N, N, 1, A, N, Ones,
              N, 1, DB, N);
}

template <class T> void checkMatmul(const char *Name) {
  // Small sizes against finite differences, then the 1024 case against the
  // direct CBLAS calls.
  tensor<T> A = sampled<T>({5, 7}, 1), B = sampled<T>({7, 3}, 2);
  tensor<T> DA({5, 7}), DB({7, 3});
  matmulSumPullback(A, B, T(1), &DA, &DB);
  std::vector<double> P(A.begin(), A.end()), G(DA.begin(), DA.end());
  P.insert(P.end(), B.begin(), B.end());
  G.insert(G.end(), DB.begin(), DB.end());
  auto F = [&] {
    tensor<T> PA({5, 7}, std::vector<T>(P.begin(), P.begin() + 35));
    tensor<T> PB({7, 3}, std::vector<T>(P.begin() + 35, P.end()));
    return double(matmulSum(PA, PB));
  };
  const double Tol = sizeof(T) == 4 ? 2e-2 : 1e-6;
  bench::expectGradient(Name, F, P, G, Tol, 64, sizeof(T) == 4 ? 1e-2 : 1e-3);

  auto &I = matIn<T>();
  tensor<T> GA({NM, NM}), GB({NM, NM}), HA({NM, NM}), HB({NM, NM}), C({NM, NM}),
      Ones({NM, NM}, T(1));
  matmulSumPullback(I.A, I.B, T(1), &GA, &GB);
  gemm3(I.A.data(), I.B.data(), C.data(), Ones.data(), HA.data(), HB.data(),
        NM);
  bench::expectSame(Name, GA, HA, sizeof(T) == 4 ? 1e-4 : 1e-10);
  bench::expectSame(Name, GB, HB, sizeof(T) == 4 ? 1e-4 : 1e-10);
}

template <class R>
using NetFn = R (*)(const tensor<float> &, const tensor<float> &,
                    const tensor<float> &, const tensor<float> &,
                    const tensor<float> &, const tensor<float> &);
template <class R>
using NetPb = void (*)(const tensor<float> &, const tensor<float> &,
                       const tensor<float> &, const tensor<float> &,
                       const tensor<float> &, const tensor<float> &, R,
                       tensor<float> *, tensor<float> *, tensor<float> *,
                       tensor<float> *);

/// The loss of the network in double, by plain loops, on the first B
/// columns of the batch; P holds W1, b1, W2, b2 in that order.
double netReference(const NetInputs &I, const std::vector<double> &P,
                    std::size_t B) {
  const double *W1 = P.data(), *b1 = W1 + Hid * In, *W2 = b1 + Hid,
               *b2 = W2 + Hid;
  double Loss = 0;
  for (std::size_t C = 0; C < B; ++C) {
    double O = b2[0];
    for (std::size_t H = 0; H < Hid; ++H) {
      double Z = b1[H];
      for (std::size_t K = 0; K < In; ++K)
        Z += W1[H * In + K] * I.X[K * Batch + C];
      O += W2[H] * (Z > 0 ? Z : 0.01 * Z);
    }
    const double E = O - I.Y[C];
    Loss += E * E;
  }
  return Loss;
}

/// The network's gradient against finite differences of netReference on a
/// 32-column slice of the batch; returns the gradient (W1, b1, W2, b2).
template <class R> std::vector<float> checkNet(const char *Name, NetPb<R> Pb) {
  NetInputs &I = netIn();
  const std::size_t B = 32;
  tensor<float> X({In, B}), Y({1, B});
  for (std::size_t Row = 0; Row < In; ++Row)
    for (std::size_t C = 0; C < B; ++C)
      X[Row * B + C] = I.X[Row * Batch + C];
  for (std::size_t C = 0; C < B; ++C)
    Y[C] = I.Y[C];
  tensor<float> D1(I.W1.shape()), Db1(I.b1.shape()), D2(I.W2.shape()),
      Db2(I.b2.shape());
  Pb(X, Y, I.W1, I.b1, I.W2, I.b2, R(1), &D1, &Db1, &D2, &Db2);
  std::vector<float> G(D1.begin(), D1.end());
  G.insert(G.end(), Db1.begin(), Db1.end());
  G.insert(G.end(), D2.begin(), D2.end());
  G.insert(G.end(), Db2.begin(), Db2.end());
  std::vector<double> P(I.W1.begin(), I.W1.end());
  P.insert(P.end(), I.b1.begin(), I.b1.end());
  P.insert(P.end(), I.W2.begin(), I.W2.end());
  P.insert(P.end(), I.b2.begin(), I.b2.end());
  bench::expectGradient(
      Name, [&] { return netReference(I, P, B); }, P, G, 1e-3, 40, 1e-4);
  return G;
}

void checkAll() {
  checkMatmul<float>("mm_f32");
  checkMatmul<double>("mm_f64");
  const auto F = checkNet<float>("net_float", netFloat_pullback);
  const auto M = checkNet<double>("net_mixed", netMixed_pullback);
  bench::expectSame("net_mixed vs net_float", M, F, 1e-3);
}

template <class T> void mmPrimal(benchmark::State &S) {
  auto &I = matIn<T>();
  for (auto _ : S)
    benchmark::DoNotOptimize(matmulSum(I.A, I.B));
}
template <class T> void mmGrad(benchmark::State &S) {
  auto &I = matIn<T>();
  tensor<T> GA({NM, NM}), GB({NM, NM});
  for (auto _ : S) {
    matmulSumPullback(I.A, I.B, T(1), &GA, &GB);
    benchmark::ClobberMemory();
  }
}
template <class T> void mmBlas(benchmark::State &S) {
  auto &I = matIn<T>();
  tensor<T> GA({NM, NM}), GB({NM, NM}), C({NM, NM}), Ones({NM, NM});
  for (auto _ : S) {
    std::fill(Ones.begin(), Ones.end(), T(1)); // the seed sum's pullback makes
    gemm3(I.A.data(), I.B.data(), C.data(), Ones.data(), GA.data(), GB.data(),
          NM);
    benchmark::ClobberMemory();
  }
}

template <class R, NetFn<R> F> void netPrimal(benchmark::State &S) {
  NetInputs &I = netIn();
  for (auto _ : S)
    benchmark::DoNotOptimize(F(I.X, I.Y, I.W1, I.b1, I.W2, I.b2));
}
template <class R, NetPb<R> Pb> void netGrad(benchmark::State &S) {
  NetInputs &I = netIn();
  tensor<float> D1(I.W1.shape()), Db1(I.b1.shape()), D2(I.W2.shape()),
      Db2(I.b2.shape());
  for (auto _ : S) {
    Pb(I.X, I.Y, I.W1, I.b1, I.W2, I.b2, R(1), &D1, &Db1, &D2, &Db2);
    benchmark::ClobberMemory();
  }
}
} // namespace

int main(int argc, char **argv) {
  checkAll();
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("mm_f32/primal", mmPrimal<float>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("mm_f32/grad", mmGrad<float>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("mm_f32/hand", mmBlas<float>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("mm_f64/primal", mmPrimal<double>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("mm_f64/grad", mmGrad<double>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("mm_f64/hand", mmBlas<double>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("net_float/primal", netPrimal<float, netFloat>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("net_float/grad", netGrad<float, netFloat_pullback>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("net_mixed/primal", netPrimal<double, netMixed>)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("net_mixed/grad", netGrad<double, netMixed_pullback>)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
