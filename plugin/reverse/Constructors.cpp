//===- Constructors.cpp - Constructors differentiated on demand -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A constructor that does more than copy its parameters into members
/// (`Polar(double r, double t) : r(r), t(t) { x = r * cos(t); }`,
/// `Gauss(double mu, double s) : mu(mu), inv(1 / (s * s)) {}`) is
/// differentiated like a non-const member function with no result:
///
///     void constructor_pullback(args..., adjoints..., T *d_this);
///
/// replays the member initialisers as assignments to `this->m` (members of
/// plain structs member by member, arrays element by element), then the
/// body, on an object of zero bytes, and sends the adjoint of the object it
/// built (`*d_this`, in/out) back to the arguments. A construction `T(args)`
/// in a differentiated function runs as written in the forward sweep (its
/// arguments recorded); the reverse sweep calls the pullback on
/// `::grad::detail::zeroed<T>()`.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

namespace {
/// Expands `Dst = <member initializer>` into assignments of scalars.
struct InitExpander {
  ASTContext &Ctx;
  SourceLocation Loc;
  SmallVectorImpl<const Stmt *> &Out;
  const Expr *ErrorAt = nullptr;
  std::string Error;

  bool fail(const Expr *E, std::string What) {
    if (!ErrorAt) {
      ErrorAt = E;
      Error = std::move(What);
    }
    return false;
  }

  Expr *member(Expr *Base, FieldDecl *F, bool Arrow) {
    QualType BT = Arrow ? Base->getType()->getPointeeType() : Base->getType();
    QualType T = F->getType();
    if (BT.isConstQualified())
      T = T.withConst();
    return MemberExpr::CreateImplicit(Ctx, Base, Arrow, F, T, VK_LValue,
                                      OK_Ordinary);
  }
  Expr *element(Expr *Base, uint64_t I) {
    const auto *AT = Ctx.getAsConstantArrayType(Base->getType());
    QualType ET = AT->getElementType();
    Expr *Decayed = ImplicitCastExpr::Create(
        Ctx, Ctx.getPointerType(ET), CK_ArrayToPointerDecay, Base, nullptr,
        VK_PRValue, FPOptionsOverride());
    Expr *Idx = IntegerLiteral::Create(
        Ctx, llvm::APInt(Ctx.getTypeSize(Ctx.getSizeType()), I),
        Ctx.getSizeType(), Loc);
    return new (Ctx)
        ArraySubscriptExpr(Decayed, Idx, ET, VK_LValue, OK_Ordinary, Loc);
  }
  Expr *rvalue(Expr *E) {
    if (E->isPRValue())
      return E;
    return ImplicitCastExpr::Create(Ctx, E->getType().getUnqualifiedType(),
                                    CK_LValueToRValue, E, nullptr, VK_PRValue,
                                    FPOptionsOverride());
  }
  Expr *zero(QualType T) {
    if (T->isRealFloatingType())
      return FloatingLiteral::Create(Ctx, llvm::APFloat::getZero(
                                              Ctx.getFloatTypeSemantics(T)),
                                     true, T, Loc);
    if (T->isBooleanType())
      return CXXBoolLiteralExpr::Create(Ctx, false, T, Loc);
    if (T->isIntegralOrEnumerationType()) {
      Expr *Z = IntegerLiteral::Create(Ctx, llvm::APInt(32, 0), Ctx.IntTy,
                                       Loc);
      return ImplicitCastExpr::Create(Ctx, T, CK_IntegralCast, Z, nullptr,
                                      VK_PRValue, FPOptionsOverride());
    }
    return nullptr;
  }
  void assign(Expr *Dst, Expr *Src) {
    Out.push_back(BinaryOperator::Create(Ctx, Dst, rvalue(Src), BO_Assign,
                                         Dst->getType(), VK_LValue,
                                         OK_Ordinary, Loc,
                                         FPOptionsOverride()));
  }

