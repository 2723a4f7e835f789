//===- NodePolicy.h - What the builders do with each AST node ---*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The registry of NodePolicy.def: for each of Clang's statement and
/// expression classes, whether the builders model it, whether it carries
/// its operands' derivatives, carries none, or is refused. A class without
/// an entry (a newer Clang) is Unregistered and treated as Refused.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_NODEPOLICY_H
#define CLANG_GRAD_NODEPOLICY_H

#include "clang/AST/Stmt.h"

namespace grad {

enum class NodePolicy { Unregistered, Modeled, Operands, Inert, Refused, Foreign };

/// The policy of statement class \p C.
NodePolicy nodePolicy(clang::Stmt::StmtClass C);
/// How the user wrote a construct of class \p C, for errors (may be empty).
const char *nodeName(clang::Stmt::StmtClass C);
/// The classes of call expressions analysis/CallShapes.cpp callShape tells
/// apart; node_policy_test fails if the Clang it is built against has
/// another one.
inline constexpr clang::Stmt::StmtClass CallClasses[] = {
    clang::Stmt::CallExprClass, clang::Stmt::CXXMemberCallExprClass,
    clang::Stmt::CXXOperatorCallExprClass, clang::Stmt::CUDAKernelCallExprClass,
    clang::Stmt::UserDefinedLiteralClass};

/// Refused, Foreign or Unregistered: never differentiated.
inline bool nodeRefused(clang::Stmt::StmtClass C) {
  NodePolicy P = nodePolicy(C);
  return P == NodePolicy::Refused || P == NodePolicy::Foreign ||
         P == NodePolicy::Unregistered;
}

} // namespace grad

#endif
