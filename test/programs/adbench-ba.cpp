// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// ADBench-style bundle-adjustment residual written the C way. Constructs:
// camera parameters addressed by offsets (`&cam[3]`, `&cam[9]`), Rodrigues
// rotation through helpers writing `double* out` (`cross(a, b, out)`), a
// branch on `sqtheta != 0` (both branches tested), radial distortion applied
// in place through `double* proj`, a weight read through `*w`, several void
// [[grad]] functions returning through `double* err`.
#include "fdcheck.h"

enum { ROT = 0, C_IDX = 3, F_IDX = 6, X0_IDX = 7, RAD = 9, NCAM = 11 };

static double sqsum(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}
static void rodrigues_rotate_point(const double *rot, const double *X,
                                   double *rX) {
  double sqtheta = sqsum(3, rot);
  if (sqtheta != 0) {
    double theta = std::sqrt(sqtheta), c = std::cos(theta), s = std::sin(theta);
    double w[3], wxX[3];
    for (int i = 0; i < 3; ++i)
      w[i] = rot[i] / theta;
    cross(w, X, wxX);
    double tmp = (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]) * (1 - c);
    for (int i = 0; i < 3; ++i)
      rX[i] = X[i] * c + wxX[i] * s + w[i] * tmp;
  } else {
    double rxX[3];
    cross(rot, X, rxX);
    for (int i = 0; i < 3; ++i)
      rX[i] = X[i] + rxX[i];
  }
}
static void radial_distort(const double *k, double *proj) {
  double rsq = sqsum(2, proj);
  double L = 1 + k[0] * rsq + k[1] * rsq * rsq;
  proj[0] *= L;
  proj[1] *= L;
}
static void project(const double *cam, const double *X, double *proj) {
  const double *C = &cam[C_IDX];
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; ++i)
    Xo[i] = X[i] - C[i];
  rodrigues_rotate_point(&cam[ROT], Xo, Xcam);
  proj[0] = Xcam[0] / Xcam[2];
  proj[1] = Xcam[1] / Xcam[2];
  radial_distort(&cam[RAD], proj);
  proj[0] = proj[0] * cam[F_IDX] + cam[X0_IDX];
  proj[1] = proj[1] * cam[F_IDX] + cam[X0_IDX + 1];
}

[[grad]] void compute_reproj_error(const double *cam, const double *X,
                                   const double *w, const double *feat,
                                   double *err) {
  double proj[2];
  project(cam, X, proj);
  err[0] = (*w) * (proj[0] - feat[0]);
  err[1] = (*w) * (proj[1] - feat[1]);
}

[[grad]] void compute_zach_weight_error(const double *w, double *err) {
  *err = 1 - (*w) * (*w);
}

static void test_reproj(const char *nm, const double *cam0) {
  double X0[3] = {0.3, -0.5, 4.0}, w0 = 0.9, feat0[2] = {0.25, -0.4};
  double err0[2] = {3, 3}, serr[2] = {1.1, -0.6};
  fdc::Vars at;
  at.add("cam", cam0, NCAM).add("X", X0, 3).add("w", w0).add("feat", feat0, 2);
  at.add("err", err0, 2);
  fdc::Loss L = [&](fdc::Reader &r) {
    double cam[NCAM], X[3], w, feat[2], err[2];
    r.get(cam, NCAM), r.get(X, 3), w = r.get(), r.get(feat, 2), r.get(err, 2);
    compute_reproj_error(cam, X, &w, feat, err);
    return fdc::dot(serr, err, 2);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dcam[NCAM] = {}, dX[3] = {}, dw = 0, dfeat[2] = {};
  double err[2] = {3, 3}, ref[2] = {3, 3}, derr[2] = {serr[0], serr[1]};
  compute_reproj_error(cam0, X0, &w0, feat0, ref);
  compute_reproj_error_pullback(cam0, X0, &w0, feat0, err, dcam, dX, &dw,
                                dfeat, derr);
  fdc::same(nm, err, ref, 2);
  got.add(dcam, NCAM).add(dX, 3).add(dw).add(dfeat, 2).add(derr, 2);
#endif
  fdc::check(nm, at, L, got);
}

static void test_zach() {
  double w0 = 0.7, e0 = 2.0, se = -1.3;
  fdc::Vars at;
  at.add("w", w0).add("err", e0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double w = r.get(), e = r.get();
    compute_zach_weight_error(&w, &e);
    return se * e;
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double w = w0, e = e0, dw = 0, de = se;
  compute_zach_weight_error_pullback(&w, &e, &dw, &de);
  got.add(dw).add(de);
#endif
  fdc::check("zach_weight_error", at, L, got);
}

int main() {
  double cam[NCAM] = {0.1, -0.2, 0.15, 0.2, 0.1, -1.0, 1.5, 0.05, -0.02, 0.01, -0.003};
  test_reproj("reproj_error", cam);
  cam[0] = cam[1] = cam[2] = 0; // sqtheta == 0 branch
  test_reproj("reproj_error.norot", cam);
  test_zach();
  return fdc::finish();
}
