//===- Complex.cpp - Derivatives of std::complex values ---------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `std::complex<T>` is a value of two numbers. Its adjoint is a complex
/// number too, `dL/dre + i dL/dim`, held in a shadow of the same type and
/// accumulated with `+=`. <complex>'s bodies are written over the compiler's
/// `__complex__` type, so its functions are never differentiated through
/// their bodies: each one has a rule here.
///
/// For a holomorphic w = f(a, b) (arithmetic, exp, log, sqrt, the
/// trigonometric and hyperbolic functions, pow: rules.def's GRAD_COMPLEX
/// rows), the adjoint of an argument is `d_w * conj(df/da)`, and its real
/// part when the argument is a real number. The other functions are built
/// in: real, imag, abs, arg, norm, conj, proj and polar, and the
/// constructor from real and imaginary parts.
///
//===----------------------------------------------------------------------===//

#include "reverse/PullbackBuilder.h"
#include "ast/Diagnostics.h"
#include "ast/Records.h"
#include "ast/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

/// The complex number type \p T's arguments and results use.
static QualType complexTypeOf(ASTContext &Ctx, const ComplexCall &CC,
                              const CallExpr *CE) {
  if (isComplex(CE->getType()))
    return CE->getType().getNonReferenceType().getUnqualifiedType();
  for (const Expr *A : CC.Args)
    if (isComplex(A->getType()))
      return A->getType().getNonReferenceType().getUnqualifiedType();
  return QualType();
}

Expr *PullbackBuilder::rebuildComplexCall(const CallExpr *CE,
                                          const ComplexCall &CC, bool Need,
                                          bool Plain) {
  bool Active = !Plain && Act.isActive(CE);
  if (Active && CC.Op == ComplexOp::Unknown)
    return unsupported(CE, "call to '" + nameOf(CC.Callee) +
                               "' of std::complex (no derivative rule)");
  // The values the reverse sweep reads: arguments and the result, as the
  // rule needs them.
  unsigned Uses = 0; // bit I: argument I; UsesResult: the result
  switch (CC.Op) {
  case ComplexOp::Mul:
  case ComplexOp::Div:
    Uses = 3;
    break;
  case ComplexOp::Abs:
    Uses = 1 | UsesResult;
    break;
  case ComplexOp::Arg:
  case ComplexOp::Norm:
    Uses = 1;
    break;
  case ComplexOp::Polar:
    Uses = CC.Args.size() == 2 ? 2 | UsesResult : 0;
    break;
  case ComplexOp::Rule:
    for (unsigned I = 0; I < CC.Ru->Arity; ++I)
      Uses |= CC.Ru->Uses[I];
    break;
  default:
    break;
  }
  SmallVector<Expr *, 2> Args;
  for (unsigned I = 0; I < CC.Args.size(); ++I)
    Args.push_back(rebuild(CC.Args[I], Active && ((Uses >> I) & 1), !Active));
  if (Failed)
    return nullptr;
  Expr *R;
  if (CC.Member)
    R = B.memberCall(Args[0], CC.Callee->getDeclName(), {});
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    // `a * b` as written (overload resolution finds the same operator).
    R = Args.size() == 2
            ? B.binop(BinaryOperator::getOverloadedOpcode(OC->getOperator()),
                      Args[0], Args[1])
            : B.unop(UnaryOperator::getOverloadedOpcode(OC->getOperator(),
                                                        false),
                     Args[0]);
  else
    R = B.call(B.funcRef(const_cast<FunctionDecl *>(CC.Callee)), Args);
  return Need || (Active && (Uses & UsesResult)) ? record(CE, R) : R;
}

/// The reverse of one std::complex call: what each argument receives from
/// the result's adjoint W.
struct PullbackBuilder::ComplexPullback {
  PullbackBuilder &P;
  const CallExpr *CE;
  const ComplexCall &CC;
  /// The complex type, and its value type.
  QualType CT, V;
  VarDecl *W;
  Stmts &Out;

  Expr *adj() { return P.B.ref(W); }
  Expr *conj(Expr *E) {
    // (a real number is its own conjugate)
    return E && !isComplex(E->getType()) ? E : P.B.callStd("conj", {E});
  }
  Expr *cx(Expr *Re, Expr *Im) {
    return P.B.construct(CT, {Re, Im}, /*List=*/false);
  }
  Expr *arg(unsigned I) { return P.val(CC.Args[I]); }
  /// Argument I receives \p G (a complex adjoint; its real part for a real
  /// argument). Arguments go in reverse order, as the forward sweep
  /// evaluated them.
  void send(unsigned I, llvm::function_ref<Expr *()> G) {
    const Expr *A = CC.Args[I];
    if (!P.Act.isActive(strip(A)))
      return;
    Expr *E = G();
    if (!isComplex(A->getType()) && E && isComplex(E->getType()))
      E = P.B.callStd("real", {E});
    P.backprop(A, E, Out);
  }
  void arithmetic();
  void parts();
  void polar();
  void rule();
};

