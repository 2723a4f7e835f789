//===- Methods.cpp - Member function calls ----------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls of member functions on differentiated objects (`s.norm()`,
/// `l(x)`, `a + b` with a member operator, `this->f(x)`) go through the
/// method's pullback, which takes the object's adjoint `d_this` last. A
/// const method's object is re-read in the reverse sweep, or kept as it was
/// at the call when it is a temporary or is written later. A non-const
/// method on a local, a parameter or `this` is a side effect of its
/// statement: the forward sweep keeps a copy of the object and calls the
/// method; the reverse sweep calls the pullback on the copy with the
/// object's adjoint in/out.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "reverse/Shadow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

/// True if \p E reads a floating member of the object (`data[k]`, `w`,
/// `this->v.x`), or calls anything on it.
static bool readsThisData(const Expr *E) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXThisExpr(CXXThisExpr *) {
      Found = true;
      return false;
    }
  };
  // Integer members (sizes) are read freely: they change only with the
  // whole object.
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isIntegralOrEnumerationType()) {
    // (An index computed from a floating member, `data[(int)w]`, reads it.)
    struct Calls : RecursiveASTVisitor<Calls> {
      bool Found = false;
      bool VisitCallExpr(CallExpr *) {
        Found = true;
        return false;
      }
      bool VisitMemberExpr(MemberExpr *ME) {
        if (!ME->getType()->isIntegralOrEnumerationType())
          Found = true;
        return !Found;
      }
    } C;
    C.TraverseStmt(const_cast<Expr *>(E));
    return C.Found;
  }
  Finder F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

/// A read of one floating element or member of the object, at an index
/// that reads only its sizes: `data[i * cols + j]`, `w`, `this->a[i]`.
static bool thisElementRead(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
           thisElementRead(ME->getBase());
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return thisElementRead(AS->getBase()) && !readsThisData(AS->getIdx());
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
           thisElementRead(OC->getArg(0)) && !readsThisData(OC->getArg(1));
  return false;
}

/// True if \p E is a constant (`2.0`, `0.5 * 3`): a factor whose own
/// partial (the other factor) nobody needs.
static bool constantFactor(const Expr *E, const ASTContext &Ctx) {
  return !E->isValueDependent() && E->isEvaluatable(Ctx);
}

/// True if \p E is linear in the object's floating data and its partials
/// with respect to anything do not depend on those values: sums of elements
/// times constants (`data[k]`, `2 * a[i] - b[i] / 4`). (`data[k] * s` is
/// not: the partial for s is data[k].)
static bool linearInData(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (!readsThisData(E))
    return true;
  if (thisElementRead(E))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           linearInData(UO->getSubExpr(), Ctx);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      return linearInData(L, Ctx) && linearInData(R, Ctx);
    case BO_Mul:
      return (constantFactor(L, Ctx) && linearInData(R, Ctx)) ||
             (constantFactor(R, Ctx) && linearInData(L, Ctx));
    case BO_Div:
      return constantFactor(R, Ctx) && linearInData(L, Ctx);
    default:
      return false;
    }
  }
  return false;
}

/// True if \p MD only sets or adds to elements of its object from values
/// that do not read its floating data (`data[i * cols + j] = v;`, `w[k] +=
/// v;`): its pullback reads the object's sizes, never its values, and
/// writes no more than the call wrote.
static bool setsElements(const CXXMethodDecl *MD) {
  const FunctionDecl *Def = MD->getDefinition();
  const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody())
                         : nullptr;
  if (!Body || Body->body_empty() || !MD->getReturnType()->isVoidType())
    return false;
  for (const Stmt *St : Body->body()) {
    const auto *BO = dyn_cast<BinaryOperator>(St);
    if (!BO || !(BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_AddAssign ||
                 BO->getOpcode() == BO_SubAssign) ||
        !isFloating(BO->getLHS()->getType()) || !thisElementRead(BO->getLHS()) ||
        readsThisData(BO->getRHS()))
      return false;
  }
  return true;
}

