//===- Calls.cpp - Calls to differentiated functions ------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A call to a function with a visible body (or a `[[grad]]` or user
/// pullback) is differentiated through the callee's own derivative, in one
/// of two ways:
///
/// - *recompute*: the forward sweep calls the primal for its value, the
///   reverse sweep calls the callee's pullback, which replays the callee.
///   Only when the callee writes no memory and the memory it reads through
///   its arguments does not change before the reverse sweep.
/// - *split*: the forward sweep calls the callee's forward half (the primal
///   with its side effects, pushing what its reverse needs), the reverse
///   sweep its reverse half. For callees that write through pointer,
///   reference or container parameters (`axpy(n, a, x, y)`, `sq(&x)`,
///   `step(acc, u)`), for memory the caller overwrites later, and for deep
///   call chains (Split.cpp).
///
/// A call that writes memory is a side effect of its statement: it runs
/// before the statement and is reversed after it. Arguments may be any
/// pointer or lvalue expression (`&x`, `p + k * d`, `v.data()`, `&a[i]`,
/// `s.m`); the adjoint arguments are their shadows (Shadow.cpp). A variant
/// of the callee without the adjoints of memory that carries no derivative
/// at the call (`_grad_f_pullback_0110`) is generated when needed: no
/// scratch can stand in for memory of unknown extent.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "lift/Lift.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

/// Parameters passed as memory (pointers, references, objects).
static bool isMemoryKind(ParamKind K) {
  return K == ParamKind::Pointer || K == ParamKind::ScalarRef ||
         K == ParamKind::Class;
}

/// The argument for parameter \p I (a default argument's expression).
static const Expr *argFor(const CallExpr *CE, unsigned I) {
  if (I >= CE->getNumArgs())
    return nullptr;
  return CE->getArg(I);
}
static const Expr *argFor(ArrayRef<const Expr *> Args, unsigned I) {
  return I < Args.size() ? Args[I] : nullptr;
}

/// Whether a call passes a function, a function pointer or an object with a
/// call operator (a lambda, a functor).
static bool passesCallable(const CallExpr *CE) {
  for (const Expr *A : CE->arguments()) {
    QualType T = A->IgnoreParenImpCasts()->getType().getNonReferenceType();
    if (T->isFunctionType() || T->isFunctionPointerType())
      return true;
    if (const auto *RD = T->getAsCXXRecordDecl();
        RD && RD->hasDefinition() &&
        (RD->isLambda() ||
         !RD->lookup(RD->getASTContext().DeclarationNames
                         .getCXXOperatorName(OO_Call))
              .empty()))
      return true;
  }
  return false;
}

bool PullbackBuilder::memoryActive(const Expr *A) {
  if (!A)
    return false;
  if (Act.isActive(strip(A)))
    return true;
  bool IsThis = false;
  const VarDecl *R = Act.rootOf(A, IsThis);
  if (IsThis)
    return Act.ThisActive;
  if (R)
    return Act.isActive(R);
  // Memory of unknown origin: only a pointer or lvalue reaching floating
  // data could carry derivatives.
  return storageActive(A);
}

WrtMask PullbackBuilder::callMask(const FunctionDecl *FD,
                                  ArrayRef<const Expr *> Args) {
  WrtMask M = fullMask(FD);
  bool ConstantMemory = false;
  for (unsigned I = 0; I < FD->getNumParams() && I < M.size(); ++I) {
    if (!M[I])
      continue;
    ParamKind K = classifyParam(Ctx, FD->getParamDecl(I)->getType()).Kind;
    if (isMemoryKind(K) && !memoryActive(argFor(Args, I))) {
      M[I] = false;
      ConstantMemory = true;
    }
  }
  // Memory the caller keeps constant (`axpy(1, -1.0, &t[1], &t[0])` into a
  // scratch vector without derivatives): the callee writes only constants
  // there, and must not differentiate the constant scalars it writes with
  // (its adjoint would have nowhere to go). Other calls keep the scalars
  // in the mask, so that they share one variant.
  if (ConstantMemory)
    for (unsigned I = 0; I < FD->getNumParams() && I < M.size(); ++I)
      if (M[I] && classifyParam(Ctx, FD->getParamDecl(I)->getType()).Kind ==
                      ParamKind::Scalar)
        if (const Expr *A = argFor(Args, I); A && !Act.isActive(strip(A)))
          M[I] = false;
  return M;
}