  /// `Dst = Src` for an lvalue \p Src of Dst's type.
  bool copy(Expr *Dst, Expr *Src) {
    QualType T = Dst->getType();
    if (T.isConstQualified())
      return fail(Src, "copy into a const member");
    if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
      for (uint64_t I = 0, N = AT->getSize().getZExtValue(); I < N; ++I)
        if (!copy(element(Dst, I), element(Src, I)))
          return false;
      return true;
    }
    if (const auto *RD = T->getAsCXXRecordDecl()) {
      if (RD->getNumBases())
        return fail(Src, "copy of a class with base classes into a member");
      for (FieldDecl *F : RD->fields())
        if (!copy(member(Dst, F, false), member(Src, F, false)))
          return false;
      return true;
    }
    assign(Dst, Src);
    return true;
  }

  /// `Dst` initialised by the braces \p IL: element by element, member
  /// by member, or the one value inside.
  bool braces(Expr *Dst, const InitListExpr *IL) {
    QualType T = Dst->getType();
    if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
      for (uint64_t I = 0, N = AT->getSize().getZExtValue(); I < N; ++I) {
        if (I < IL->getNumInits()) {
          if (!init(element(Dst, I), IL->getInit(I)))
            return false;
        } else if (IL->hasArrayFiller() &&
                   !isa<ImplicitValueInitExpr>(IL->getArrayFiller())) {
          return fail(IL, "initializer of an array member");
        } else if (!init(element(Dst, I), new (Ctx) ImplicitValueInitExpr(
                                              AT->getElementType()))) {
          return false;
        }
      }
      return true;
    }
    if (const auto *RD = T->getAsCXXRecordDecl()) {
      if (RD->getNumBases())
        return fail(IL, "braces of a class with base classes");
      unsigned I = 0;
      for (FieldDecl *F : RD->fields()) {
        const Expr *Sub = I < IL->getNumInits() ? IL->getInit(I) : nullptr;
        ++I;
        if (!Sub)
          continue; // zero bytes
        if (!init(member(Dst, F, false), Sub))
          return false;
      }
      return true;
    }
    if (IL->getNumInits() == 1)
      return init(Dst, IL->getInit(0));
    if (IL->getNumInits() == 0)
      return init(Dst, new (Ctx) ImplicitValueInitExpr(T));
    return fail(IL, "initializer list");
  }

  /// `Dst` initialised by \p Init (a member initializer's expression).
  bool init(Expr *Dst, const Expr *Init) {
    QualType T = Dst->getType();
    if (T.isConstQualified())
      return fail(Init, "initializer of a const member");
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
      Init = EWC->getSubExpr();
    if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(Init))
      Init = DI->getExpr();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
      Init = EWC->getSubExpr();
    if (isa<ImplicitValueInitExpr>(Init)) {
      if (T->isRecordType() || T->isArrayType())
        return true; // zero bytes already
      Expr *Z = zero(T.getUnqualifiedType());
      if (!Z)
        return fail(Init, "initializer of a member of type '" +
                              T.getAsString() + "'");
      assign(Dst, Z);
      return true;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(Init))
      return braces(Dst, IL);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Init)) {
      const CXXConstructorDecl *C = CE->getConstructor();
      if (C->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1) {
        const Expr *Src = CE->getArg(0)->IgnoreImplicit();
        if (!Src->isGLValue())
          return fail(CE->getArg(0),
                      "member initialised from a temporary of class type");
        return copy(Dst, const_cast<Expr *>(Src));
      }
      if (CE->getNumArgs() == 0 && C->isTrivial())
        return true; // left as zero bytes, like an uninitialised member
      return fail(Init, "member of class type '" + T.getAsString() +
                            "' built by a constructor, in a constructor "
                            "that computes members (copy it from a "
                            "parameter or use braces)");
    }
    if (T->isRecordType() || T->isArrayType()) {
      if (Init->isGLValue())
        return copy(Dst, const_cast<Expr *>(Init));
      return fail(Init, "initializer of a member of type '" +
                            T.getAsString() + "'");
    }
    assign(Dst, const_cast<Expr *>(Init));
    return true;
  }
};
} // namespace