/// True if \p MD is one `return` of an expression linear in its object's
/// floating data: its pullback never reads their values, so it may run on
/// the object as the reverse sweep finds it.
static bool linearInThis(const CXXMethodDecl *MD) {
  const FunctionDecl *Def = MD->getDefinition();
  const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody())
                         : nullptr;
  if (!Body || Body->size() != 1 || !isFloating(MD->getReturnType()) ||
      MD->getReturnType()->isReferenceType())
    return false;
  const auto *RS = dyn_cast<ReturnStmt>(Body->body_front());
  return RS && RS->getRetValue() &&
         linearInData(RS->getRetValue(), MD->getASTContext());
}

bool PullbackBuilder::methodCall(const CallExpr *CE, const CXXMethodDecl *&MD,
                                 const Expr *&Obj, bool &Arrow,
                                 SmallVectorImpl<const Expr *> &Args) const {
  MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!MD || MD->isStatic())
    return false;
  Args.clear();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (!ME)
      return false;
    Obj = ME->getBase();
    Arrow = ME->isArrow();
    for (const Expr *A : MC->arguments())
      Args.push_back(A);
    return true;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OC->getNumArgs() < 1)
      return false;
    Obj = OC->getArg(0);
    Arrow = false;
    for (unsigned I = 1; I < OC->getNumArgs(); ++I)
      Args.push_back(OC->getArg(I));
    return true;
  }
  return false;
}

bool PullbackBuilder::calledMethod(const CallExpr *CE,
                                   const CXXMethodDecl *&MD, const Expr *&Obj,
                                   bool &Arrow,
                                   SmallVectorImpl<const Expr *> &Args) {
  if (!methodCall(CE, MD, Obj, Arrow, Args)) {
    unsupported(CE, constructName(CE));
    return false;
  }
  if (std::string Why = unseenTarget(Ctx, CE); !Why.empty()) {
    unsupported(CE, Why);
    return false;
  }
  // (Lambdas passed to free functions are differentiated through
  // views of the callee, driver/CallableViews.h; the lambda's own call
  // operator, called with arguments, is no such call.)
  if (MD->getParent()->isLambda())
    return true;
  for (const Expr *A : Args)
    if (findLambda(A)) {
      unsupported(A, lambdaPassed(Ctx, A, MD,
                                  "(a member function: lambdas are "
                                  "differentiated when passed to free "
                                  "functions)"));
      return false;
    }
  return true;
}

Expr *PullbackBuilder::thisExpr() {
  return S.BuildCXXThisExpr(B.Loc, cast<CXXMethodDecl>(Primal)->getThisType(),
                            /*IsImplicit=*/false);
}

Expr *PullbackBuilder::rebuildObject(const Expr *Obj) {
  const Expr *K = strip(Obj);
  if (const auto *TE = dyn_cast<CXXThisExpr>(K))
    return S.BuildCXXThisExpr(B.Loc, TE->getType(), /*IsImplicit=*/false);
  if (isElementAccess(K))
    return valPath(K);
  return plain(K);
}

/// The object of a member call, and how the reverse sweep gets it back.
struct PullbackBuilder::MethodObject {
  /// The object as written (stripped), its type (the pointee's for
  /// `p->f()`, kept as `*p`: Deref) and class.
  const Expr *OK = nullptr;
  QualType OT;
  const CXXRecordDecl *ORD = nullptr;
  bool Deref = false;
  /// The variable it is part of, or `this`.
  const VarDecl *Root = nullptr;
  bool IsThis = false;
  /// A temporary; kept by value at the call; kept per call on the
  /// thread's saved objects (an object owning its elements).
  bool Temp = false, Keep = false, KeepOwner = false;
};

