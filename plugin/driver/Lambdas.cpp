//===- Lambdas.cpp - The callables of map and broadcast, lifted -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Differentiator's cache of classified callables (lift/Lift.h) and the
/// functions lifted from them: the element function of a reverse-lowered
/// lambda and the tangent functions of forward-lowered ones, named, recorded
/// and emitted like every generated function.
///
//===----------------------------------------------------------------------===//

#include "driver/Consumer.h"
#include "ast/Diagnostics.h"
#include "ast/SemaBuilder.h"
#include "lift/Lift.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

namespace {
/// Why the lambda of \p Info cannot be lifted, or empty: the first of its
/// refused shapes.
std::string lambdaRefusal(const LambdaInfo &Info) {
  if (Info.Lambda && Info.Lambda->isMutable())
    return "mutable lambda";
  for (const LiftedCapture &C : Info.Caps)
    if (C.Written && !C.ByRef)
      return "lambda writing a by-copy capture";
  // A lambda capturing another callable (`[&](double x) { return sq(x) +
  // b * x; }`): its lifted function would take the closure as a
  // parameter, a callable passed to a function.
  for (const LiftedCapture &C : Info.Caps)
    if (C.Var && initLambda(C.Var))
      return "lambda capturing the lambda '" + C.Var->getNameAsString() +
             "' (make '" + C.Var->getNameAsString() + "' a function)";
  // (Its writes would have to reach the object and its adjoint.)
  for (const LiftedCapture &C : Info.Caps)
    if (C.This && C.Written)
      return "lambda capturing 'this' that " + Info.Reason;
  return "";
}
} // namespace

LambdaInfo *Differentiator::lambdaInfo(const Expr *Callable,
                                       const FunctionDecl *Primal,
                                       const PullbackEntry *Caller,
                                       const FunctionDecl *Op) {
  auto Note = [&] {
    if (Caller)
      noteRequest(*Caller);
  };
  const LambdaExpr *L = findLambda(Callable);
  // (A generic lambda: the specialization the call runs.)
  // (Not the operator() of a std::function naming the lambda.)
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op);
      !L || !MD || MD->getParent() != L->getLambdaClass())
    Op = nullptr;
  const FunctionDecl *F = L ? (Op ? Op : L->getCallOperator())
                            : findFunction(Callable);
  if (F && F->isTemplated()) {
    report(S.Diags, Diag::UnsupportedConstruct, Callable->getExprLoc())
        << "generic lambda used where the types of its arguments are not "
           "known (give its parameters types, such as 'double z', or call "
           "it with arguments)"
        << nameOf(Primal);
    Note();
    return nullptr;
  }
  if (F && !F->getBody() && F->isImplicitlyInstantiable())
    F = instantiatedDefinition(S, F, Callable->getExprLoc());
  if (!F || !F->getBody()) {
    report(S.Diags, Diag::UnsupportedConstruct, Callable->getExprLoc())
        << "callable passed to map/broadcast (a lambda or a function with a "
           "visible body is needed)"
        << nameOf(Primal);
    Note();
    return nullptr;
  }
  // (One per call operator: a generic lambda has one per specialization.)
  const void *Key = F;
  auto It = Lambdas.find(Key);
  if (It != Lambdas.end())
    return It->second->Failed ? nullptr : It->second.get();
  auto Info = std::make_unique<LambdaInfo>();
  Info->Lambda = L;
  Info->Callee = F;
  classify(*Info);
  if (std::string Why = lambdaRefusal(*Info); !Why.empty()) {
    report(S.Diags, Diag::UnsupportedConstruct, L->getBeginLoc())
        << Why << nameOf(Primal);
    Note();
    Info->Failed = true;
  }
  LambdaInfo *Raw = Info.get();
  Lambdas[Key] = std::move(Info);
  return Raw->Failed ? nullptr : Raw;
}

