//===- CallShapes.h - Every way a call is written ---------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The registry of call shapes (CallShapes.def): each call of a body is
/// classified as exactly one shape, with the policy the builders follow for
/// it. A call the classification does not recognise is Unknown, which is
/// refused: no call shape reaches a builder's default.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_CALLSHAPES_H
#define CLANG_GRAD_CALLSHAPES_H

#include "clang/AST/Expr.h"

#include <string>

namespace grad {

enum class CallShape {
#define GRAD_CALL_SHAPE(Name, Policy, Example) Name,
#include "analysis/CallShapes.def"
};

enum class CallPolicy { Modeled, Guarded, Refused };

/// The shape of \p CE.
CallShape callShape(const clang::CallExpr *CE);
CallPolicy callPolicy(CallShape Shape);
/// "Lambda", for tests and remarks.
const char *callShapeName(CallShape Shape);
/// The call as the user wrote it, for an error about a Guarded or Refused
/// shape: "call through the function pointer 'g'", "virtual call to 'f'
/// (...)", "call to variadic function 'vsum'".
std::string callShapeRefusal(const clang::ASTContext &Ctx,
                             const clang::CallExpr *CE, CallShape Shape);

} // namespace grad

#endif