PullbackBuilder::MethodObject
PullbackBuilder::methodObject(const CXXMethodDecl *MD, const Expr *Obj,
                              bool Arrow) {
  MethodObject MO;
  MO.Root = pathRoot(Obj, MO.IsThis);
  // A struct the reverse sweep cannot re-read as it was (a temporary,
  // `Vec3(x, y, z).norm()`, or an object written in the function): its
  // value at the call is kept, and the pullback is called on the copy.
  const Expr *OK = MO.OK = strip(Obj);
  MO.OT = OK->getType().getNonReferenceType().getUnqualifiedType();
  // `p->f()`: the object p points to (kept as `*p`).
  MO.Deref = Arrow && MO.OT->isPointerType() && !isa<CXXThisExpr>(OK);
  if (MO.Deref)
    MO.OT = MO.OT->getPointeeType().getUnqualifiedType();
  // (A closure cannot be assigned: it is re-read as it is.)
  MO.ORD = MO.OT->getAsCXXRecordDecl();
  bool Copyable = isPlainStruct(MO.OT) && isByteCopyable(Ctx, MO.OT) &&
                  !(MO.ORD && MO.ORD->isLambda());
  const VarDecl *Root = MO.Root;
  bool Local = Root && !MO.IsThis;
  MO.Temp = !MO.IsThis && !Root && Copyable && !OK->isGLValue() && !MO.Deref;
  MO.Keep = MO.Temp ||
            (Local && Copyable &&
             (Act.isWritten(Root) || Act.isDataWritten(Root) || !readOnly(OK)));
  // An object that owns its elements, written in the function: the reverse
  // sweep would read its last values, not those of the call. It is kept
  // per call on the thread's saved objects, unless the method is linear in
  // the object's data (an accessor `return data[i * cols + j];`: its
  // pullback reads only the sizes, which do not change but by a whole
  // assignment; the reverse half of a split derivative does not have the
  // object, nor does the reverse sweep of an object declared in a block).
  MO.KeepOwner = !MO.Keep && Local &&
                 (isa<DeclRefExpr>(OK) || isElementAccess(OK)) &&
                 isElementOwner(MO.OT) &&
                 (Act.isWritten(Root) || !inScopeInReverse(Root) ||
                  (Act.isDataWritten(Root) &&
                   (Half != SplitHalf::None || !isa<DeclRefExpr>(OK) ||
                    !linearInThis(MD))));
  return MO;
}

bool PullbackBuilder::methodObjectRefused(const CallExpr *CE,
                                          const CXXMethodDecl *MD,
                                          const Expr *Obj,
                                          const MethodObject &MO) {
  const Expr *OK = MO.OK;
  if (!MO.IsThis && !MO.Root && !MO.Temp) {
    // (A temporary kept by value whose destructor stands in the way.)
    std::string Why;
    if (!OK->isGLValue() && MO.ORD && MO.ORD->hasUserDeclaredDestructor() &&
        !destroysNothing(MO.ORD) && !isPlainRecord(MO.OT, &Why) && !Why.empty())
      unsupported(Obj, "member call on " + constructName(OK) +
                           ", a temporary of type '" +
                           MO.OT.getAsString(Ctx.getPrintingPolicy()) +
                           "' kept for the reverse sweep (" + Why + ")");
    else
      unsupported(Obj, "member call on " + constructName(OK));
    return true;
  }
  bool Kept = MO.Keep || MO.KeepOwner;
  if ((!Kept && !readOnly(OK) && !isa<DeclRefExpr>(OK)) ||
      (!Kept && MO.Root && Act.isWritten(MO.Root))) {
    unsupported(Obj, "member call on an object the function writes");
    return true;
  }
  if (MO.KeepOwner && NoHoist) {
    unsupported(CE, "call to '" + MD->getNameAsString() + "' on '" +
                        spelled(OK) +
                        "', whose elements the function "
                        "writes, " +
                        NoHoistWhy);
    return true;
  }
  return false;
}

// The dynamic type decides which body of a virtual method runs:
// differentiating the static callee's body is right only where the two
// agree (a final class or method, an object whose type is known). A
// qualified call (`m.Base::f(x)`) would be rebuilt unqualified: refused.
static std::string virtualCallRefusal(const CallExpr *CE,
                                      const CXXMethodDecl *MD) {
  if (!MD->isVirtual())
    return "";
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const auto *ME =
      MC ? dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()) : nullptr;
  if (ME && ME->hasQualifier())
    return "qualified call to virtual member function '" +
           MD->getQualifiedNameAsString() + "' (make it non-virtual)";
  return virtualDispatch(CE) ? virtualCallName(MD) : "";
}

