//===- Map.cpp - grad::map, grad::broadcast and reductions ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The runtime primitives inside [[grad]] functions. map and broadcast are
/// replayed through the lifted element function; their adjoints go through
/// grad::detail::tangent_pullback (forward lowering: dual numbers, one
/// fused pass) or grad::detail::reverse_pullback (reverse lowering: the
/// element function's pullback, which also accumulates captured adjoints).
/// sum(map(...)) passes a scalar seed: no array of ones. sum, dot and matmul
/// call the runtime's NAME_pullback.
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

static const Expr *stripE(const Expr *E) { return stripExpr(E); }

StringRef PullbackBuilder::runtimeName(const CallExpr *CE) const {
  return runtimePrimitive(CE);
}


Expr *PullbackBuilder::rebuildRuntime(const CallExpr *CE, StringRef Name,
                                      bool Need, bool Plain) {
  if (Name != "map" && Name != "broadcast")
    return rebuildReduction(CE, Name, Need, Plain);
  LambdaInfo *Info = D.lambdaInfo(CE->getArg(0), Entry);
  if (!Info) {
    Failed = true;
    return nullptr;
  }
  // (A local lambda called directly may use pointers: it is lifted and
  // differentiated like a helper. The element functions of map and
  // broadcast take numbers and their adjoints only.)
  if (const Expr *P = Info->Callee->hasBody()
                          ? pointerOperation(Info->Callee->getBody())
                          : nullptr)
    return unsupported(P, "pointer operation '" + spelledExpr(Ctx, P) +
                              "' in the callable passed to 'grad::" +
                              Name.str() +
                              "' (read the value into a local before the "
                              "call)");
  bool Active = !Plain && Act.isActive(stripE(CE));
  if (D.options().Remarks && !Remarked.count(Info)) {
    Remarked.insert(Info);
    remarkMapLowering(CE, *Info, Name);
  }
  if (Active && Info->Kind == Lowering::Stateful &&
      statefulCapturesRefused(CE, *Info, Name))
    return nullptr;
  FunctionDecl *Elem = D.liftFunction(*Info, 0, Entry);
  if (!Elem) {
    Failed = true;
    return nullptr;
  }
  Expr *Callable = mapCallable(CE, *Info, Elem, Active);
  if (!Callable)
    return nullptr;
  SmallVector<Expr *, 4> Args{Callable};
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    Args.push_back(rebuild(CE->getArg(I), Active, !Active));
  Expr *R = B.callGrad(Name, Args);
  if (Need || (Info->Kind == Lowering::Stateful && !Plain))
    return record(CE, R);
  return R;
}

Expr *PullbackBuilder::rebuildReduction(const CallExpr *CE, StringRef Name,
                                        bool Need, bool Plain) {
  // sum(map(...)) needs neither the map's value nor its array of ones.
  const auto *Inner = CE->getNumArgs() == 1
                          ? dyn_cast<CallExpr>(stripE(CE->getArg(0)))
                          : nullptr;
  bool Fused =
      Name == "sum" && Inner &&
      (runtimeName(Inner) == "map" || runtimeName(Inner) == "broadcast");
  SmallVector<Expr *, 3> Args;
  for (const Expr *A : CE->arguments())
    Args.push_back(rebuild(A, !Plain && !Fused, Plain));
  Expr *R = B.callGrad(Name, Args);
  return Need ? record(CE, R) : R;
}

void PullbackBuilder::remarkMapLowering(const CallExpr *CE,
                                        const LambdaInfo &Info,
                                        StringRef Name) {
  SourceLocation L = CE->getArg(0)->getExprLoc();
  if (!hasFloatingData(CE->getType()) && !isFloating(CE->getType()))
    report(S.Diags, Diag::RemarkNoDerivative, L)
        << ("grad::" + Name).str() << nameOf(Primal);
  else
    report(S.Diags, Diag::RemarkLowering, L)
        << (Info.Kind == Lowering::Forward ? "forward" : "reverse")
        << ("grad::" + Name).str() << nameOf(Primal) << Info.Reason;
}

