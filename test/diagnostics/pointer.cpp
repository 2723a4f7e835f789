// A call that writes differentiated memory through a pointer or reference,
// to a function without a body, is an error at the call: its derivative is
// built from its body. Never a derivative that leaves the write out.
// Reading through a pointer to constant data is fine.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

const double *table;
void store(double *out, double v);
void fill(double &out);

[[grad]] double deref(double x) {
  return x * *table;
}

// CHECK: pointer.cpp:[[@LINE+8]]:3: error: grad: cannot differentiate call to 'store' in 'addr': it has no visible body, no derivative rule and no user pullback
// CHECK: pointer.cpp:8:6: note: 'store' writes through its parameters: its derivative is built from its body, which must be visible in this translation unit
// CHECK: pointer.cpp:[[@LINE+4]]:3: note: while differentiating 'addr' requested here
// CHECK: pointer.cpp:[[@LINE+11]]:11: error: grad: cannot differentiate call to 'fill' in 'byref': it has no visible body, no derivative rule and no user pullback
// CHECK: pointer.cpp:9:6: note: 'fill' writes through its parameters
// CHECK: pointer.cpp:[[@LINE+7]]:3: note: while differentiating 'byref' requested here
[[grad]] double addr(double x) {
  double y = x * x;
  store(&y, x);
  return y;
}

[[grad]] double byref(double x) {
  double z = x;
  return (fill(z), z) * x;
}