Expr *PullbackBuilder::rebuildMethodCall(const CallExpr *CE, bool Need) {
  const CXXMethodDecl *MD;
  const Expr *Obj;
  bool Arrow = false;
  SmallVector<const Expr *, 4> Args;
  if (!calledMethod(CE, MD, Obj, Arrow, Args))
    return nullptr;
  if (std::string Why = virtualCallRefusal(CE, MD); !Why.empty())
    return unsupported(CE, Why);
  if (writesObject(MD))
    return unsupported(
        CE, "call to non-const member function '" + MD->getNameAsString() +
                "'" +
                (MD->getParent()->isInStdNamespace()
                     ? std::string()
                     : " whose result is used (if it does not change its "
                       "object, declare it 'const')"));
  MethodObject MO = methodObject(MD, Obj, Arrow);
  if (methodObjectRefused(CE, MD, Obj, MO) || !memberArgsStable(MD, Args))
    return nullptr;
  WrtMask Mask = objectMask(MD, Obj);
  PullbackEntry *PE =
      D.calleePullback(MD, CE->getExprLoc(), Entry, /*Queue=*/true, &Mask);
  if (!PE) {
    Failed = true;
    return nullptr;
  }
  const Expr *OK = MO.OK;
  SmallVector<Expr *, 4> NArgs;
  if (MO.KeepOwner) {
    if (!rebuildMethodArgs(MD, Args, NArgs))
      return nullptr;
    Expr *Self = rebuild(OK, false, true);
    if (!Self || !keepOwner(CE, rebuild(OK, false, true), MO.OT))
      return nullptr;
    Expr *R = B.memberCall(Self, MD->getDeclName(), NArgs, Arrow);
    return Need ? record(CE, R) : R;
  }
  // `p->f()`: the reverse sweep finds p's shadow from what the forward
  // sweep records now (its offset, or the shadow pointer of heap memory
  // allocated in a loop).
  if (const auto *DRE = Arrow ? dyn_cast<DeclRefExpr>(OK) : nullptr)
    if (const auto *PV = dyn_cast<VarDecl>(DRE->getDecl());
        PV && PV->isLocalVarDeclOrParm() && tracksOffset(PV))
      noteAliasUse(DRE);
  VarDecl *Kept = nullptr;
  if (!keepMethodObject(CE, MO, Kept) || !rebuildMethodArgs(MD, Args, NArgs))
    return nullptr;
  // The forward sweep names the object as the primal does (val() and
  // rebuildObject() are for the reverse sweep, where loop indices differ).
  Expr *FwdObj = Kept ? B.ref(Kept)
                 : isa<CXXThisExpr>(OK)
                     ? S.BuildCXXThisExpr(B.Loc, OK->getType(), false)
                     : rebuild(OK, false, true);
  Expr *R =
      B.memberCall(FwdObj, MD->getDeclName(), NArgs, Kept ? false : Arrow);
  return Need ? record(CE, R) : R;
}

bool PullbackBuilder::keepMethodObject(const CallExpr *CE,
                                       const MethodObject &MO, VarDecl *&Kept) {
  const Expr *OK = MO.OK;
  if (!MO.Keep) {
    // The object is re-read in the reverse sweep; index values it needs
    // are recorded now.
    if (isElementAccess(OK))
      rebuildElement(OK, false, false);
    return true;
  }
  Expr *V = rebuild(OK, false, !Act.isActive(OK));
  if (!V)
    return false;
  if (MO.Deref)
    V = B.paren(B.deref(V));
  Kept = hoist("_o", MO.OT);
  Cur->push_back(B.assign(B.ref(Kept), V));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(Kept);
  KeptObjects[CE] = Kept;
  return true;
}

bool PullbackBuilder::keepOwner(const CallExpr *CE, Expr *Obj, QualType T) {
  Expr *Keep = Obj ? B.callRuntime("keep", {}, {Obj}) : nullptr;
  if (!Keep) {
    Failed = true;
    return false;
  }
  Cur->push_back(Keep);
  KeptOwners[CE] = T;
  return true;
}

// A parameter the callee may write through: `double &x`, `std::vector<double>
// &v` (not `const T &`, not `T &&`).
static bool writableReference(QualType T) {
  return T->isLValueReferenceType() &&
         !T.getNonReferenceType().isConstQualified();
}