Expr *PullbackBuilder::rebuildBraces(const InitListExpr *IL, bool Plain) {
  SmallVector<Expr *, 8> Elems;
  for (const Expr *E : IL->inits()) {
    if (isa<ImplicitValueInitExpr>(E))
      break; // the rest is value-initialised again
    const Expr *K = strip(E);
    if (const auto *Inner = dyn_cast<InitListExpr>(K))
      Elems.push_back(rebuildBraces(Inner, Plain));
    else
      Elems.push_back(rebuild(E, false, Plain || !Act.isActive(K)));
    if (Failed)
      return nullptr;
  }
  return B.initList(Elems);
}

Expr *PullbackBuilder::rebuildConstruction(const CXXConstructExpr *CC,
                                           bool Plain) {
  SmallVector<Expr *, 4> Args;
  for (const Expr *A : CC->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    Args.push_back(rebuild(A, false, Plain || !Act.isActive(strip(A))));
  }
  if (Failed)
    return nullptr;
  Expr *R = B.construct(CC->getType(), Args, CC->isListInitialization());
  return R ? R : unsupported(CC, constructName(CC));
}

/// `V(double s) : V(s, 2 * s) { ... }`: the target's member initializers
/// with its parameters replaced by the delegating constructor's arguments,
/// for a target with an empty body that copies parameters or constants
/// into members.
static bool delegatedInits(ASTContext &Ctx, const CXXConstructorDecl *Ctor,
                           InitExpander &X, QualType ThisTy,
                           std::string &Why) {
  const CXXCtorInitializer *D = *Ctor->init_begin();
  const auto *TC = dyn_cast<CXXConstructExpr>(D->getInit()->IgnoreImplicit());
  const FunctionDecl *TD = nullptr;
  if (!TC || !TC->getConstructor()->isDefined(TD)) {
    Why = "its target has no visible body";
    return false;
  }
  const auto *Target = cast<CXXConstructorDecl>(TD);
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Target->getBody());
  if (!Body || !Body->body_empty() || Target->isDelegatingConstructor()) {
    Why = "its target has a body or delegates again";
    return false;
  }
  Expr *This = CXXThisExpr::Create(Ctx, X.Loc, ThisTy, /*IsImplicit=*/true);
  for (const CXXCtorInitializer *I : Target->inits()) {
    FieldDecl *F = I->getMember();
    if (!F) {
      if (I->isBaseInitializer() &&
          !hasFloatingData(QualType(I->getBaseClass(), 0)))
        continue;
      Why = "its target initializes a base class";
      return false;
    }
    const Expr *Init = memberInitValue(I);
    const auto *DRE = dyn_cast<DeclRefExpr>(Init);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (P && P->getFunctionScopeIndex() < TC->getNumArgs()) {
      Init = TC->getArg(P->getFunctionScopeIndex()); // the argument
    } else if (readsParamOrThis(Init)) {
      Why = "its target computes member '" + F->getNameAsString() + "'";
      return false;
    }
    if (F->getType().isConstQualified()) {
      Why = "const member '" + F->getNameAsString() + "'";
      return false;
    }
    if (!X.init(X.member(This, F, /*Arrow=*/true), Init))
      return false;
  }
  return true;
}

