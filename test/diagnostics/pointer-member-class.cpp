// A class that keeps its numbers behind a raw pointer member (`double *d`,
// filled with new[] in its constructor): writes through what its
// operator() returns are errors that name the call as written and point to
// the supported form (a std::vector member, classes/owners.cpp); every
// such write is reported in one compile.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

struct Mat {
  int r, c;
  double *d;
  Mat(int r_, int c_) : r(r_), c(c_), d(new double[r_ * c_]()) {}
  ~Mat() { delete[] d; }
  double &operator()(int i, int j) { return d[i * c + j]; }
};

// CHECK: pointer-member-class.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate assignment to 'M(0, 0)', a call of 'operator()' (its class 'Mat' keeps its numbers behind the pointer member 'd': a std::vector member is supported) in 'det'
// CHECK: pointer-member-class.cpp:[[@LINE+4]]:19: error: grad: cannot differentiate assignment to 'M(1, 1)', a call of 'operator()' (its class 'Mat' keeps its numbers behind the pointer member 'd': a std::vector member is supported) in 'det'
// CHECK: pointer-member-class.cpp:[[@LINE+1]]:3: note: while differentiating 'det' requested here
[[grad]] double det(const double *x) {
  Mat M(2, 2);
  M(0, 0) = x[0]; M(1, 1) = x[3];
  return M(0, 0) * M(1, 1);
}