bool PullbackBuilder::rebuildMethodArgs(const CXXMethodDecl *MD,
                                        ArrayRef<const Expr *> Args,
                                        SmallVectorImpl<Expr *> &Out) {
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (isa<CXXDefaultArgExpr>(A))
      break;
    const Expr *AK = strip(A);
    if (I < MD->getNumParams() &&
        writableReference(MD->getParamDecl(I)->getType())) {
      if (!writableReferenceArg(MD, MD->getParamDecl(I), A, Out))
        return false;
      continue;
    }
    if (I < MD->getNumParams() &&
        temporaryObject(MD->getParamDecl(I)->getType(), AK)) {
      // A temporary struct argument (`a + Vec3{y, 1, x}`): kept by value.
      Expr *V = rebuild(A, false, !Act.isActive(AK));
      Out.push_back(record(AK, V)); // (read again by the reverse sweep)
      continue;
    }
    Out.push_back(rebuild(A, true, false));
  }
  return !Failed;
}

bool PullbackBuilder::writableReferenceArg(const CXXMethodDecl *MD,
                                           const ParmVarDecl *P,
                                           const Expr *A,
                                           SmallVectorImpl<Expr *> &Out) {
  // `s.step(e)` with `void step(double &x)`: the call writes the caller's
  // variable, and the method's pullback starts from its value before the
  // call, recorded here (val() finds it). The argument is evaluated twice.
  if (A->HasSideEffects(Ctx)) {
    unsupported(A, "argument '" + spelled(A) +
                       "' with side effects for the reference parameter '" +
                       P->getNameAsString() + "' of '" +
                       MD->getNameAsString() +
                       "' (write the side effect as a statement of its own)");
    return false;
  }
  if (!rebuild(A, true, false))
    return false;
  Expr *L = rebuild(A, false, !Act.isActive(strip(A)));
  if (!L)
    return false;
  Out.push_back(L);
  return true;
}

Expr *PullbackBuilder::rebuildMutatingCall(const CallExpr *CE, bool Need) {
  const CXXMethodDecl *MD;
  const Expr *Obj;
  bool Arrow = false;
  SmallVector<const Expr *, 4> Args;
  if (!calledMethod(CE, MD, Obj, Arrow, Args))
    return nullptr;
  std::string Name = "'" + MD->getNameAsString() + "'";
  if (std::string Why = virtualCallRefusal(CE, MD); !Why.empty())
    return unsupported(CE, Why);
  // `s.step(x)`, `this->step(x)`: the object is kept as it was before the
  // call; the reverse sweep calls the method's pullback on that copy, with
  // the object's adjoint in/out.
  const Expr *OK = strip(Obj);
  bool IsThis = isa<CXXThisExpr>(OK);
  const auto *DRE = dyn_cast<DeclRefExpr>(OK);
  const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  QualType OT = QualType(MD->getParent()->getTypeForDecl(), 0);
  // `v[i].step(x)`, `s.inner.step(x)`: an element or member path; `p->step(x)`:
  // through a pointer whose shadow is known.
  bool Elem = !IsThis && !Arrow && !Var && isElementAccess(OK);
  bool Ptr = !IsThis && Arrow && OK->getType()->isPointerType() &&
             memoryActive(OK);
  // (A class that owns its elements is kept on the thread's saved objects,
  // not in a variable of the pullback.)
  bool Owner = isElementOwner(OT), Copy = true;
  if ((!IsThis && !Elem && !Ptr && (!Var || Arrow || !mapVar(Var))) ||
      !(isPlainStruct(OT) || Owner))
    return unsupported(Obj, "call to non-const member function " + Name +
                                " on " + constructName(OK) +
                                " (call it on a local object, a parameter, "
                                "an element or through a pointer to a "
                                "struct)");
  QualType RT = mutatingResultType(CE, MD, Name);
  if (RT.isNull())
    return nullptr;
  if (NoHoist)
    return unsupported(CE, "call to non-const member function " + Name +
                               ", which writes its object, " + NoHoistWhy);
  if (!memberArgsStable(MD, Args))
    return nullptr;
  PullbackEntry *PE = D.calleePullback(MD, CE->getExprLoc(), Entry);
  if (!PE) {
    Failed = true;
    return nullptr;
  }
  // (An element's indices are recorded for the reverse sweep.)
  if (Elem && !rebuildElement(OK, false, false))
    return nullptr;
  auto Before = [&]() {
    return IsThis ? B.deref(S.BuildCXXThisExpr(B.Loc, OK->getType(), false))
           : Ptr  ? B.deref(rebuild(OK, false, true))
                  : rebuild(OK, false, true);
  };
  // A setter (`m.set(i, j, v)`) on a variable the reverse sweep sees with
  // the same sizes: its pullback runs on the variable itself, no copy. (Its
  // own: the pullback writes it again, which would change a caller's object
  // bound to a reference.)
  if (Owner && Var && !Arrow && Half == SplitHalf::None &&
      Var->hasLocalStorage() && !Var->getType()->isReferenceType() &&
      inScopeInReverse(Var) && !Act.isWritten(Var) && setsElements(MD))
    Owner = false, Copy = false;
  if (Copy && !Owner) {
    VarDecl *Kept = hoist("_o", OT.getUnqualifiedType());
    Cur->push_back(B.assign(B.ref(Kept), Before()));
    if (!Loops.empty() && !Frames.empty())
      Frames.back().Recorded.push_back(Kept);
    KeptObjects[CE] = Kept;
  }
  SmallVector<Expr *, 4> NArgs;
  if (!rebuildMethodArgs(MD, Args, NArgs))
    return nullptr;
  if (Copy && Owner && !keepOwner(CE, Before(), OT.getUnqualifiedType()))
    return nullptr;
  Expr *Self = IsThis ? S.BuildCXXThisExpr(B.Loc, OK->getType(), false)
                      : rebuild(OK, false, true);
  Expr *Call = B.memberCall(Self, MD->getDeclName(), NArgs, IsThis || Ptr);
  (void)Need;
  return hoistMethodCall(CE, PE, Call, RT);
}