WrtMask PullbackBuilder::objectMask(const FunctionDecl *MD, const Expr *Obj) {
  WrtMask M = fullMask(MD);
  if (hasThisAdjoint(MD) && M.size() > MD->getNumParams() && Obj &&
      !isa<CXXThisExpr>(strip(Obj)) && !memoryActive(Obj))
    M.back() = false;
  return M;
}

bool PullbackBuilder::temporaryObject(QualType PT, const Expr *K) const {
  QualType T = PT.getNonReferenceType();
  if (PT->isLValueReferenceType() && !T.isConstQualified())
    return false;
  // A number bound to `double &&` (`std::exchange(prev, y * y)`): what
  // the callee leaves in it is dropped, its adjoint starts at zero.
  if (PT->isRValueReferenceType() && isFloating(T))
    return !K->isGLValue();
  // (Also `std::vector<double>{x, y}`, kept whole, its adjoint a local
  // vector of as many zeros, and `std::array<double, 2>{x, y}`.)
  // (A std::array or std::vector of numbers a call returns,
  // `dot(cross(a, b), c)`, `total(squares(v))`, likewise.)
  bool Braced = bracedVector(K) ||
                (isStdClass(T, "array") &&
                 (isa<InitListExpr>(K) || isa<CallExpr>(K))) ||
                (isStdClass(T, "vector") && isa<CallExpr>(K) &&
                 hasFloatingData(T));
  return (isPlainStruct(T) || Braced) && !isa<DeclRefExpr>(K) &&
         !isElementAccess(K) && !K->isGLValue();
}

Expr *PullbackBuilder::temporaryZero(QualType T, const Expr *K) {
  if (const InitListExpr *IL = bracedVector(K))
    return B.construct(T, {B.intLit(IL->getNumInits(), Ctx.getSizeType())},
                       /*List=*/false);
  // A vector a call returned: zeros of its size (and shape, if nested).
  if (isStdClass(T, "vector"))
    return B.callRuntime("zero_like", {}, {val(K)});
  return B.zero(T);
}

bool PullbackBuilder::discarded(const Expr *E) {
  const Facts &St = Facts::get(Ctx);
  St.noteStatementCalls(Primal->getBody());
  return St.StatementCalls.count(E) != 0;
}

bool PullbackBuilder::userCallRefused(const CallExpr *CE,
                                      const FunctionDecl *FD, bool IntoArg) {
  if (FD->isVariadic()) {
    unsupported(CE,
                "call to variadic function '" + nameOf(FD) + "'");
    return true;
  }
  // `acc += v` with `V &operator+=(V &, const V &)`: the reference it
  // returns has no derivative of its own; only discarded uses are known.
  // A reference into an argument, computed by the callee, binds a local
  // reference that aliases that argument (pointedArg).
  if (returnsWritableReference(FD) && !IntoArg && !discarded(CE)) {
    unsupported(CE, "use of the reference returned by '" +
                        nameOf(FD) +
                        "' (write the call as a statement of its "
                        "own)");
    return true;
  }
  // Iterators (and other objects holding a pointer) into differentiated
  // memory, passed by value: the callee's writes through them have no
  // shadow to go to.
  for (unsigned I = 0; I < FD->getNumParams() && I < CE->getNumArgs(); ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    const auto *RD = PT.getNonReferenceType()->getAsCXXRecordDecl();
    bool Span = RD && RD->isInStdNamespace() && RD->getIdentifier() &&
                RD->getName() == "span";
    if (PT->isRecordType() && !Span && holdsWritablePointer(PT) &&
        memoryActive(CE->getArg(I))) {
      // With a callable beside it (`transform(..., f)`), pointers would
      // only meet the next refusal: the callable.
      unsupported(CE->getArg(I),
                  "iterator '" + spelled(CE->getArg(I)) + "' passed to '" +
                      nameOf(FD) +
                      (passesCallable(CE)
                           ? "' (write the loop)"
                           : "' (write the loop, or pass a pointer such as "
                             "v.data())"));
      return true;
    }
  }
  // An object holding a pointer into differentiated memory (`View{a, n}`):
  // no adjoint goes through it.
  for (const Expr *A : CE->arguments())
    if (holdsFloatingPointer(A->getType()) && Act.reachesActive(A)) {
      unsupported(A, "argument '" + spelled(A) + "' of type '" +
                         A->getType().getNonReferenceType().getAsString(
                             Ctx.getPrintingPolicy()) +
                         "' holding a pointer into differentiated "
                         "memory (pass the pointer itself)");
      return true;
    }
  // A lambda handed to a library algorithm (`std::transform(a, a + n, b,
  // [](double v) { ... })`): refused here, before the callee is
  // differentiated. (Passed to the user's function templates, the call
  // reaches here as a call of the callee's view, driver/CallableViews.h;
  // a lambda left here was refused there, with the reason.)
  for (const Expr *A : CE->arguments())
    if (findLambda(A)) {
      unsupported(A, lambdaPassed(Ctx, A, FD,
                                  FD->isInStdNamespace() ? "(write the loop)"
                                                         : ""));
      return true;
    }
  return false;
}