bool PullbackBuilder::statefulCapturesRefused(const CallExpr *CE,
                                              const LambdaInfo &Info,
                                              StringRef Name) {
  // A stateful callable's reverse sweep restores, for each element, the
  // values of what it changes from a tape of numbers (bind_record): other
  // state (a counter, a vector, the object) would be seen with its final
  // value by every element.
  for (const LiftedCapture &C : Info.Caps) {
    QualType T = C.This ? QualType() : C.Var->getType().getNonReferenceType();
    if (!C.Written || (!C.This && isFloating(T.getUnqualifiedType())))
      continue;
    unsupported(
        CE->getArg(0),
        "callable passed to 'grad::" + Name.str() + "' that changes '" +
            C.name() + "'" +
            (C.This ? std::string(" (its object)")
                    : ", of type '" + T.getAsString(Ctx.getPrintingPolicy()) +
                          "'") +
            " (the reverse sweep restores only the floating-point "
            "numbers a callable changes, element by element: write this "
            "loop in the function)");
    return true;
  }
  return false;
}

Expr *PullbackBuilder::mapCallable(const CallExpr *CE, const LambdaInfo &Info,
                                   FunctionDecl *Elem, bool Active) {
  // The callable: the element function, with the captures bound.
  Expr *Fn = B.unop(UO_AddrOf, B.funcRef(Elem));
  if (Info.Caps.empty())
    return Fn;
  SmallVector<Expr *, 4> Caps;
  for (const LiftedCapture &C : Info.Caps) {
    if (C.This) {
      // The object; its members must be as the reverse sweep reads them.
      const auto *MD = dyn_cast<CXXMethodDecl>(Primal);
      if (!MD || MD->isStatic())
        return unsupported(CE->getArg(0), "lambda capturing 'this' outside "
                                          "a member function");
      if (Act.ThisWritten)
        return unsupported(CE->getArg(0),
                           "lambda capturing 'this' in a function that "
                           "writes its object");
      Caps.push_back(B.deref(thisExpr()));
      continue;
    }
    VarDecl *M = mapVar(C.Var);
    Caps.push_back(B.ref(M ? M : C.Var));
    // The value the map saw, for the reverse sweep, when it changes later.
    if (Active && !C.Written && C.Var->isLocalVarDeclOrParm() &&
        !stable(C.Var)) {
      QualType T = C.Var->getType().getNonReferenceType().getUnqualifiedType();
      VarDecl *Snap = hoist("_t", T);
      Cur->push_back(B.assign(B.ref(Snap), B.ref(M ? M : C.Var)));
      if (!Loops.empty() && !Frames.empty())
        Frames.back().Recorded.push_back(Snap);
      CapSnap[{CE, C.Var}] = Snap;
    }
  }
  if (Info.Kind == Lowering::Stateful && Active) {
    VarDecl *Tape = tapeFor(Ctx.DoubleTy);
    if (!Tape)
      return nullptr;
    SmallVector<Expr *, 5> RArgs{B.ref(Tape)};
    RArgs.append(Caps.begin(), Caps.end());
    StatefulTape[CE] = Tape;
    return B.callRuntime("bind_record", {B.exprArg(Fn)}, RArgs);
  }
  return B.callRuntime("bind_tail", {B.exprArg(Fn)}, Caps);
}

/// &E, simplified to P when E is (*P).
Expr *PullbackBuilder::addressOf(Expr *E) {
  if (const auto *PE = dyn_cast_or_null<ParenExpr>(E))
    if (const auto *UO = dyn_cast<UnaryOperator>(PE->getSubExpr()))
      if (UO->getOpcode() == UO_Deref)
        return UO->getSubExpr()->IgnoreImpCasts() == UO->getSubExpr()
                   ? UO->getSubExpr()
                   : const_cast<Expr *>(UO->getSubExpr()->IgnoreImpCasts());
  return B.addrOf(E);
}

