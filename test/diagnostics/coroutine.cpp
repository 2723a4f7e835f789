// A coroutine cannot be differentiated: an error naming it, at its body.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <coroutine>

struct Task {
  double Value = 0; // floating data: the return type passes the ABI check
  struct promise_type {
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_value(double) {}
    void unhandled_exception() {}
  };
};

// CHECK: coroutine.cpp:[[@LINE+2]]:28: error: grad: cannot differentiate coroutine in 'co'
// CHECK: coroutine.cpp:[[@LINE+1]]:3: note: while differentiating 'co' requested here
[[grad]] Task co(double x) { co_return x * x; }