bool PullbackBuilder::planUserCall(const CallExpr *CE, const FunctionDecl *FD,
                                   bool IntoArg, CallPlan &P) {
  SourceLocation Loc = CE->getExprLoc();
  WrtMask Mask = callMask(FD, {CE->getArgs(), CE->getNumArgs()});
  PullbackEntry *PE =
      D.calleePullback(FD, Loc, Entry, /*Queue=*/false, &Mask);
  if (!PE) {
    Failed = true;
    return false;
  }
  P.PE = PE;
  // (The forward half returns the reference as a pointer: held in a
  // temporary of its own.)
  P.Hoisted = writtenStorage(CE) != nullptr || IntoArg;
  P.Split = P.Hoisted || D.useSplit(*PE, Loc) ||
            memoryUnstable(FD, {CE->getArgs(), CE->getNumArgs()});
  // Beside a call that writes memory, a split call is hoisted too: the
  // stack is popped in the reverse of the order it was pushed.
  if (P.Split && !P.Hoisted && !Frames.empty() && Frames.back().HoistSplits) {
    if (NoHoist) {
      unsupported(CE, "call to '" + nameOf(FD) +
                          "' next to a call that writes memory, " + NoHoistWhy +
                          " (write them as statements "
                          "of their own)");
      return false;
    }
    P.Hoisted = true;
  }
  if (P.Split && PE->UserProvided) {
    unsupported(CE, "call to '" + nameOf(FD) +
                        "' through its user " +
                        "pullback, which would run after the memory it reads " +
                        "or writes has changed (give the function a body the " +
                        "plugin can see, or a user pullback without memory " +
                        "parameters)");
    return false;
  }
  if (P.Split) {
    PE = P.PE = stableHalves(CE, *PE);
    D.ensureHalves(*PE);
  } else {
    D.queue(PE);
  }
  if (P.Hoisted && NoHoist) {
    unsupported(CE, "call to '" + nameOf(FD) +
                        "', which writes memory, " + NoHoistWhy);
    return false;
  }
  return true;
}

void PullbackBuilder::userCallArgs(const CallExpr *CE, const FunctionDecl *FD,
                                   const CallPlan &P,
                                   SmallVectorImpl<Expr *> &Args) {
  // The arguments: values the reverse sweep passes again are recorded;
  // memory arguments record what their shadows (and, for a recomputing
  // pullback, their re-reads) need.
  const PullbackEntry *PE = P.PE;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    // Sema adds default arguments again to a call of FD, but the halves
    // of a split derivative have none (`std::prev(p)`): a constant one is
    // passed as written.
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(A)) {
      if (!DA->getExpr()->isEvaluatable(Ctx))
        break;
      A = DA->getExpr();
    }
    QualType PT = I < FD->getNumParams() ? FD->getParamDecl(I)->getType()
                                         : A->getType();
    bool Memory = PT->isPointerType() || PT->isReferenceType() ||
                  (PT->isRecordType() && hasFloatingData(PT));
    if (!Memory) {
      Args.push_back(rebuild(A, /*Need=*/true, false));
      continue;
    }
    bool NeedIdx = (I < PE->Wrt.size() && PE->Wrt[I]) || !P.Split ||
                   (I < PE->Stable.size() && PE->Stable[I]);
    const Expr *K = strip(A);
    if (temporaryObject(PT, K)) {
      // A temporary struct (`Vec3(y, x, x)`, `{a, b}`, `make(x)`): its
      // value is kept for the reverse sweep, its adjoint is a local.
      Expr *R = rebuild(A, false, !Act.isActive(K));
      // (Also when it carries no derivative: the reverse sweep passes it
      // again, and the variables it was built from may have changed.)
      Expr *Kept = record(K, R);
      // A callee taking `double &&` may change it (`a *= b`): the call
      // gets a copy, the reverse sweep the value it was given.
      if (Kept && PT->isRValueReferenceType() &&
          !PT.getNonReferenceType().isConstQualified())
        Kept = B.staticCast(PT.getNonReferenceType().getUnqualifiedType(),
                            Kept);
      Args.push_back(Kept);
    } else if (PT->isRecordType() && !isa<DeclRefExpr>(K) &&
               !isElementAccess(K))
      Args.push_back(rebuild(A, false, true)); // a temporary object
    else
      Args.push_back(rebuildBase(K, NeedIdx));
  }
}

