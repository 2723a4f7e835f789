// An unknown -fplugin-arg-grad-ARG is an error that lists the known ones.
// RUN: not %gradxx -fsyntax-only -fplugin-arg-grad-bogus %s 2>&1 | %FileCheck-strict %s

// CHECK: {{^}}error: grad: unknown plugin argument 'bogus' (known: dump, remarks, verify, no-promotion-warnings, print-activity, no-runtime-include, no-recompute, recompute-always, no-reread-halves, no-sincos, no-hoist-sums, no-trim-frames, no-loop-invariants, no-inline-halves)
[[grad]] double f(double x) { return x * x; }
