//===- Names.cpp - Names of generated pullbacks -----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pullback's name for a primal: `f_pullback`, `call_pullback` for
/// operator(), `operator_plus_pullback` for operator+ (clang's operator
/// names in snake case), `conversion_pullback`, `constructor_pullback`,
/// `literal_km_pullback`.
///
//===----------------------------------------------------------------------===//

#include "ast/Abi.h"

#include "clang/AST/DeclCXX.h"
#include <cctype>

using namespace clang;

namespace grad {

/// "PlusEqual" -> "plus_equal": the operator's name in pullback names.
static std::string operatorWord(OverloadedOperatorKind K) {
  static const char *const Names[] = {
      nullptr,
#define OVERLOADED_OPERATOR(Name, Spelling, Token, Unary, Binary, MemberOnly)  \
  #Name,
#include "clang/Basic/OperatorKinds.def"
  };
  std::string W;
  for (const char *C = Names[K]; *C; ++C) {
    if (*C == '_')
      continue;
    if (std::isupper(static_cast<unsigned char>(*C)) && !W.empty())
      W += '_';
    W += static_cast<char>(std::tolower(static_cast<unsigned char>(*C)));
  }
  return W;
}

std::string pullbackName(const FunctionDecl *Primal) {
  OverloadedOperatorKind OK = Primal->getOverloadedOperator();
  if (OK == OO_Call)
    return "call_pullback";
  if (OK != OO_None && OK < NUM_OVERLOADED_OPERATORS)
    return "operator_" + operatorWord(OK) + "_pullback";
  // `operator double() const`: one name for every target type (the seed's
  // type tells them apart).
  if (isa<CXXConversionDecl>(Primal))
    return "conversion_pullback";
  // Constructors: one name for all (the parameters tell them apart).
  if (isa<CXXConstructorDecl>(Primal))
    return "constructor_pullback";
  // `double operator""_km(long double)`: literal_km_pullback.
  if (const IdentifierInfo *II = Primal->getLiteralIdentifier())
    return "literal" + II->getName().str() + "_pullback";
  if (!Primal->getIdentifier())
    return "";
  return Primal->getName().str() + "_pullback";
}

} // namespace grad