Expr *PullbackBuilder::rebuildUserCall(const CallExpr *CE,
                                       const FunctionDecl *FD, bool Need) {
  bool IntoArg = returnsWritableReference(FD) && pointedArg(CE);
  CallPlan P;
  if (userCallRefused(CE, FD, IntoArg) || !planUserCall(CE, FD, IntoArg, P))
    return nullptr;
  SmallVector<Expr *, 6> Args;
  userCallArgs(CE, FD, P, Args);
  if (Failed)
    return nullptr;
  Plans[strip(CE)] = P;
  if (!P.Split) {
    Expr *R = B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Args);
    return Need ? record(CE, R) : verifyCallValue(CE, FD, R);
  }
  VarDecl *St = stackVar();
  if (!St)
    return nullptr;
  // The forward half pushes its frame on the caller's stack.
  if (P.PE->HalvesTakeStack)
    Args.push_back(B.ref(St));
  Expr *Call = B.call(B.funcRef(P.PE->Fwd), Args);
  if (!P.Hoisted)
    // Always recorded: the forward half must run even when the reverse
    // sweep does not read the value (unless a declaration keeps it).
    return CE == DeclaredCall && !Need ? Call : record(CE, Call);
  return hoistUserCall(CE, FD, Call, IntoArg);
}

Expr *PullbackBuilder::hoistUserCall(const CallExpr *CE, const FunctionDecl *FD,
                                     Expr *Call, bool IntoArg) {
  // A side effect of the statement: the forward half now, its reverse
  // after the statement's own reverse.
  QualType RT = FD->getReturnType();
  Expr *Value = hoistCall(
      CE, Call,
      IntoArg ? Ctx.getPointerType(RT.getNonReferenceType())
      : returnsWritableReference(FD) ? Ctx.VoidTy
                                     : RT,
      Plans[strip(CE)].Seed);
  // (Refused: nothing of the call is built further.)
  if (!Value && Failed)
    return nullptr;
  if (IntoArg && Value)
    Value = B.deref(Value);
  // Containers the callee may have resized: their local shadows follow.
  for (unsigned I = 0; I < FD->getNumParams() && I < CE->getNumArgs(); ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
      resizeShadow(CE->getArg(I), *Cur);
  }
  Stmts R;
  VarDecl *Seed = Plans[strip(CE)].Seed;
  backpropUserCall(CE, Seed ? B.ref(Seed) : nullptr, R);
  if (Seed)
    R.push_back(resetSeed(Seed));
  if (!Frames.empty())
    Frames.back().SideRev.push_back(std::move(R));
  return Value;
}

Expr *PullbackBuilder::hoistCall(const CallExpr *CE, Expr *Call, QualType RT,
                                 VarDecl *&Seed) {
  if (RT->isVoidType()) {
    Cur->push_back(Call);
    return nullptr;
  }
  QualType T = RT.getNonReferenceType().getUnqualifiedType();
  if (T->isRecordType())
    T = T.getCanonicalType().getUnqualifiedType();
  const auto *RD = T->getAsCXXRecordDecl();
  bool Sized = hasFloatingData(T) &&
               (shadowIsCopy(T) || isStdClass(T, "vector") || isGradTensor(T));
  if ((RD && RD->hasDefinition() && !RD->hasDefaultConstructor() &&
       !isPlainRecord(T)) ||
      (Sized && !Loops.empty()) || (isTuple(T) && hasFloatingData(T)))
    return unsupported(CE, "value of " + spelled(CE) + ", of type '" +
                               T.getAsString(Ctx.getPrintingPolicy()) +
                               "', returned by a call that also writes "
                               "through its arguments" +
                               (Loops.empty() ? "" : ", inside a loop") +
                               (isTuple(T) ? " (return a struct or a "
                                             "std::pair, or return it "
                                             "through a reference parameter)"
                                           : " (return it through a "
                                             "reference parameter)"));
  VarDecl *V = hoist("_t", T);
  Cur->push_back(B.assign(B.ref(V), Call));
  Values[strip(CE)] = V;
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(V);
  std::string Name = "_d" + V->getName().str();
  if (isFloating(T)) {
    Seed = B.var(PB, fresh(Name), T, B.zero(T));
    Prologue.push_back(B.declStmt(Seed));
  } else if (Sized && shadowIsCopy(T)) {
    // The returned object's adjoint: shaped like the value.
    VarDecl *Slot;
    std::tie(Slot, Seed) = shadowSlot(Name, T);
    if (!Slot)
      return nullptr;
    copyShadow(Slot, B.ref(V), T, [&]() -> Expr * { return B.ref(Seed); },
               *Cur);
  } else if (Sized) {
    // A vector or a tensor.
    Seed = B.var(PB, fresh(Name), T, nullptr);
    Prologue.push_back(B.declStmt(Seed));
    Cur->push_back(zeroShapedLike(B.ref(Seed), B.ref(V), T));
  } else if (hasFloatingData(T)) {
    // Structs, std::array, std::complex, pairs: zero.
    Seed = B.var(PB, fresh(Name), T,
                 isPlainRecord(T) ? recordZero(B, T) : B.emptyInitList());
    Prologue.push_back(B.declStmt(Seed));
  }
  return B.ref(V);
}

