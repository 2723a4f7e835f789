// An instantiation of a [[grad]] template whose types have no derivative
// is an error at the point of use, naming the instantiation and why; the
// other instantiations are unaffected.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

template <class T> [[grad]] T twice(T x) { return 2 * x; }
template <class T, class I> [[grad]] T scaled(T x, I k) { return k * x; }

void use() {
  double d = 0;
  twice_pullback(1.5, 1.0, &d);
  int di = 0;
  // CHECK: template-instantiation.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate 'twice<int>', an instantiation of the {{\[\[}}grad]] template 'twice': return type 'int' is not differentiable
  // CHECK: template-instantiation.cpp:6:22: note: while differentiating 'twice' requested here
  twice_pullback(3, 1, &di);
  double dx = 0;
  int dk = 0;
  // CHECK: template-instantiation.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate 'scaled<double, int>', an instantiation of the {{\[\[}}grad]] template 'scaled': parameter 'k' has type 'int', which has no derivative (mark it {{\[\[}}grad::nodiff]])
  // CHECK: template-instantiation.cpp:7:31: note: while differentiating 'scaled' requested here
  scaled_pullback(2.0, 3, 1.0, &dx, &dk);
}
