// A call that writes differentiated memory through a pointer, to a function
// without a body (no derivative can be built), is an error at the call that
// names the argument as written: never a derivative that leaves it out.
// Reading through a pointer to constant data is fine.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

const double *table;
void store(double *out, double v);
void fill(double &out);

[[grad]] double deref(double x) {
  return x * *table;
}

// CHECK: pointer.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate call to 'store' that writes differentiated memory through '&y' in 'addr'
// CHECK: pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'addr' requested here
[[grad]] double addr(double x) {
  double y = x * x;
  store(&y, x);
  return y;
}

// CHECK: pointer.cpp:[[@LINE+4]]:11: error: grad: cannot differentiate call to 'fill' that writes differentiated memory through 'z' in 'byref'
// CHECK: pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'byref' requested here
[[grad]] double byref(double x) {
  double z = x;
  return (fill(z), z) * x;
}