Stmt *PullbackBuilder::resetSeed(VarDecl *Seed) {
  QualType T = Seed->getType().getNonReferenceType();
  if (isFloating(T))
    return B.assign(B.ref(Seed), B.zero(T));
  if (isElementOwner(T)) {
    Stmts Z;
    zeroFloatingData(B, T, [&]() -> Expr * { return B.ref(Seed); }, Z);
    return B.block(Z);
  }
  return B.callRuntime("zero", {}, {B.ref(Seed)});
}

/// What backpropUserCall passes for the parameters with adjoints, and what
/// it does after the call.
struct PullbackBuilder::CallAdjoints {
  SmallVector<Expr *, 8> Args;
  /// Locals receiving adjoints of values, sent on to their arguments.
  SmallVector<std::pair<const Expr *, VarDecl *>, 4> Outs;
  /// Statements after the call (adjoints given back to shared memory).
  Stmts After;
};

void PullbackBuilder::backpropUserCall(const CallExpr *CE, Expr *Adj,
                                       Stmts &Out) {
  auto It = Plans.find(strip(CE));
  if (It == Plans.end()) {
    unsupported(CE, "call (internal error: not planned)");
    return;
  }
  CallPlan P = It->second;
  const FunctionDecl *FD = CE->getDirectCallee();
  PullbackEntry *PE = P.PE;
  FunctionDecl *Target = P.Split ? PE->Rev : PE->Pullback;
  PullbackSignature CS;
  std::string Why;
  computeSignature(Ctx, FD, PE->Wrt, Target->getName(), CS, Why);
  CallAdjoints CA;
  if (!userCallValues(CE, FD, P, CA.Args))
    return;
  if (CS.SeedIndex >= 0) {
    if (!Adj) {
      QualType ST = CS.ParamTypes[CS.SeedIndex].getNonReferenceType();
      Adj = B.zero(ST.getUnqualifiedType());
    }
    CA.Args.push_back(Adj);
  }
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (CS.AdjointIndex[I] >= 0 &&
        !adjointArgument(CE, FD, I,
                         CS.ParamTypes[CS.AdjointIndex[I]]->getPointeeType(),
                         CA, Out))
      return;
  if (P.Split && PE->HalvesTakeStack) {
    // The reverse half pops its frame from the caller's stack.
    VarDecl *St = stackVar();
    if (!St) {
      Failed = true;
      return;
    }
    CA.Args.push_back(B.ref(St));
  }
  if (!P.Split)
    verifyRecall(CE, P, Out);
  Out.push_back(B.call(B.funcRef(Target), CA.Args));
  Out.insert(Out.end(), CA.After.begin(), CA.After.end());
  for (auto I = CA.Outs.rbegin(); I != CA.Outs.rend(); ++I)
    backprop(I->first, B.ref(I->second), Out);
}

bool PullbackBuilder::userCallValues(const CallExpr *CE, const FunctionDecl *FD,
                                     const CallPlan &P,
                                     SmallVectorImpl<Expr *> &Args) {
  // The values the call was made with, as recorded.
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *Param = FD->getParamDecl(I);
    if (P.Split && !P.PE->reverseHalfTakes(I))
      continue;
    const Expr *A = argFor(CE, I);
    if (!A) {
      unsupported(CE, "call with a missing argument (internal error)");
      return false;
    }
    QualType PT = Param->getType();
    bool Memory = PT->isPointerType() || PT->isReferenceType() ||
                  (PT->isRecordType() && hasFloatingData(PT));
    if (temporaryObject(PT, strip(A)))
      Args.push_back(val(A));
    else
      Args.push_back(Memory ? valBase(copiedObject(A)) : val(A));
  }
  return true;
}