namespace {
/// The widest floating type among \p F's parameters and result, double if
/// none (the runtime seeds with the common type of the operands' elements).
QualType widestFloatingType(ASTContext &Ctx, const FunctionDecl *F) {
  QualType T;
  auto Widen = [&](QualType Q) {
    Q = Q.getNonReferenceType().getCanonicalType().getUnqualifiedType();
    if (isFloating(Q) && (T.isNull() || Ctx.getFloatingTypeOrder(Q, T) > 0))
      T = Q;
  };
  Widen(F->getReturnType());
  for (const ParmVarDecl *P : F->parameters())
    Widen(P->getType());
  if (T.isNull())
    T = Ctx.DoubleTy;
  return T;
}

/// The lifted function's parameters: the callee's (floating ones as \p Dual
/// when it is set), then the captures. False if a captured `this` has no
/// type.
bool liftedParameters(ASTContext &Ctx, const LambdaInfo &Info, QualType Dual,
                      SmallVectorImpl<QualType> &Types,
                      SmallVectorImpl<std::string> &Names) {
  for (const ParmVarDecl *P : Info.Callee->parameters()) {
    QualType T = P->getType();
    if (!Dual.isNull() && isFloating(T.getNonReferenceType()))
      T = Dual;
    Types.push_back(T);
    Names.push_back(P->getIdentifier() ? P->getName().str()
                                       : "p" + std::to_string(Names.size()));
  }
  for (const LiftedCapture &C : Info.Caps) {
    if (C.This) {
      // The object, read-only: `const C &self`.
      QualType Obj = capturedThisType(Info);
      if (Obj.isNull())
        return false;
      Types.push_back(Ctx.getLValueReferenceType(Obj.withConst()));
      std::string N = "self";
      for (const std::string &Other : Names)
        if (Other == N)
          N += "_";
      Names.push_back(N);
      continue;
    }
    QualType T = C.Var->getType().getNonReferenceType();
    if (C.ByRef)
      T = Ctx.getLValueReferenceType(T);
    else if (T->isRecordType())
      T = Ctx.getLValueReferenceType(T.withConst());
    else
      T = T.getUnqualifiedType();
    Types.push_back(T);
    Names.push_back(C.Var->getName().str());
  }
  return true;
}

/// Declares the static inline function \p Name in \p DC, with the
/// parameters \p Types named \p Names.
FunctionDecl *declareLiftedFunction(ASTContext &Ctx, DeclContext *DC,
                                    SourceLocation Loc, StringRef Name,
                                    QualType Ret, ArrayRef<QualType> Types,
                                    ArrayRef<std::string> Names) {
  FunctionProtoType::ExtProtoInfo EPI;
  QualType FT = Ctx.getFunctionType(Ret, Types, EPI);
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(FT, Loc);
  FunctionDecl *Fn = FunctionDecl::Create(
      Ctx, DC, Loc, Loc, DeclarationName(&Ctx.Idents.get(Name)), FT, TSI,
      SC_Static, false, /*isInlineSpecified=*/true, true);
  SmallVector<ParmVarDecl *, 8> Params;
  auto FTL = TSI->getTypeLoc().getAs<FunctionProtoTypeLoc>();
  for (unsigned I = 0; I < Types.size(); ++I) {
    ParmVarDecl *P = ParmVarDecl::Create(
        Ctx, Fn, Loc, Loc, &Ctx.Idents.get(Names[I]), Types[I],
        Ctx.getTrivialTypeSourceInfo(Types[I], Loc), SC_None, nullptr);
    P->setScopeInfo(0, I);
    Params.push_back(P);
    if (FTL)
      FTL.setParam(I, P);
  }
  Fn->setParams(Params);
  DC->addDecl(Fn);
  return Fn;
}
} // namespace

FunctionDecl *Differentiator::liftFunction(LambdaInfo &Info, unsigned Slots,
                                           const FunctionDecl *Primal,
                                           const PullbackEntry *Caller) {
  ASTContext &Ctx = S.Context;
  if (Info.Failed)
    return nullptr;
  if (Slots == 0 && Info.Lifted)
    return Info.Lifted;
  if (Slots && Info.Tangents.count(Slots))
    return Info.Tangents[Slots];
  const FunctionDecl *F = Info.Callee;
  SourceLocation Loc =
      Info.Lambda ? Info.Lambda->getBeginLoc() : F->getLocation();
  SemaBuilder B(S, Loc);
  // Every way out without a function says why, once.
  auto Refuse = [&](StringRef What) -> FunctionDecl * {
    report(S.Diags, Diag::UnsupportedConstruct, Loc)
        << What.str() << nameOf(Primal);
    if (Caller)
      noteRequest(*Caller);
    Info.Failed = true;
    return nullptr;
  };
  QualType Dual;
  if (Slots) {
    QualType T = widestFloatingType(Ctx, F);
    Dual = B.runtimeType(
        "dual", {B.typeArg(T), B.exprArg(B.intLit(Slots, Ctx.getSizeType()))});
    if (Dual.isNull() && Caller) {
      needRuntime(Loc, *Caller);
      Info.Failed = true;
      return nullptr;
    }
    if (Dual.isNull())
      return Refuse("callable (internal error: no runtime type 'grad::dual')");
  }
  SmallVector<QualType, 8> Types;
  SmallVector<std::string, 8> Names;
  if (!liftedParameters(Ctx, Info, Dual, Types, Names))
    return Refuse("lambda capturing 'this' (internal error: the type of the "
                  "object it captures is not known)");
  QualType Ret = F->getReturnType().getCanonicalType();
  if (!Dual.isNull())
    Ret = Dual;
  std::string Name = (Slots ? "_grad_tangent_" : "_grad_lambda_") +
                     std::to_string(NextLifted++);
  DeclContext *DC =
      const_cast<DeclContext *>(Primal->getDeclContext()->getRedeclContext());
  if (!DC->isFileContext())
    DC = Ctx.getTranslationUnitDecl();
  FunctionDecl *Fn =
      declareLiftedFunction(Ctx, DC, Loc, Name, Ret, Types, Names);

  if (!cloneLifted(S, Info, Fn, Dual, Primal)) {
    if (Caller)
      noteRequest(*Caller);
    Fn->setInvalidDecl();
    // Reported once: later calls of the lambda find it failed.
    Info.Failed = true;
    return nullptr;
  }
  if (Slots)
    Info.Tangents[Slots] = Fn;
  else
    Info.Lifted = Fn;
  Done.push_back(Fn);
  definedGenerated(Fn);
  if (Opts.Dump)
    printDefinitionTo(Fn);
  Emit(Fn);
  return Fn;
}

} // namespace grad
