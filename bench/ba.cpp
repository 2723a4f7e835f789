//===- ba.cpp - Bundle-adjustment reprojection error (ADBench objective) --===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ADBench bundle-adjustment residuals written the C way ADBench's C++
/// writes them: small helpers taking pointers and writing through
/// out-parameters (rodrigues_rotate_point, radial_distort, cross, sqsum,
/// p2e), cameras of 11 parameters (rotation 3, centre 3, focal length 1,
/// principal point 2, radial distortion 2) addressed as &cam[9], and the
/// residuals written through `double *err`.
///
/// 10,000 observations (16 cameras, 1,000 points, fixed seed). Benchmarks:
///   ba/primal      computeReprojError for every observation;
///   ba/grad        the 2 x 15 Jacobian of every observation (cam, X, w),
///                  one pullback call per residual row, as ADBench's
///                  reverse-mode tools build it;
///   ba/hand        the same Jacobian in closed form (chain rule by hand);
///   ba_vjp/grad    one pullback call per observation seeding both residuals
///                  (a vector-Jacobian product);
///   ba_vjp/hand    the same product from the closed-form Jacobian.
///   ba_fwd/grad    the 2 x 15 Jacobian of every observation from one call
///                  of the vector pushforward (a lane per column:
///                  [[grad::forward("cam, X, w, err", "lanes=16")]], 16
///                  rather than 15 so that SSE2 handles lanes in pairs:
///                  4.3 ms against 4.7 ms).
/// ba_vjp/primal and ba_fwd/primal are the same primal as ba/primal, ba_fwd/
/// hand the same as ba/hand.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <vector>

constexpr int BA_NCAMPARAMS = 11;
constexpr int ROT_IDX = 0, C_IDX = 3, F_IDX = 6, X0_IDX = 7, RAD_IDX = 9;

double sqsum(int n, const double *const x) {
  double res = 0;
  for (int i = 0; i < n; i++)
    res = res + x[i] * x[i];
  return res;
}

void cross(const double *const a, const double *const b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

void rodrigues_rotate_point(const double *const rot, const double *const X,
                            double *rotatedX) {
  double sqtheta = sqsum(3, rot);
  if (sqtheta != 0) {
    double theta, costheta, sintheta, theta_inverse, w[3], w_cross_X[3], tmp;
    theta = std::sqrt(sqtheta);
    costheta = std::cos(theta);
    sintheta = std::sin(theta);
    theta_inverse = 1.0 / theta;
    for (int i = 0; i < 3; i++)
      w[i] = rot[i] * theta_inverse;
    cross(w, X, w_cross_X);
    tmp = (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]) * (1. - costheta);
    for (int i = 0; i < 3; i++)
      rotatedX[i] = X[i] * costheta + w_cross_X[i] * sintheta + w[i] * tmp;
  } else {
    double rot_cross_X[3];
    cross(rot, X, rot_cross_X);
    for (int i = 0; i < 3; i++)
      rotatedX[i] = X[i] + rot_cross_X[i];
  }
}

void radial_distort(const double *const rad_params, double *proj) {
  double rsq, L;
  rsq = sqsum(2, proj);
  L = 1. + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
  proj[0] = proj[0] * L;
  proj[1] = proj[1] * L;
}

/// Projective to Euclidean: (x, y, z) -> (x / z, y / z).
void p2e(const double *const X, double *x) {
  x[0] = X[0] / X[2];
  x[1] = X[1] / X[2];
}

void project(const double *const cam, const double *const X, double *proj) {
  const double *const C = &cam[C_IDX];
  double Xo[3], Xcam[3];
  Xo[0] = X[0] - C[0];
  Xo[1] = X[1] - C[1];
  Xo[2] = X[2] - C[2];
  rodrigues_rotate_point(&cam[ROT_IDX], Xo, Xcam);
  p2e(Xcam, proj);
  radial_distort(&cam[RAD_IDX], proj);
  proj[0] = proj[0] * cam[F_IDX] + cam[X0_IDX + 0];
  proj[1] = proj[1] * cam[F_IDX] + cam[X0_IDX + 1];
}