bool PullbackBuilder::adjointArgument(const CallExpr *CE,
                                      const FunctionDecl *FD, unsigned I,
                                      QualType AT, CallAdjoints &CA,
                                      Stmts &Out) {
  const Expr *A = argFor(CE, I);
  ParamKind K = classifyParam(Ctx, FD->getParamDecl(I)->getType()).Kind;
  if (K == ParamKind::ScalarRef) {
    bool Done = false;
    if (!sharedRefAdjoint(CE, FD, I, AT, CA, Out, Done))
      return false;
    if (Done)
      return true;
  }
  if (K == ParamKind::Scalar ||
      temporaryObject(FD->getParamDecl(I)->getType(), strip(A))) {
    // A value: its adjoint comes back in a local, sent on to the argument
    // after the call.
    QualType OT = K == ParamKind::Scalar ? AT : AT.getUnqualifiedType();
    Expr *Zero =
        K == ParamKind::Scalar ? B.zero(AT) : temporaryZero(OT, strip(A));
    if (!Zero) {
      Failed = true;
      return false;
    }
    VarDecl *G = B.var(PB, fresh("_g"), OT, Zero);
    Out.push_back(B.declStmt(G));
    CA.Args.push_back(B.addrOf(B.ref(G)));
    CA.Outs.push_back({A, G});
    return true;
  }
  // Memory: its shadow, in/out for what the callee writes.
  Expr *Sh = K == ParamKind::Pointer
                 ? shadowPointer(*this, B, strip(A))
                 : addressOf(shadowLValue(*this, B, copiedObject(A)));
  if (!Sh) {
    Failed = true;
    return false;
  }
  CA.Args.push_back(Sh);
  return true;
}

bool PullbackBuilder::sharedRefArgumentError(const CallExpr *CE,
                                             const FunctionDecl *FD,
                                             const Expr *A,
                                             const ParmVarDecl *Other,
                                             bool Maybe) {
  bool Lambda = FD->getName().starts_with("_grad_lambda_");
  // (A lifted call's capture arguments have no source of their own.)
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(A));
  std::string Spelled =
      Lambda && DRE ? DRE->getDecl()->getNameAsString() : spelledExpr(Ctx, A);
  unsupported(A,
              (Lambda ? std::string("call of a lambda capturing '")
                      : "call to '" + nameOf(FD) + "' passing '") +
                  Spelled + "' by reference and " +
                  (Maybe ? "memory that may be the same" : "the same memory") +
                  " through " + (Lambda ? "'" : "its parameter '") +
                  Other->getNameAsString() +
                  "' (the derivative would take them for "
                  "different memory: pass a copy)");
  return false;
}

bool PullbackBuilder::sharedRefAdjoint(const CallExpr *CE,
                                       const FunctionDecl *FD, unsigned I,
                                       QualType AT, CallAdjoints &CA,
                                       Stmts &Out, bool &Done) {
  // Passed by reference and also through another argument (`h(t, &t)`,
  // a lambda capturing `t` and a pointer to it): the callee's pullback
  // keeps the two adjoints apart (a local copy of this one, stored back
  // at the end), so it gets its own, and the memory's adjoint is zeroed
  // for what the other argument adds and gets this one's added after.
  const Expr *A = argFor(CE, I);
  const ParmVarDecl *Other = nullptr;
  bool Maybe = false;
  if (!sharedRefArgument(CE, FD, I, Other, Maybe))
    return Other ? sharedRefArgumentError(CE, FD, A, Other, Maybe) : true;
  Expr *Sh = shadowLValue(*this, B, copiedObject(A));
  if (!Sh) {
    Failed = true;
    return false;
  }
  VarDecl *G = B.var(PB, fresh("_g"), AT, Sh);
  Out.push_back(B.declStmt(G));
  Out.push_back(B.assign(shadowLValue(*this, B, copiedObject(A)), B.zero(AT)));
  CA.Args.push_back(B.addrOf(B.ref(G)));
  CA.After.push_back(
      B.addAssign(shadowLValue(*this, B, copiedObject(A)), B.ref(G)));
  Done = true;
  return true;
}

