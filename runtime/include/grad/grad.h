//===- grad.h - The clang-grad runtime --------------------------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The umbrella header of the header-only runtime (C++20, namespace `grad`):
///
///   core.h    the per-thread stack generated code uses (the plugin includes
///             it by itself), with sincos.h (sin and cos from one call)
///   rules.h   the derivative rules of rules.def as functions (grad::rules)
///   dual.h    dual<T, N> forward-mode numbers and the <cmath> overloads
///   tape.h    tape<T>, the LIFO store of a pullback's reverse sweep
///   tensor.h  tensor<T>, zeros_like, shape_to_string
///   ops.h     map, broadcast, unbroadcast, sum, dot and pullbacks
///   matmul.h  BLAS matmul and matmul_pullback (link with -lopenblas)
///   jacobian.h  dense Hessians from HVPs, Jacobians from pushforwards or
///             pullbacks
///   ide.h     GRAD_IDE_MEMBERS(Class), generated members for editors
///             (through core.h)
///
/// Not included here (it pulls in <iostream>): check.h, grad::check, which
/// compares a pullback or pushforward with finite differences and prints
/// a row per input component (#include <grad/check.h>).
///
/// Inside a `[[grad]]` function all of these are differentiable primitives.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_GRAD_H
#define GRAD_GRAD_H

#if __cplusplus < 202002L
#error "clang-grad's runtime needs C++20: compile with -std=c++20 (or later)"
#else

#include "core.h"
#include "dual.h"
#include "jacobian.h"
#include "lowering.h"
#include "matmul.h"
#include "ops.h"
#include "rules.h"
#include "tape.h"
#include "tensor.h"

#endif // C++20
#endif // GRAD_GRAD_H