QualType PullbackBuilder::mutatingResultType(const CallExpr *CE,
                                             const CXXMethodDecl *MD,
                                             const std::string &Name) {
  QualType RT = MD->getReturnType();
  // `v += w` returning `*this`: discarded, like a void call.
  if (returnsWritableReference(MD)) {
    if (!discarded(CE)) {
      unsupported(CE, "use of the reference returned by " + Name +
                          " (write the call as a statement of its own)");
      return QualType();
    }
    RT = Ctx.VoidTy;
  }
  if (!RT->isVoidType() && !isFloating(RT)) {
    unsupported(CE, "call to non-const member function " + Name +
                        " returning '" + RT.getAsString() + "'");
    return QualType();
  }
  return RT;
}

Expr *PullbackBuilder::hoistMethodCall(const CallExpr *CE, PullbackEntry *PE,
                                       Expr *Call, QualType RT) {
  CallPlan P;
  P.PE = PE;
  P.Hoisted = true;
  Expr *Value = hoistCall(CE, Call, RT, P.Seed);
  Plans[strip(CE)] = P;
  Stmts R;
  backpropMethodCall(CE, P.Seed ? B.ref(P.Seed) : nullptr, R);
  if (P.Seed)
    R.push_back(resetSeed(P.Seed));
  if (!Frames.empty())
    Frames.back().SideRev.push_back(std::move(R));
  return Value;
}