[[grad("lanes=2"), grad::forward("cam, X, w, err", "lanes=16")]] void
computeReprojError(const double *const cam, const double *const X,
                                 const double *const w,
                                 const double *const feat, double *err) {
  double proj[2];
  project(cam, X, proj);
  err[0] = (*w) * (proj[0] - feat[0]);
  err[1] = (*w) * (proj[1] - feat[1]);
}

[[grad]] void computeZachWeightError(const double *const w, double *err) {
  *err = 1 - (*w) * (*w);
}

/// Hand-written Jacobian of computeReprojError: err (2) and J (2 x 15,
/// row-major; columns cam[0..10], X[0..2], w). With Xo = X - C, Xc = R(rot)
/// Xo, p = Xc[0..1] / Xc[2], L = 1 + k0 |p|^2 + k1 |p|^4, proj = f L p + x0,
/// err = w (proj - feat):
///   d err / d p  = w f (L I + 2 (k0 + 2 k1 |p|^2) p p^T)
///   d p / d Xc   = [I / z | -p / z]
///   d Xc / d Xo  = R = cos I + sin [u]x + (1 - cos) u u^T   (u = rot / th)
///   d Xc / d rot = g u^T + (A - (A u) u^T) / th, with
///     g = d Xc / d th = -sin Xo + cos u x Xo + sin (u . Xo) u,
///     A = d Xc / d u  = -sin [Xo]x + (1 - cos)((u . Xo) I + u Xo^T);
/// at th = 0 (the first-order branch) R = I + [rot]x, d Xc / d rot = -[Xo]x.
static void reprojJacobianHand(const double *cam, const double *X,
                               const double *wp, const double *feat,
                               double *err, double *J) {
  const double *rot = &cam[ROT_IDX], *C = &cam[C_IDX], *x0 = &cam[X0_IDX],
               *k = &cam[RAD_IDX];
  const double f = cam[F_IDX], w = *wp;
  const double Xo[3] = {X[0] - C[0], X[1] - C[1], X[2] - C[2]};
  double Xc[3], R[3][3], Dr[3][3];
  const double th2 = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (th2 != 0) {
    const double th = std::sqrt(th2), c = std::cos(th), s = std::sin(th);
    const double u[3] = {rot[0] / th, rot[1] / th, rot[2] / th};
    const double ux[3] = {u[1] * Xo[2] - u[2] * Xo[1],
                          u[2] * Xo[0] - u[0] * Xo[2],
                          u[0] * Xo[1] - u[1] * Xo[0]};
    const double dot = u[0] * Xo[0] + u[1] * Xo[1] + u[2] * Xo[2];
    const double omc = 1 - c;
    // [u]x and [Xo]x as matrices.
    const double U[3][3] = {
        {0, -u[2], u[1]}, {u[2], 0, -u[0]}, {-u[1], u[0], 0}};
    const double XoX[3][3] = {
        {0, -Xo[2], Xo[1]}, {Xo[2], 0, -Xo[0]}, {-Xo[1], Xo[0], 0}};
    double g[3], Au[3], A[3][3];
    for (int i = 0; i < 3; ++i) {
      Xc[i] = Xo[i] * c + ux[i] * s + u[i] * dot * omc;
      g[i] = -s * Xo[i] + c * ux[i] + s * dot * u[i];
      Au[i] = s * ux[i] + 2 * omc * dot * u[i];
      for (int j = 0; j < 3; ++j) {
        R[i][j] = (i == j ? c : 0) + s * U[i][j] + omc * u[i] * u[j];
        A[i][j] = -s * XoX[i][j] + omc * ((i == j ? dot : 0) + u[i] * Xo[j]);
      }
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        Dr[i][j] = g[i] * u[j] + (A[i][j] - Au[i] * u[j]) / th;
  } else {
    const double Rx[3][3] = {
        {0, -rot[2], rot[1]}, {rot[2], 0, -rot[0]}, {-rot[1], rot[0], 0}};
    const double XoX[3][3] = {
        {0, -Xo[2], Xo[1]}, {Xo[2], 0, -Xo[0]}, {-Xo[1], Xo[0], 0}};
    for (int i = 0; i < 3; ++i) {
      Xc[i] = Xo[i] + Rx[i][0] * Xo[0] + Rx[i][1] * Xo[1] + Rx[i][2] * Xo[2];
      for (int j = 0; j < 3; ++j) {
        R[i][j] = (i == j ? 1 : 0) + Rx[i][j];
        Dr[i][j] = -XoX[i][j];
      }
    }
  }
  const double iz = 1 / Xc[2];
  const double p[2] = {Xc[0] * iz, Xc[1] * iz};
  const double rsq = p[0] * p[0] + p[1] * p[1];
  const double L = 1 + k[0] * rsq + k[1] * rsq * rsq;
  const double dd[2] = {p[0] * L, p[1] * L};
  const double proj[2] = {dd[0] * f + x0[0], dd[1] * f + x0[1]};
  err[0] = w * (proj[0] - feat[0]);
  err[1] = w * (proj[1] - feat[1]);
  // G = d err / d p, H = d err / d Xc.
  const double wf = w * f, a = 2 * (k[0] + 2 * k[1] * rsq);
  const double G[2][2] = {{wf * (L + a * p[0] * p[0]), wf * a * p[0] * p[1]},
                          {wf * a * p[1] * p[0], wf * (L + a * p[1] * p[1])}};
  for (int r = 0; r < 2; ++r) {
    double *Jr = J + 15 * r;
    const double H[3] = {G[r][0] * iz, G[r][1] * iz,
                         -(G[r][0] * p[0] + G[r][1] * p[1]) * iz};
    for (int j = 0; j < 3; ++j) {
      const double HR = H[0] * R[0][j] + H[1] * R[1][j] + H[2] * R[2][j];
      Jr[ROT_IDX + j] = H[0] * Dr[0][j] + H[1] * Dr[1][j] + H[2] * Dr[2][j];
      Jr[C_IDX + j] = -HR;
      Jr[11 + j] = HR;
    }
    Jr[F_IDX] = w * dd[r];
    Jr[X0_IDX + 0] = r == 0 ? w : 0;
    Jr[X0_IDX + 1] = r == 1 ? w : 0;
    Jr[RAD_IDX + 0] = wf * p[r] * rsq;
    Jr[RAD_IDX + 1] = wf * p[r] * rsq * rsq;
    Jr[14] = proj[r] - feat[r];
  }
}

namespace {
constexpr int NCams = 16, NPts = 1000, NObs = 10000;

struct Inputs {
  std::vector<double> Cams, Pts, W, Feats;
  std::vector<int> ObsCam, ObsPt;
  Inputs() {
    // Rotations up to ~0.5 rad, centres near the origin, points 5-10 in
    // front of the cameras: every Xcam[2] stays well away from 0.
    const auto Rot = bench::sample(3 * NCams, 21, -0.3, 0.3),
               Cen = bench::sample(3 * NCams, 22, -0.5, 0.5),
               F = bench::sample(NCams, 23, 0.8, 1.2),
               X0 = bench::sample(2 * NCams, 24, -0.05, 0.05),
               Rad = bench::sample(2 * NCams, 25, -0.1, 0.1),
               Pxy = bench::sample(2 * NPts, 26, -1, 1),
               Pz = bench::sample(NPts, 27, 5, 10),
               Idx = bench::sample(2 * NObs, 28, 0, 1);
    Cams.resize(BA_NCAMPARAMS * NCams);
    for (int c = 0; c < NCams; ++c) {
      double *Cam = &Cams[BA_NCAMPARAMS * c];
      for (int i = 0; i < 3; ++i) {
        Cam[ROT_IDX + i] = Rot[3 * c + i];
        Cam[C_IDX + i] = Cen[3 * c + i];
      }
      Cam[F_IDX] = F[c];
      Cam[X0_IDX] = X0[2 * c];
      Cam[X0_IDX + 1] = X0[2 * c + 1];
      Cam[RAD_IDX] = Rad[2 * c];
      Cam[RAD_IDX + 1] = Rad[2 * c + 1];
    }
    // Camera 0 has no rotation: the first-order branch of
    // rodrigues_rotate_point.
    for (int i = 0; i < 3; ++i)
      Cams[ROT_IDX + i] = 0;
    Pts.resize(3 * NPts);
    for (int p = 0; p < NPts; ++p) {
      Pts[3 * p] = Pxy[2 * p];
      Pts[3 * p + 1] = Pxy[2 * p + 1];
      Pts[3 * p + 2] = Pz[p];
    }
    W = bench::sample(NObs, 29, 0.5, 1.5);
    ObsCam.resize(NObs);
    ObsPt.resize(NObs);
    Feats.resize(2 * NObs);
    const auto Noise = bench::sample(2 * NObs, 30, -0.01, 0.01);
    for (int o = 0; o < NObs; ++o) {
      ObsCam[o] = std::min(NCams - 1, int(Idx[2 * o] * NCams));
      ObsPt[o] = std::min(NPts - 1, int(Idx[2 * o + 1] * NPts));
      // A feature near the projection, so the residuals are small as in a
      // real problem.
      double Proj[2];
      project(&Cams[BA_NCAMPARAMS * ObsCam[o]], &Pts[3 * ObsPt[o]], Proj);
      Feats[2 * o] = Proj[0] + Noise[2 * o];
      Feats[2 * o + 1] = Proj[1] + Noise[2 * o + 1];
    }
  }
  const double *cam(int O) const { return &Cams[BA_NCAMPARAMS * ObsCam[O]]; }
  const double *pt(int O) const { return &Pts[3 * ObsPt[O]]; }
};
Inputs &in() {
  static Inputs I;
  return I;
}

/// Row R (15 entries: cam, X, w) of one observation's Jacobian from one
/// pullback call seeded with e_R; DFeat gets d err[R] / d feat.
void pullbackRow(const double *Cam, const double *X, const double *W,
                 const double *Feat, int R, double *Row, double *DFeat) {
  double Err[2], DErr[2] = {R == 0 ? 1.0 : 0.0, R == 1 ? 1.0 : 0.0};
  std::memset(Row, 0, 15 * sizeof(double));
  computeReprojError_pullback(Cam, X, W, Feat, Err, Row, Row + 11, Row + 14,
                              DFeat, DErr);
}

/// The unit seeds of the 15 columns (cam, X, w), one lane each (lane 15
/// unused).
struct Seeds {
  grad::lanes<double, 16> Cam[11], X[3], W;
  Seeds() : Cam(), X(), W() {
    for (int C = 0; C < 11; ++C)
      Cam[C].der[C] = 1;
    for (int C = 0; C < 3; ++C)
      X[C].der[11 + C] = 1;
    W.der[14] = 1;
  }
};
const Seeds &seeds() {
  static const Seeds S;
  return S;
}

/// One observation's 2 x 15 Jacobian (row-major) from one vector
/// pushforward.
void jacobianLanes(const double *Cam, const double *X, const double *W,
                   const double *Feat, double *Err, double *J) {
  const Seeds &Sd = seeds();
  grad::lanes<double, 16> TErr[2];
  computeReprojError_pushforward(Cam, X, W, Feat, Err, Sd.Cam, Sd.X, &Sd.W,
                                 TErr);
  for (int R = 0; R < 2; ++R)
    for (int C = 0; C < 15; ++C)
      J[15 * R + C] = TErr[R].der[C];
}

/// One observation's 2 x 15 Jacobian (row-major) from one call of the
/// vector pullback (lane R seeds residual R: both rows in one reverse
/// sweep); DFeat gets the 2 x 2 block of feat (row-major).
void jacobianRows(const double *Cam, const double *X, const double *W,
                  const double *Feat, double *Err, double *J, double *DFeat) {
  grad::lanes<double, 2> D[15] = {}, DF[2] = {},
                         DErr[2] = {{{1, 0}}, {{0, 1}}};
  computeReprojError_pullback(Cam, X, W, Feat, Err, D, D + 11, D + 14, DF,
                              DErr);
  for (int R = 0; R < 2; ++R) {
    for (int C = 0; C < 15; ++C)
      J[15 * R + C] = D[C].der[R];
    DFeat[2 * R] = DF[0].der[R];
    DFeat[2 * R + 1] = DF[1].der[R];
  }
}

void checkAll() {
  Inputs &I = in();
  // Observations of camera 0 (no rotation) and of rotated cameras.
  std::vector<int> Obs;
  for (int O = 0; O < NObs && Obs.size() < 40; ++O)
    if ((I.ObsCam[O] == 0) == (Obs.size() % 8 == 0))
      Obs.push_back(O);
  for (int O : Obs) {
    // P = cam (11), X (3), w (1), feat (2).
    std::vector<double> P(I.cam(O), I.cam(O) + 11);
    P.insert(P.end(), I.pt(O), I.pt(O) + 3);
    P.push_back(I.W[O]);
    P.push_back(I.Feats[2 * O]);
    P.push_back(I.Feats[2 * O + 1]);
    double HandErr[2], HandJ[30], Err[2];
    reprojJacobianHand(&P[0], &P[11], &P[14], &P[15], HandErr, HandJ);
    computeReprojError(&P[0], &P[11], &P[14], &P[15], Err);
    bench::expectSame("ba hand value",
                      std::vector<double>(HandErr, HandErr + 2),
                      std::vector<double>(Err, Err + 2), 1e-12);
    for (int R = 0; R < 2; ++R) {
      auto Fn = [&] {
        double E[2];
        computeReprojError(&P[0], &P[11], &P[14], &P[15], E);
        return E[R];
      };
      // Hand Jacobian row plus d err[R] / d feat = -w e_R.
      std::vector<double> Hand(HandJ + 15 * R, HandJ + 15 * R + 15);
      Hand.push_back(R == 0 ? -P[14] : 0);
      Hand.push_back(R == 1 ? -P[14] : 0);
      bench::expectGradient("ba/hand", Fn, P, Hand, 1e-6, 17, 1e-4);
      std::vector<double> Pb(17, 0.0);
      pullbackRow(&P[0], &P[11], &P[14], &P[15], R, Pb.data(), &Pb[15]);
      bench::expectGradient("ba/grad", Fn, P, Pb, 1e-6, 17, 1e-4);
      bench::expectSame("ba/grad vs ba/hand", Pb, Hand, 1e-10);
    }
    double RowsErr[2], RowsJ[30], RowsFeat[4];
    jacobianRows(&P[0], &P[11], &P[14], &P[15], RowsErr, RowsJ, RowsFeat);
    bench::expectSame("ba_rows/grad vs ba/hand",
                      std::vector<double>(RowsJ, RowsJ + 30),
                      std::vector<double>(HandJ, HandJ + 30), 1e-10);
    bench::expectSame("ba_rows d feat", std::vector<double>(RowsFeat, RowsFeat + 4),
                      std::vector<double>{-P[14], 0, 0, -P[14]}, 1e-15);
    bench::expectSame("ba_rows value", std::vector<double>(RowsErr, RowsErr + 2),
                      std::vector<double>(Err, Err + 2), 0);
    double LanesErr[2], LanesJ[30];
    jacobianLanes(&P[0], &P[11], &P[14], &P[15], LanesErr, LanesJ);
    bench::expectSame("ba_fwd/grad vs ba/hand",
                      std::vector<double>(LanesJ, LanesJ + 30),
                      std::vector<double>(HandJ, HandJ + 30), 1e-10);
    bench::expectSame("ba_fwd value",
                      std::vector<double>(LanesErr, LanesErr + 2),
                      std::vector<double>(Err, Err + 2), 1e-15);
    // Both residuals seeded at once: v^T J, and the in/out adjoint of err
    // (its entry value is overwritten: 0 on return).
    const double V[2] = {0.7, -1.3};
    std::vector<double> Vjp(17, 0.0), Want(17, 0.0);
    double E[2], DErr[2] = {V[0], V[1]};
    computeReprojError_pullback(&P[0], &P[11], &P[14], &P[15], E, &Vjp[0],
                                &Vjp[11], &Vjp[14], &Vjp[15], DErr);
    for (int C = 0; C < 15; ++C)
      Want[C] = V[0] * HandJ[C] + V[1] * HandJ[15 + C];
    Want[15] = -V[0] * P[14];
    Want[16] = -V[1] * P[14];
    bench::expectSame("ba_vjp/grad vs hand", Vjp, Want, 1e-10);
    bench::expectSame("ba d_err on return", std::vector<double>(DErr, DErr + 2),
                      std::vector<double>{0, 0}, 0);
  }
  // computeZachWeightError: d (1 - w^2) / d w = -2 w.
  for (int O = 0; O < 8; ++O) {
    double W = I.W[O], Err, DW = 0, DErr = 1;
    computeZachWeightError_pullback(&W, &Err, &DW, &DErr);
    bench::expectSame("zach weight", std::vector<double>{Err, DW},
                      std::vector<double>{1 - W * W, -2 * W}, 1e-14);
  }
}

void primal(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> Err(2 * NObs);
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O)
      computeReprojError(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O],
                         &Err[2 * O]);
    benchmark::ClobberMemory();
  }
}

void jacobianGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> J(30 * NObs);
  double DFeat[2];
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O)
      for (int R = 0; R < 2; ++R)
        pullbackRow(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O], R,
                    &J[30 * O + 15 * R], DFeat);
    benchmark::ClobberMemory();
  }
}

void jacobianHand(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> Err(2 * NObs), J(30 * NObs);
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O)
      reprojJacobianHand(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O],
                         &Err[2 * O], &J[30 * O]);
    benchmark::ClobberMemory();
  }
}

void jacobianFwd(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> Err(2 * NObs), J(30 * NObs);
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O)
      jacobianLanes(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O], &Err[2 * O],
                    &J[30 * O]);
    benchmark::ClobberMemory();
  }
}

void jacobianVec(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> Err(2 * NObs), J(30 * NObs);
  double DFeat[4];
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O)
      jacobianRows(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O], &Err[2 * O],
                   &J[30 * O], DFeat);
    benchmark::ClobberMemory();
  }
}

// The vector-Jacobian products use the seed (1, 1) for every observation.
void vjpGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(15 * NObs);
  double Err[2], DFeat[2];
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O) {
      double *Row = &G[15 * O];
      double DErr[2] = {1, 1};
      std::memset(Row, 0, 15 * sizeof(double));
      computeReprojError_pullback(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O],
                                  Err, Row, Row + 11, Row + 14, DFeat, DErr);
    }
    benchmark::ClobberMemory();
  }
}