/// Two element or member accesses of one storage that cannot be the same
/// element: `v[0]` and `v[1]`, `s.a` and `s.b`, `m[0][k]` and `m[1][k]`.
static bool distinctElements(ASTContext &Ctx, const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  auto Sub = [](const Expr *E, const Expr *&Base, const Expr *&Idx) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      Base = AS->getBase();
      Idx = AS->getIdx();
      return true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
        Base = OC->getArg(0);
        Idx = OC->getArg(1);
        return true;
      }
    return false;
  };
  const Expr *BA, *IA, *BB, *IB;
  if (Sub(A, BA, IA) && Sub(B, BB, IB)) {
    std::optional<llvm::APSInt> VA = IA->getIntegerConstantExpr(Ctx),
                                VB = IB->getIntegerConstantExpr(Ctx);
    if (VA && VB && llvm::APSInt::compareValues(*VA, *VB) != 0 &&
        spelledExpr(Ctx, BA) == spelledExpr(Ctx, BB))
      return true;
    return distinctElements(Ctx, BA, BB);
  }
  const auto *MA = dyn_cast<MemberExpr>(A), *MB = dyn_cast<MemberExpr>(B);
  if (MA && MB) {
    if (MA->getMemberDecl() != MB->getMemberDecl())
      return spelledExpr(Ctx, MA->getBase()) ==
             spelledExpr(Ctx, MB->getBase());
    return distinctElements(Ctx, MA->getBase(), MB->getBase());
  }
  return false;
}

bool PullbackBuilder::sharedRefArgument(const CallExpr *CE,
                                        const FunctionDecl *FD, unsigned I,
                                        const ParmVarDecl *&Writer,
                                        bool &Maybe) {
  Writer = nullptr;
  Maybe = false;
  // std::swap exchanges: with both references to one element it changes
  // nothing, and its derivative (an exchange of adjoints) is right then too.
  if (FD->isInStdNamespace() && FD->getIdentifier() && FD->getName() == "swap")
    return false;
  bool ThisI = false;
  const VarDecl *RI = Act.rootOf(argFor(CE, I), ThisI);
  // Storage that a pointer into one of several storages (`p = &x; ...
  // p = &z;`, `c ? &x : &z`) may reach is possibly the same memory.
  SmallVector<const VarDecl *, 2> ReachI = Act.mayReach(argFor(CE, I));
  auto MayShare = [&](const Expr *AJ) {
    if (ThisI)
      return false;
    for (const VarDecl *R : Act.mayReach(AJ))
      if (llvm::is_contained(ReachI, R))
        return true;
    return false;
  };
  if (!RI && !ThisI && ReachI.empty())
    return false;
  bool Shared = false;
  for (unsigned J = 0; J < FD->getNumParams(); ++J) {
    QualType T = FD->getParamDecl(J)->getType();
    if (J == I || !(T->isPointerType() || T->isReferenceType()))
      continue;
    if (T->isReferenceType() && T.getNonReferenceType()->isPointerType())
      T = T.getNonReferenceType(); // (a lambda's pointer captured by ref)
    QualType P = T->isPointerType() ? T->getPointeeType()
                                    : T.getNonReferenceType();
    if (!isFloating(P) && !hasFloatingData(P))
      continue;
    const Expr *AJ = argFor(CE, J);
    bool ThisJ = false;
    const VarDecl *RJ = AJ ? Act.rootOf(AJ, ThisJ) : nullptr;
    bool MaybeJ = true;
    if (RJ != RI || ThisJ != ThisI || (!RI && !ThisI)) {
      // Other storages: one a pointer among them may reach.
      if (!AJ || ThisJ || !MayShare(AJ))
        continue;
    } else {
      // Surely the same memory: a scalar variable, or the same lvalue (`t`
      // and `&t`). Otherwise an element or member of the same storage and
      // another reference or pointer into it: the same memory unless both
      // are elements known to differ (`v[0]`, `v[1]`); a pointer may reach
      // any element.
      std::string SI = spelledExpr(Ctx, argFor(CE, I)),
                  SJ = spelledExpr(Ctx, AJ);
      MaybeJ = !(RI && RI->getType()->isArithmeticType()) && SJ != SI &&
               SJ != "&" + SI;
      bool OneElement = FD->getParamDecl(J)->getType()->isReferenceType() &&
                        isFloating(P);
      if (MaybeJ && OneElement && distinctElements(Ctx, argFor(CE, I), AJ))
        continue;
    }
    // Two references to numbers that may be the same (`upd(v[i], v[j])`),
    // one of them not const (its adjoint is stored back, not added): the
    // callee's pullback checks at its entry, always, that they are not
    // (distinctChecks; the same exactly when they start at one address).
    if (MaybeJ && distinctScalarRefs(Ctx, FD->getParamDecl(I)->getType(),
                                     FD->getParamDecl(J)->getType()))
      continue;
    // If the callee writes anything, its derivative would take a write
    // through one for none through the other: an error.
    if (!P.isConstQualified() || !writesNothing(FD)) {
      Writer = FD->getParamDecl(J);
      Maybe = MaybeJ;
      return false;
    }
    Shared = true;
  }
  return Shared;
}