Expr *PullbackBuilder::adjointTarget(const Expr *Arg, Stmts &Out,
                                     Deferred &Later, bool Optional) {
  const Expr *K = stripE(Arg);
  QualType T = K->getType().getNonReferenceType().getUnqualifiedType();
  // A zero adjoint shaped like the argument (null after an error).
  // (A std::vector or std::array, also nested: a zeroed copy, from the
  // runtime's core; other classes: grad::zeros_like, a tensor's.)
  auto Zero = [&]() -> Expr * {
    bool Std = isStdClass(T, "vector") || isStdClass(T, "array");
    bool Tensor = isGradTensor(T);
    Expr *Init = !T->isRecordType() || isPlainRecord(T) ? B.zero(T)
                 : Std    ? B.callRuntime("zero_like", {}, {val(K)})
                 : Tensor ? B.callGrad("zeros_like", {val(K)})
                          : nullptr; // (a class owning a container)
    if (!Init)
      return unsupported(K, "argument '" + spelled(K) + "' of type '" +
                                T.getAsString(Ctx.getPrintingPolicy()) +
                                "', whose adjoint cannot be made here (bind "
                                "it to a local first)");
    return Init;
  };
  if (!Act.isActive(K)) {
    if (Optional)
      return new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc);
    // A place for an adjoint nobody reads.
    Expr *Init = Zero();
    if (!Init)
      return nullptr;
    VarDecl *Z = B.var(PB, fresh("_z"), T, Init);
    Out.push_back(B.declStmt(Z));
    return B.addrOf(B.ref(Z));
  }
  // (A local reference into memory, `double &r = out[1]`, is an access of
  // what it binds to: its adjoint is that memory's shadow, reached through
  // the local adjoint below and backprop.)
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isLocalVarDeclOrParm() && !isElementAccess(K))
        return addressOf(adjointStorage(VD));
  Expr *Init = Zero();
  if (!Init)
    return nullptr;
  VarDecl *G = B.var(PB, fresh("_g"), T, Init);
  Out.push_back(B.declStmt(G));
  Later.push_back({K, G});
  return B.addrOf(B.ref(G));
}

void PullbackBuilder::backpropRuntime(const CallExpr *CE, StringRef Name,
                                      Expr *Adj, Stmts &Out) {
  if (Name == "map" || Name == "broadcast") {
    backpropMap(CE, Name, Adj, Out);
    return;
  }
  if (Name == "sum" && CE->getNumArgs() == 1) {
    const auto *Inner = dyn_cast<CallExpr>(stripE(CE->getArg(0)));
    StringRef IN = Inner ? runtimeName(Inner) : StringRef();
    if (IN == "map" || IN == "broadcast") {
      VarDecl *Seed = bind(Adj, CE->getType(), Out);
      backpropMap(Inner, IN, B.ref(Seed), Out);
      return;
    }
  }
  Deferred Later;
  SmallVector<Expr *, 6> Args;
  for (const Expr *A : CE->arguments())
    Args.push_back(val(A));
  Args.push_back(Adj);
  for (const Expr *A : CE->arguments())
    Args.push_back(adjointTarget(A, Out, Later, false));
  Out.push_back(B.callGrad((Name + "_pullback").str(), Args));
  for (auto It = Later.rbegin(); It != Later.rend(); ++It)
    backprop(It->first, B.ref(It->second), Out);
}

void PullbackBuilder::backpropMap(const CallExpr *CE, StringRef Name,
                                  Expr *Adj, Stmts &Out) {
  LambdaInfo *Info = D.lambdaInfo(CE->getArg(0), Entry);
  if (!Info) {
    Failed = true;
    return;
  }
  // The seed: a scalar (sum(map(...))) or the result's adjoint.
  Expr *Seed = Adj;
  if (Adj && Adj->getType()->isRecordType()) {
    VarDecl *S0 = B.var(PB, fresh("_dy"),
                        Adj->getType().getNonReferenceType().getUnqualifiedType(),
                        Adj);
    Out.push_back(B.declStmt(S0));
    Seed = B.ref(S0);
  }
  Deferred Later;
  SmallVector<Expr *, 4> Vals, Adjs;
  unsigned Slots = 0;
  bool Forward = Info->Kind == Lowering::Forward;
  for (unsigned I = 1; I < CE->getNumArgs(); ++I) {
    Vals.push_back(val(CE->getArg(I)));
    Adjs.push_back(adjointTarget(CE->getArg(I), Out, Later, Forward));
    Slots += Act.isActive(stripE(CE->getArg(I)));
  }
  Expr *Packed = B.callRuntime("pack", {}, Vals);
  Expr *AdjPack = B.callRuntime("adjoints", {}, Adjs);
  if (Forward) {
    FunctionDecl *Tan = D.liftFunction(*Info, std::max(Slots, 1u), Entry);
    if (!Tan) {
      Failed = true;
      return;
    }
    Out.push_back(B.callRuntime(
        "tangent_pullback",
        {B.exprArg(B.unop(UO_AddrOf, B.funcRef(Tan))),
         B.exprArg(B.intLit(std::max(Slots, 1u), Ctx.getSizeType()))},
        {Seed, Packed, AdjPack}));
  } else if (!reverseLoweredMap(CE, *Info, {Seed, Packed, AdjPack}, Out)) {
    return;
  }
  for (auto It = Later.rbegin(); It != Later.rend(); ++It)
    backprop(It->first, B.ref(It->second), Out);
}

