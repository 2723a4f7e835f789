// [[grad::nodiff]] applies to functions and parameters only.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-nodiff-target.cpp:[[@LINE+1]]:3: error: grad: 'grad::nodiff' attribute only applies to functions and parameters
[[grad::nodiff]] double seed = 42;