void vjpHand(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(15 * NObs);
  double Err[2], J[30];
  for (auto _ : S) {
    for (int O = 0; O < NObs; ++O) {
      reprojJacobianHand(I.cam(O), I.pt(O), &I.W[O], &I.Feats[2 * O], Err, J);
      for (int C = 0; C < 15; ++C)
        G[15 * O + C] = J[C] + J[15 + C];
    }
    benchmark::ClobberMemory();
  }
}
} // namespace

int main(int argc, char **argv) {
  checkAll();
  benchmark::RegisterBenchmark("ba/primal", primal);
  benchmark::RegisterBenchmark("ba/grad", jacobianGrad);
  benchmark::RegisterBenchmark("ba/hand", jacobianHand);
  benchmark::RegisterBenchmark("ba_rows/primal", primal);
  benchmark::RegisterBenchmark("ba_rows/grad", jacobianVec);
  benchmark::RegisterBenchmark("ba_rows/hand", jacobianHand);
  benchmark::RegisterBenchmark("ba_vjp/primal", primal);
  benchmark::RegisterBenchmark("ba_vjp/grad", vjpGrad);
  benchmark::RegisterBenchmark("ba_vjp/hand", vjpHand);
  benchmark::RegisterBenchmark("ba_fwd/primal", primal);
  benchmark::RegisterBenchmark("ba_fwd/grad", jacobianFwd);
  benchmark::RegisterBenchmark("ba_fwd/hand", jacobianHand);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