/// Unary + and -, proj, and the four binary operators.
void PullbackBuilder::ComplexPullback::arithmetic() {
  SemaBuilder &B = P.B;
  auto Adj = [&] { return adj(); };
  switch (CC.Op) {
  case ComplexOp::Neg:
    send(0, [&] { return B.unop(UO_Minus, adj()); });
    return;
  case ComplexOp::Add:
    send(1, Adj);
    send(0, Adj);
    return;
  case ComplexOp::Sub:
    send(1, [&] { return B.unop(UO_Minus, adj()); });
    send(0, Adj);
    return;
  case ComplexOp::Mul:
    send(1, [&] { return B.binop(BO_Mul, adj(), conj(arg(0))); });
    send(0, [&] { return B.binop(BO_Mul, adj(), conj(arg(1))); });
    return;
  case ComplexOp::Div:
    // d(a/b)/db = -a / b^2.
    send(1, [&] {
      Expr *Q =
          B.binop(BO_Div, arg(0), B.paren(B.binop(BO_Mul, arg(1), arg(1))));
      return B.unop(UO_Minus, B.binop(BO_Mul, adj(), conj(Q)));
    });
    send(0, [&] { return B.binop(BO_Div, adj(), conj(arg(1))); });
    return;
  default: // Pos, Proj
    send(0, Adj);
    return;
  }
}

/// real, imag, abs, norm, arg and conj.
void PullbackBuilder::ComplexPullback::parts() {
  SemaBuilder &B = P.B;
  switch (CC.Op) {
  case ComplexOp::Real:
    // d/dre: the real adjoint itself (complex += real adds to re).
    send(0, [&] { return adj(); });
    return;
  case ComplexOp::Imag:
    send(0, [&] { return cx(B.zero(V), adj()); });
    return;
  case ComplexOp::Abs:
    // |z| = sqrt(re^2 + im^2): d/dre + i d/dim = z / |z|, and 0 at z = 0
    // (z / 1 there), like fabs and hypot: no 0 / 0 that a zero adjoint
    // would turn into a NaN gradient.
    send(0, [&] {
      Expr *Abs = P.val(CE);
      Expr *Den =
          B.paren(B.cond(B.binop(BO_GT, Abs, B.floatLit(0.0, Abs->getType())),
                         P.val(CE), B.floatLit(1.0, Abs->getType())));
      return B.binop(BO_Mul, adj(), B.paren(B.binop(BO_Div, arg(0), Den)));
    });
    return;
  case ComplexOp::Norm:
    send(0, [&] {
      return B.binop(BO_Mul, B.binop(BO_Mul, B.floatLit(2.0, V), adj()),
                     arg(0));
    });
    return;
  case ComplexOp::Arg:
    // atan2(im, re): d/dre + i d/dim = i z / |z|^2.
    send(0, [&] {
      return B.binop(BO_Div, B.binop(BO_Mul, cx(B.zero(V), adj()), arg(0)),
                     B.callStd("norm", {arg(0)}));
    });
    return;
  default: // Conj
    send(0, [&] { return conj(adj()); });
    return;
  }
}

void PullbackBuilder::ComplexPullback::polar() {
  SemaBuilder &B = P.B;
  // w = r e^(i theta): dw/dtheta = i w, dw/dr = e^(i theta).
  if (CC.Args.size() == 2)
    send(1, [&] {
      return B.binop(
          BO_Mul, adj(),
          conj(B.binop(BO_Mul, cx(B.zero(V), B.floatLit(1.0, V)), P.val(CE))));
    });
  send(0, [&] {
    if (CC.Args.size() == 1)
      return adj();
    return B.binop(BO_Mul, adj(),
                   conj(B.callStd("polar", {B.floatLit(1.0, V), arg(1)})));
  });
}

void PullbackBuilder::ComplexPullback::rule() {
  // Holomorphic: d_w * conj(f'), evaluated in complex arithmetic.
  unsigned N = CC.Ru->Arity;
  for (unsigned I = N; I-- > 0;)
    send(I, [&, I]() -> Expr * {
      SmallVector<Expr *, 2> Vals;
      for (unsigned J = 0; J < N; ++J) {
        Expr *X = (CC.Ru->Uses[I] >> J) & 1 ? arg(J) : nullptr;
        if (X && !isComplex(CC.Args[J]->getType()))
          X = cx(X, P.B.zero(V));
        Vals.push_back(X);
      }
      Expr *Y = (CC.Ru->Uses[I] & UsesResult) ? P.val(CE) : nullptr;
      Expr *Pd = buildPartial(P.B, *CC.Ru, I, Vals, Y, V);
      if (!Pd)
        return nullptr;
      return P.B.binop(BO_Mul, adj(), conj(Pd));
    });
}

