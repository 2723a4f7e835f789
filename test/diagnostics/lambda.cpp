// A lambda expression outside grad::map / grad::broadcast is an error that
// names the lambda, at the lambda, whether it is stored or called at once.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: lambda.cpp:[[@LINE+3]]:13: error: grad: cannot differentiate call of a lambda expression (pass it to grad::map or grad::broadcast) in 'stored'
// CHECK: lambda.cpp:[[@LINE+1]]:3: note: while differentiating 'stored' requested here
[[grad]] double stored(double x) {
  auto sq = [](double y) { return y * y; };
  return sq(x);
}

// CHECK: lambda.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call of a lambda expression (pass it to grad::map or grad::broadcast) in 'immediate'
// CHECK: lambda.cpp:[[@LINE+1]]:3: note: while differentiating 'immediate' requested here
[[grad]] double immediate(double x) {
  return [](double y) { return y * y; }(x);
}