void PullbackBuilder::methodPullbackArgs(const CXXMethodDecl *MD,
                                         const PullbackEntry &PE,
                                         ArrayRef<const Expr *> Args,
                                         Expr *Adj, PullbackSignature &CS,
                                         SmallVectorImpl<Expr *> &CallArgs,
                                         Deferred &Later, Stmts &Out) {
  std::string Why;
  computeSignature(Ctx, MD, PE.Wrt, PE.Pullback->getName(), CS, Why);
  for (unsigned I = 0; I < MD->getNumParams(); ++I)
    CallArgs.push_back(I < Args.size() ? val(Args[I]) : nullptr);
  if (CS.SeedIndex >= 0)
    CallArgs.push_back(Adj);
  for (unsigned I = 0; I < MD->getNumParams(); ++I) {
    if (CS.AdjointIndex[I] < 0)
      continue;
    // Memory behind a pointer: its shadow.
    if (I < Args.size() &&
        classifyParam(Ctx, MD->getParamDecl(I)->getType()).Kind ==
            ParamKind::Pointer) {
      CallArgs.push_back(shadowPointer(*this, B, strip(Args[I])));
      continue;
    }
    if (I >= Args.size()) {
      CallArgs.push_back(nullptr);
      continue;
    }
    // An argument of another type (`P3(x, 2, y)`: an int for a double): a
    // local adjoint of the parameter's type, sent to the argument after.
    QualType AT =
        CS.ParamTypes[CS.AdjointIndex[I]]->getPointeeType().getUnqualifiedType();
    const Expr *AK = strip(Args[I]);
    // A temporary container (`a.dot({x, y})`): a local adjoint of its size.
    if (bracedVector(AK) &&
        temporaryObject(MD->getParamDecl(I)->getType(), AK)) {
      Expr *Zero = temporaryZero(AT, AK);
      VarDecl *G = Zero ? B.var(PB, fresh("_g"), AT, Zero) : nullptr;
      if (!G) {
        CallArgs.push_back(nullptr);
        continue;
      }
      Out.push_back(B.declStmt(G));
      CallArgs.push_back(B.addrOf(B.ref(G)));
      if (Act.isActive(AK))
        Later.push_back({Args[I], G});
      continue;
    }
    if (!Ctx.hasSameUnqualifiedType(
            AK->getType().getNonReferenceType(), AT) &&
        !AT->isRecordType()) {
      VarDecl *G = B.var(PB, fresh("_g"), AT, B.zero(AT));
      Out.push_back(B.declStmt(G));
      CallArgs.push_back(B.addrOf(B.ref(G)));
      if (Act.isActive(AK))
        Later.push_back({Args[I], G});
      continue;
    }
    // An element or member the method may write (`s.step(v[i])`): its
    // adjoint in and out, as a variable's (the value before the call gets
    // the adjoint, the written value's is used up).
    if (writableReference(MD->getParamDecl(I)->getType()) &&
        isElementAccess(AK) && Act.isActive(AK)) {
      CallArgs.push_back(B.addrOf(adjointElement(AK)));
      continue;
    }
    CallArgs.push_back(adjointTarget(Args[I], Out, Later, false));
  }
}

bool PullbackBuilder::partOfObjectArgRefused(const CXXMethodDecl *MD,
                                             const Expr *Obj,
                                             ArrayRef<const Expr *> Args) {
  // A reference to part of the object itself (`s.m(s.w)`): the pullback
  // keeps the parameter's adjoint apart from the object's.
  bool ThisO = false;
  const VarDecl *RO = Act.rootOf(Obj, ThisO);
  for (unsigned I = 0; I < MD->getNumParams() && I < Args.size(); ++I) {
    bool ThisA = false;
    if ((RO || ThisO) &&
        classifyParam(Ctx, MD->getParamDecl(I)->getType()).Kind ==
            ParamKind::ScalarRef &&
        Act.rootOf(Args[I], ThisA) == RO && ThisA == ThisO) {
      unsupported(Args[I], "call to '" + MD->getNameAsString() +
                               "' passing '" + spelledExpr(Ctx, Args[I]) +
                               "' by reference, which is part of the object "
                               "it is called on (pass a copy)");
      return true;
    }
  }
  return false;
}

bool PullbackBuilder::keptObject(const CallExpr *CE, VarDecl *&Self,
                                 Stmts &Out) {
  auto Kept = KeptObjects.find(CE);
  Self = Kept != KeptObjects.end() ? Kept->second : nullptr;
  auto KO = KeptOwners.find(CE);
  if (KO == KeptOwners.end())
    return true;
  // The object as it was at the call, taken back from the saved objects.
  QualType T = KO->second;
  Expr *Init = B.callRuntime("kept", {B.typeArg(T)}, {});
  Self = Init ? B.var(PB, fresh("_o"), T, Init) : nullptr;
  if (!Self) {
    Failed = true;
    return false;
  }
  Out.push_back(B.declStmt(Self));
  return true;
}