void PullbackBuilder::backpropComplexCall(const CallExpr *CE,
                                          const ComplexCall &CC, Expr *Adj,
                                          Stmts &Out) {
  QualType CT = complexTypeOf(Ctx, CC, CE);
  if (CT.isNull()) {
    unsupported(CE, "call (internal error: no complex type)");
    return;
  }
  QualType T = CE->getType().getNonReferenceType().getUnqualifiedType();
  // A seed of another precision (`(double)std::real(z)` on a
  // complex<long double>): <complex>'s operators take one T.
  if (Adj && isFloating(T) && !Ctx.hasSameUnqualifiedType(Adj->getType(), T))
    Adj = B.staticCast(T, Adj);
  VarDecl *W = bind(Adj, T, Out);
  ComplexPullback CP{*this, CE, CC, CT, complexValueType(CT), W, Out};
  switch (CC.Op) {
  case ComplexOp::Pos:
  case ComplexOp::Proj:
  case ComplexOp::Neg:
  case ComplexOp::Add:
  case ComplexOp::Sub:
  case ComplexOp::Mul:
  case ComplexOp::Div:
    CP.arithmetic();
    return;
  case ComplexOp::Real:
  case ComplexOp::Imag:
  case ComplexOp::Abs:
  case ComplexOp::Norm:
  case ComplexOp::Arg:
  case ComplexOp::Conj:
    CP.parts();
    return;
  case ComplexOp::Polar:
    CP.polar();
    return;
  case ComplexOp::Rule:
    CP.rule();
    return;
  case ComplexOp::Unknown:
    unsupported(CE, "call to '" + nameOf(CC.Callee) +
                        "' of std::complex (no derivative rule)");
    return;
  }
}

void PullbackBuilder::backpropComplexConstruction(const CXXConstructExpr *CC,
                                                  Expr *Adj, Stmts &Out) {
  QualType T = CC->getType().getNonReferenceType().getUnqualifiedType();
  unsigned N = 0;
  for (const Expr *A : CC->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    ++N;
  }
  if (N == 0)
    return;
  VarDecl *W = bind(Adj, T, Out);
  if (N == 1 && isComplex(CC->getArg(0)->getType())) {
    // complex<double>(complex<float> z): a conversion.
    QualType ST = CC->getArg(0)->getType().getNonReferenceType();
    backprop(CC->getArg(0),
             B.construct(ST.getUnqualifiedType(), {B.ref(W)}, false), Out);
    return;
  }
  // complex(re, im): the parts' adjoints.
  if (N == 2)
    backprop(CC->getArg(1), B.callStd("imag", {B.ref(W)}), Out);
  backprop(CC->getArg(0), B.callStd("real", {B.ref(W)}), Out);
}

const Expr *PullbackBuilder::complexUpdate(const Expr *E,
                                           const Expr *&Target) {
  auto Known = ComplexUpdates.find(E);
  if (Known != ComplexUpdates.end()) {
    Target = Known->second.first;
    return Known->second.second;
  }
  const auto *CE = dyn_cast<CallExpr>(E);
  const auto *MD =
      CE ? dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee()) : nullptr;
  if (!MD || MD->isConst() || !isComplexFunction(MD))
    return nullptr;
  const Expr *Obj = nullptr;
  Expr *Value = nullptr;
  SemaBuilder SB(S, E->getExprLoc());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    BinaryOperatorKind Op;
    switch (OC->getOperator()) {
    case OO_PlusEqual:
      Op = BO_Add;
      break;
    case OO_MinusEqual:
      Op = BO_Sub;
      break;
    case OO_StarEqual:
      Op = BO_Mul;
      break;
    case OO_SlashEqual:
      Op = BO_Div;
      break;
    default:
      return nullptr; // `=`: an assignment of a plain record
    }
    if (OC->getNumArgs() != 2)
      return nullptr;
    Obj = OC->getArg(0);
    Value = SB.binop(Op, const_cast<Expr *>(Obj),
                     const_cast<Expr *>(OC->getArg(1)));
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (!MD->getIdentifier() || MC->getNumArgs() != 1 ||
        (MD->getName() != "real" && MD->getName() != "imag"))
      return nullptr;
    Obj = MC->getImplicitObjectArgument();
    bool Re = MD->getName() == "real";
    Expr *Other = SB.memberCall(const_cast<Expr *>(Obj), Re ? "imag" : "real",
                                {});
    Expr *Part = const_cast<Expr *>(MC->getArg(0));
    QualType CT = Obj->getType().getNonReferenceType().getUnqualifiedType();
    Value = Re ? SB.construct(CT, {Part, Other}, false)
               : SB.construct(CT, {Other, Part}, false);
  } else {
    return nullptr;
  }
  if (!Value || SB.Failed)
    return nullptr;
  Target = Obj;
  ComplexUpdates[E] = {Obj, Value};
  return Value;
}

} // namespace grad