bool PullbackBuilder::constructorInits(const CXXConstructorDecl *Ctor,
                                       SmallVectorImpl<const Stmt *> &Out) {
  InitExpander X{Ctx, Ctor->getLocation(), Out};
  QualType ThisTy = Ctor->getThisType();
  if (Ctor->isDelegatingConstructor()) {
    std::string Why;
    if (delegatedInits(Ctx, Ctor, X, ThisTy, Why))
      return true;
    if (X.ErrorAt)
      unsupported(X.ErrorAt, X.Error);
    else
      unsupportedAt((*Ctor->init_begin())->getSourceLocation(),
                    "delegating constructor (" + Why +
                        ": initialize the members here instead)");
    return false;
  }
  for (const CXXCtorInitializer *I : Ctor->inits()) {
    if (I->isBaseInitializer()) {
      QualType BT(I->getBaseClass(), 0);
      if (!hasFloatingData(BT))
        continue;
      unsupportedAt(I->getSourceLocation(),
                    "initializer of base class '" + BT.getAsString() +
                        "' in a constructor that computes members");
      return false;
    }
    FieldDecl *F = I->getMember();
    if (!F || !I->getInit()) {
      unsupportedAt(I->getSourceLocation(), "member initializer");
      return false;
    }
    // (The replay assigns the member: a const one cannot be.)
    if (F->getType().isConstQualified()) {
      unsupportedAt(I->getSourceLocation(),
                    "const member '" + F->getNameAsString() +
                        "' in a constructor that computes members");
      return false;
    }
    Expr *This = CXXThisExpr::Create(Ctx, X.Loc, ThisTy, /*IsImplicit=*/true);
    if (!X.init(X.member(This, F, /*Arrow=*/true), I->getInit())) {
      unsupported(X.ErrorAt ? static_cast<const Stmt *>(X.ErrorAt)
                            : I->getInit(),
                  X.Error);
      return false;
    }
  }
  return true;
}

Expr *PullbackBuilder::rebuildUserConstruction(const CXXConstructExpr *CC,
                                               bool Need, bool Plain) {
  if (Plain)
    return rebuildConstruction(CC, true);
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  QualType T = CC->getType();
  if (!isByteCopyable(Ctx, T))
    return unsupported(CC, "construction of '" + T.getAsString() +
                               "', which is not trivially copyable");
  SmallVector<const Expr *, 4> Args(CC->arguments());
  // The pullback re-reads what the constructor read through its pointer
  // and reference parameters.
  if (memoryUnstable(Ctor, Args))
    return unsupported(CC, "construction of '" + T.getAsString() +
                               "' from memory that changes before the "
                               "reverse sweep (copy the values into locals "
                               "first)");
  WrtMask Mask = callMask(Ctor, Args);
  PullbackEntry *PE =
      D.calleePullback(Ctor, CC->getExprLoc(), Entry, /*Queue=*/true, &Mask);
  if (!PE) {
    Failed = true;
    return nullptr;
  }
  Constructions[CC] = PE;
  SmallVector<Expr *, 4> NArgs;
  if (!rebuildMethodArgs(Ctor, Args, NArgs))
    return nullptr;
  Expr *R = B.construct(T, NArgs, CC->isListInitialization());
  if (!R)
    return unsupported(CC, constructName(CC));
  return Need ? record(CC, R) : R;
}

void PullbackBuilder::backpropUserConstruction(const CXXConstructExpr *CC,
                                               Expr *Adj, Stmts &Out) {
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  auto It = Constructions.find(CC);
  if (It == Constructions.end()) {
    unsupported(CC, "construction (internal error: not planned)");
    return;
  }
  PullbackEntry *PE = It->second;
  SmallVector<const Expr *, 4> Args(CC->arguments());
  PullbackSignature CS;
  SmallVector<Expr *, 8> CallArgs;
  Deferred Later;
  methodPullbackArgs(Ctor, *PE, Args, nullptr, CS, CallArgs, Later, Out);
  if (CS.ThisIndex < 0) {
    unsupported(CC, "constructor without an adjoint object (internal error)");
    return;
  }
  // d_this is in/out: a copy of the object's adjoint.
  QualType T = CC->getType().getUnqualifiedType();
  VarDecl *G = B.var(PB, fresh("_g"), T, Adj);
  Out.push_back(B.declStmt(G));
  CallArgs.push_back(B.addrOf(B.ref(G)));
  for (Expr *A : CallArgs)
    if (!A) {
      Failed = true;
      return;
    }
  Expr *Obj = B.callRuntime("zeroed", {B.typeArg(T)}, {});
  if (!Obj) {
    Failed = true;
    return;
  }
  Out.push_back(B.memberCall(Obj, PE->Pullback->getDeclName(), CallArgs,
                             /*Arrow=*/false));
  for (auto It = Later.rbegin(); It != Later.rend(); ++It)
    backprop(It->first, B.ref(It->second), Out);
}

} // namespace grad