Expr *PullbackBuilder::objectAdjoint(const CallExpr *CE, const Expr *Obj,
                                     VarDecl *Self, Deferred &Later,
                                     Stmts &Out) {
  // The object's adjoint: d_this, its storage, or the element's.
  const Expr *K = strip(Obj);
  bool IsThis = false;
  const VarDecl *Root = pathRoot(K, IsThis);
  auto KeptIt = KeptObjects.find(CE);
  if (KeptIt != KeptObjects.end() && !Root && !IsThis) {
    // A temporary: a local adjoint, sent to what built it after the call.
    QualType OT = KeptIt->second->getType();
    VarDecl *G = B.var(PB, fresh("_g"), OT, B.zero(OT));
    Out.push_back(B.declStmt(G));
    // The object is evaluated before the arguments: its adjoint goes back
    // after theirs (split callees in both pop their frames in order).
    Later.insert(Later.begin(), {K, G});
    return B.addrOf(B.ref(G));
  }
  Expr *AdjObj = nullptr;
  if (isa<CXXThisExpr>(K))
    AdjObj = Sig.ThisIndex >= 0 ? B.ref(param(Sig.ThisIndex)) : nullptr;
  else if (K->getType()->isPointerType())
    // p->f(): the shadow of what p points to.
    AdjObj = shadowPointer(*this, B, K);
  else if (isElementAccess(K))
    AdjObj = B.addrOf(adjointElement(K));
  else if (Root && Act.isActive(Root))
    AdjObj = addressOf(adjointStorage(Root));
  return AdjObj ? AdjObj : scratchObjectAdjoint(Obj, Self, Out);
}

Expr *PullbackBuilder::scratchObjectAdjoint(const Expr *Obj, VarDecl *Self,
                                            Stmts &Out) {
  const Expr *K = strip(Obj);
  QualType OT = K->getType().getNonReferenceType().getUnqualifiedType();
  if (OT->isPointerType())
    OT = OT->getPointeeType().getUnqualifiedType();
  // (An object owning its elements: a copy of it, its floating data
  // zeroed, so that its sizes are the object's.)
  Expr *Init = isPlainRecord(OT) ? B.zero(OT) : nullptr;
  bool Owner = !Init && isElementOwner(OT);
  if (Owner)
    Init = Self                            ? B.ref(Self)
           : K->getType()->isPointerType() ? B.deref(rebuildObject(Obj))
                                           : rebuildObject(Obj);
  VarDecl *Z = B.var(PB, fresh("_z"), OT, Init);
  Out.push_back(B.declStmt(Z));
  if (Owner)
    zeroFloatingData(
        B, OT, [&]() -> Expr * { return B.ref(Z); }, Out);
  return B.addrOf(B.ref(Z));
}

void PullbackBuilder::backpropMethodCall(const CallExpr *CE, Expr *Adj,
                                         Stmts &Out) {
  const CXXMethodDecl *MD;
  const Expr *Obj;
  bool Arrow = false;
  SmallVector<const Expr *, 4> Args;
  if (!calledMethod(CE, MD, Obj, Arrow, Args))
    return;
  WrtMask Mask = objectMask(MD, Obj);
  PullbackEntry *PE =
      D.calleePullback(MD, CE->getExprLoc(), Entry, /*Queue=*/true, &Mask);
  if (!PE) {
    Failed = true;
    return;
  }
  if (partOfObjectArgRefused(MD, Obj, Args))
    return;
  PullbackSignature CS;
  SmallVector<Expr *, 8> CallArgs;
  Deferred Later;
  methodPullbackArgs(MD, *PE, Args, Adj, CS, CallArgs, Later, Out);
  VarDecl *Self;
  if (!keptObject(CE, Self, Out))
    return;
  if (CS.ThisIndex >= 0)
    CallArgs.push_back(objectAdjoint(CE, Obj, Self, Later, Out));
  for (Expr *A : CallArgs)
    if (!A) {
      Failed = true;
      return;
    }
  Out.push_back(B.memberCall(Self ? B.ref(Self) : rebuildObject(Obj),
                             PE->Pullback->getDeclName(), CallArgs,
                             Self ? false : Arrow));
  for (auto It = Later.rbegin(); It != Later.rend(); ++It)
    backprop(It->first, B.ref(It->second), Out);
}

} // namespace grad