const CallExpr *PullbackBuilder::lambdaCall(const CallExpr *CE) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!OC || OC->getOperator() != OO_Call || OC->getNumArgs() < 1)
    return CE;
  const LambdaExpr *L = findLambda(OC->getArg(0));
  if (!L)
    return CE;
  auto Known = LambdaCalls.find(CE);
  if (Known != LambdaCalls.end())
    return Known->second;
  LambdaInfo *Info = D.lambdaInfo(OC->getArg(0), Entry, OC->getDirectCallee());
  if (!Info) {
    Failed = true;
    return nullptr;
  }
  std::string Name = "lambda";
  if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(OC->getArg(0))))
    Name = "lambda '" + DRE->getDecl()->getNameAsString() + "'";
  // What the closure copied is read from the derivative's copies made at
  // the lambda (declareCaptureCopies), not from the variables at the call.
  SmallVector<const VarDecl *, 2> Copied;
  for (const auto &[Key, C] : CaptureCopies)
    if (Key.first == L)
      Copied.push_back(Key.second);
  std::string Why = copiedCaptureProblem(L, OC->getArg(0), Copied, Name);
  if (!Why.empty())
    return unsupported(CE, Why);
  FunctionDecl *Fn = D.liftFunction(*Info, 0, Entry);
  if (!Fn) {
    Failed = true;
    return nullptr;
  }
  // Its arguments as written, then the captured variables.
  SmallVector<Expr *, 6> Args;
  for (unsigned I = 1; I < OC->getNumArgs(); ++I)
    Args.push_back(const_cast<Expr *>(OC->getArg(I)));
  for (const LiftedCapture &C : Info->Caps) {
    if (C.This) {
      // `*this`, as the primal would write it.
      const auto *MD = dyn_cast<CXXMethodDecl>(Primal);
      if (!MD || MD->isStatic())
        return unsupported(CE, "call of " + Name + " capturing 'this'");
      Expr *This = CXXThisExpr::Create(Ctx, CE->getExprLoc(),
                                       MD->getThisType(), /*IsImplicit=*/true);
      Args.push_back(UnaryOperator::Create(
          Ctx, This, UO_Deref, MD->getThisType()->getPointeeType(),
          VK_LValue, OK_Ordinary, CE->getExprLoc(), false,
          FPOptionsOverride()));
      continue;
    }
    auto Copy = C.ByRef ? CaptureCopies.end() : CaptureCopies.find({L, C.Var});
    VarDecl *V = Copy != CaptureCopies.end() ? Copy->second : C.Var;
    Args.push_back(DeclRefExpr::Create(
        Ctx, NestedNameSpecifierLoc(), SourceLocation(), V, false,
        CE->getExprLoc(), V->getType().getNonReferenceType(), VK_LValue));
  }
  SourceLocation Saved = B.Loc;
  B.Loc = CE->getExprLoc();
  Expr *Call = B.call(B.funcRef(Fn), Args);
  B.Loc = Saved;
  const auto *Lifted = dyn_cast_or_null<CallExpr>(Call);
  if (!Lifted)
    return unsupported(CE, "call of " + Name);
  LambdaCalls[CE] = Lifted;
  return Lifted;
}

bool PullbackBuilder::hasHoistedCall(const Stmt *St) {
  if (!St || isa<LambdaExpr>(St))
    return false;
  // Only the statement's own expressions: nested statements get frames of
  // their own.
  if (const auto *IS = dyn_cast<IfStmt>(St))
    return hasHoistedCall(IS->getInit()) ||
           hasHoistedCall(IS->getConditionVariableDeclStmt()) ||
           hasHoistedCall(IS->getCond());
  if (const auto *SS = dyn_cast<SwitchStmt>(St))
    return hasHoistedCall(SS->getInit()) ||
           hasHoistedCall(SS->getConditionVariableDeclStmt()) ||
           hasHoistedCall(SS->getCond());
  if (!isa<Expr, DeclStmt, ReturnStmt>(St))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(St)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (writtenStorage(CE) ||
        (FD && returnsWritableReference(FD) && pointedArg(CE)))
      return true;
  }
  for (const Stmt *C : St->children())
    if (C && isa<Expr>(C) && hasHoistedCall(C))
      return true;
  return false;
}

} // namespace grad
