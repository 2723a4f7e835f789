// Operators named as written in errors: a [[grad]] operator with a result
// that is not differentiable.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
struct V { double a, b; };
// CHECK: operators.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'operator==': return type 'bool' is not differentiable
[[grad]] bool operator==(const V &p, const V &q) { return p.a == q.a; }
// CHECK: 1 error generated