bool PullbackBuilder::reverseLoweredMap(const CallExpr *CE, LambdaInfo &Info,
                                        ArrayRef<Expr *> SeedAndPacks,
                                        Stmts &Out) {
  FunctionDecl *Elem = D.liftFunction(Info, 0, Entry);
  PullbackEntry *PE = Elem ? D.calleePullback(Elem, B.Loc, Entry) : nullptr;
  if (!PE) {
    Failed = true;
    return false;
  }
  for (const ParmVarDecl *P : Info.Callee->parameters())
    if (!isFloating(P->getType().getNonReferenceType())) {
      unsupported(CE->getArg(0), "lambda parameter of type '" +
                                     P->getType().getAsString() +
                                     "' in reverse lowering");
      return false;
    }
  // Captures and their adjoints.
  PullbackSignature CS;
  std::string Why;
  computeSignature(Ctx, Elem, PE->Wrt, PE->Pullback->getName(), CS, Why);
  SmallVector<Expr *, 4> Caps, DCaps;
  mapCaptureAdjoints(CE, Info, CS, Caps, DCaps, Out);
  SmallVector<Expr *, 6> Args(SeedAndPacks.begin(), SeedAndPacks.end());
  Args.push_back(B.callRuntime("refs", {}, Caps));
  Args.push_back(B.callRuntime("adjoints", {}, DCaps));
  auto It = StatefulTape.find(CE);
  if (It != StatefulTape.end())
    Args.push_back(B.addrOf(B.ref(It->second)));
  Out.push_back(B.callRuntime(
      "reverse_pullback",
      {B.exprArg(B.unop(UO_AddrOf, B.funcRef(PE->Pullback)))}, Args));
  return true;
}

void PullbackBuilder::mapCaptureAdjoints(
    const CallExpr *CE, const LambdaInfo &Info, const PullbackSignature &CS,
    SmallVectorImpl<Expr *> &Caps, SmallVectorImpl<Expr *> &DCaps, Stmts &Out) {
  unsigned NP = Info.Callee->getNumParams();
  // A zero adjoint of type T for a capture whose adjoint nobody reads.
  auto Scratch = [&](QualType T, Expr *Init) {
    VarDecl *Z = B.var(PB, fresh("_z"), T, Init);
    Out.push_back(B.declStmt(Z));
    DCaps.push_back(B.addrOf(B.ref(Z)));
  };
  for (unsigned C = 0; C < Info.Caps.size(); ++C) {
    if (Info.Caps[C].This) {
      Caps.push_back(B.deref(thisExpr()));
      if (CS.AdjointIndex[NP + C] < 0)
        continue;
      if (Sig.ThisIndex >= 0) {
        DCaps.push_back(B.ref(param(Sig.ThisIndex)));
      } else {
        QualType T = capturedThisType(Info);
        Scratch(T, B.zero(T));
      }
      continue;
    }
    VarDecl *V = Info.Caps[C].Var;
    VarDecl *M = mapVar(V);
    auto SnapIt = CapSnap.find({CE, V});
    Caps.push_back(
        B.ref(SnapIt != CapSnap.end() ? SnapIt->second : (M ? M : V)));
    if (CS.AdjointIndex[NP + C] < 0)
      continue;
    if (V->isLocalVarDeclOrParm() && (Act.isActive(V) || M)) {
      DCaps.push_back(addressOf(adjointStorage(V)));
    } else {
      QualType T = V->getType().getNonReferenceType().getUnqualifiedType();
      Scratch(T, T->isRecordType() ? B.callGrad("zeros_like", {B.ref(V)})
                                   : B.zero(T));
    }
  }
}

} // namespace grad
