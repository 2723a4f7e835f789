//===- Records.cpp - Class-type values and their shadows ------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Records.h"
#include "ast/Abi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

bool (*DestroysNothingHook)(const CXXRecordDecl *RD) = nullptr;

QualType complexValueType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "complex" || Spec->getTemplateArgs().size() != 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  QualType V = Spec->getTemplateArgs()[0].getAsType();
  return isFloating(V) ? V : QualType();
}

bool isComplex(QualType T) { return !complexValueType(T).isNull(); }

bool isStdClass(QualType T, StringRef Name) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == Name;
}

bool isGradTensor(QualType T) {
  const auto *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || RD->getName() != "tensor")
    return false;
  const auto *NS =
      dyn_cast<NamespaceDecl>(RD->getDeclContext()->getEnclosingNamespaceContext());
  return NS && NS->getIdentifier() && NS->getName() == "grad" &&
         NS->getParent()->getRedeclContext()->isTranslationUnit();
}

StringRef containerName(QualType T) {
  if (T.isNull())
    return {};
  for (StringRef N : {"vector", "array", "span"})
    if (isStdClass(T, N))
      return N;
  return isGradTensor(T) ? "tensor" : StringRef();
}

/// `const double c;`, `const Vec3 v;`: a member the adjoint cannot write.
static bool isConstFloating(const FieldDecl *F) {
  QualType T = F->getType();
  return T.isConstQualified() && (isFloating(T) || hasFloatingData(T));
}

static bool plainImpl(QualType T, std::string *Why, unsigned Depth);
/// A class copied and destroyed as bytes, not a union or std::function.
static bool plainClassShape(QualType T, const CXXRecordDecl *RD,
                            std::string *Why);
/// Bases and members plain, named, and no const floating member.
static bool plainMembers(const CXXRecordDecl *RD, std::string *Why,
                         unsigned Depth);

static bool plainImpl(QualType T, std::string *Why, unsigned Depth) {
  T = T.getCanonicalType();
  if (isComplex(T))
    return true; // a value: two numbers, its shadow a complex adjoint
  if (Depth > 8) {
    if (Why)
      *Why = "it nests too deeply";
    return false;
  }
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  if (const auto *AT = T->getAsArrayTypeUnsafe()) {
    if (!isa<ConstantArrayType>(AT)) {
      if (Why)
        *Why = "it has an array member of unknown size";
      return false;
    }
    return plainImpl(AT->getElementType(), Why, Depth + 1);
  }
  if (T->isPointerType() || T->isReferenceType() ||
      T->isMemberPointerType()) {
    if (Why)
      *Why = "it has a member of pointer or reference type";
    return false;
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition()) {
    if (Why)
      *Why = "its type is incomplete";
    return false;
  }
  return plainClassShape(T, RD, Why) && plainMembers(RD, Why, Depth);
}

static bool plainClassShape(QualType T, const CXXRecordDecl *RD,
                            std::string *Why) {
  if (RD->isUnion()) {
    if (Why)
      *Why = "it is or contains a union";
    return false;
  }
  // Copied and destroyed as bytes (std::pair qualifies: only its
  // assignment is user-written, and it assigns member by member; so does
  // a class whose destructor writes nothing, `~Box() {}`).
  if (isStdClass(T, "function")) {
    if (Why)
      *Why = "a std::function is differentiated when it is initialised "
             "with a lambda of its call signature and then only called (not "
             "assigned, copied or passed on)";
    return false;
  }
  if (!(RD->hasTrivialCopyConstructor() || RD->hasTrivialMoveConstructor()) ||
      RD->getNumVBases() > 0 || RD->isPolymorphic()) {
    if (Why)
      *Why = "it is not trivially copyable (it owns memory, has virtual "
             "functions or user-written copy operations)";
    return false;
  }
  if (!(DestroysNothingHook ? DestroysNothingHook(RD)
                            : RD->hasTrivialDestructor())) {
    if (Why)
      *Why = "its destructor '~" + RD->getNameAsString() +
             "' writes memory, and the derivative's copies of it would run "
             "it too";
    return false;
  }
  return true;
}

static bool plainMembers(const CXXRecordDecl *RD, std::string *Why,
                         unsigned Depth) {
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (!plainImpl(Base.getType(), Why, Depth + 1))
      return false;
  for (const FieldDecl *F : RD->fields()) {
    if (F->isBitField() || F->isAnonymousStructOrUnion() ||
        !F->getIdentifier()) {
      if (Why)
        *Why = "it has a bit-field or an unnamed member";
      return false;
    }
    // (Its adjoint is written member by member.)
    if (isConstFloating(F)) {
      if (Why)
        *Why = "it has a const member '" + F->getNameAsString() +
               "' of floating type";
      return false;
    }
    if (!plainImpl(F->getType(), Why, Depth + 1))
      return false;
  }
  return true;
}

static bool ownerImpl(QualType T, std::string *Why, unsigned Depth) {
  T = T.getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isUnion() || RD->isLambda()) {
    if (Why)
      *Why = "it is not a class with a definition";
    return false;
  }
  if (Depth > 8 || RD->isPolymorphic() || RD->getNumVBases() > 0) {
    if (Why)
      *Why = "it has virtual functions or virtual bases";
    return false;
  }
  // Copied into its shadow and assigned in loops.
  if (!RD->hasSimpleCopyConstructor() || !RD->hasSimpleCopyAssignment() ||
      RD->hasUserDeclaredDestructor()) {
    if (Why)
      *Why = "it has user-written copy operations or a destructor";
    return false;
  }
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (hasFloatingData(Base.getType())) {
      if (Why)
        *Why = "it has a base class with floating members";
      return false;
    }
  for (const FieldDecl *F : RD->fields()) {
    QualType FT = F->getType().getCanonicalType();
    if (!hasFloatingData(FT)) {
      // Sizes, flags, names: copied as they are; a pointer or reference
      // member could reach differentiated memory.
      if (FT->isPointerType() || FT->isReferenceType()) {
        if (Why)
          *Why = "it has a member '" + F->getNameAsString() +
                 "' of pointer or reference type";
        return false;
      }
      continue;
    }
    if (isConstFloating(F) || F->isBitField() || !F->getIdentifier()) {
      if (Why)
        *Why = "its member '" + F->getNameAsString() +
               "' is const, a bit-field or unnamed";
      return false;
    }
    if (isFloating(FT) || isComplex(FT) || isPlainRecord(FT))
      continue;
    // Arrays of numbers beside the container (`double bias[3];`): copied
    // with the object, zeroed and accumulated element by element.
    if (const auto *AT = dyn_cast<ConstantArrayType>(FT.getTypePtr());
        AT && isFloating(AT->getElementType()))
      continue;
    const auto *FRD = FT->getAsCXXRecordDecl();
    StringRef Name = FRD && FRD->getIdentifier() ? FRD->getName() : "";
    if (FRD && FRD->isInStdNamespace() && Name == "vector") {
      QualType ET = elementTypeOf(FRD->getASTContext(), FT);
      if (!ET.isNull() && (isFloating(ET) || isComplex(ET) ||
                           (isPlainRecord(ET) && !ET->isArrayType())))
        continue;
    }
    if (FRD && !FRD->isInStdNamespace() && ownerImpl(FT, Why, Depth + 1))
      continue;
    if (Why && (!FRD || FRD->isInStdNamespace()))
      *Why = "its member '" + F->getNameAsString() + "' of type '" +
             F->getType().getAsString() + "' has no shadow";
    return false;
  }
  return true;
}

bool isElementOwner(QualType T, std::string *Why) {
  T = T.getNonReferenceType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || isPlainRecord(T) || !hasFloatingData(T))
    return false;
  // Standard and runtime classes (std::vector, grad::tensor) have their own
  // shadows.
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getEnclosingNamespaceContext());
  if (RD->isInStdNamespace() ||
      (NS && NS->getIdentifier() && NS->getName() == "grad" &&
       NS->getParent()->isTranslationUnit()))
    return false;
  return ownerImpl(T, Why, 0);
}

static bool stdNamed(QualType T, StringRef Name) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == Name;
}

bool isNestedContainer(QualType T) {
  T = T.getNonReferenceType();
  if (!stdNamed(T, "vector") && !stdNamed(T, "array"))
    return false;
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  QualType ET = elementTypeOf(RD->getASTContext(), T);
  if (ET.isNull() || !stdNamed(ET, "vector"))
    return false;
  QualType EET = elementTypeOf(RD->getASTContext(), ET);
  return !EET.isNull() &&
         (isFloating(EET) || isComplex(EET) ||
          (isPlainRecord(EET) && !EET->isArrayType() &&
           hasFloatingData(EET)) ||
          isNestedContainer(EET));
}

bool shadowIsCopy(QualType T) {
  return isElementOwner(T) || isNestedContainer(T);
}

/// Calls \p F with the name and type of each member of class \p T that
/// has floating data.
static void floatingFields(QualType T,
                           llvm::function_ref<void(StringRef, QualType)> F) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  for (const FieldDecl *Fd : RD->fields())
    if (hasFloatingData(Fd->getType()))
      F(Fd->getName(), Fd->getType());
}

void zeroFloatingData(SemaBuilder &B, QualType T,
                      llvm::function_ref<Expr *()> Obj,
                      std::vector<Stmt *> &Out) {
  if (isNestedContainer(T)) {
    // Element by element, at every level.
    Out.push_back(B.callRuntime("zero", {}, {Obj()}));
    return;
  }
  floatingFields(T, [&](StringRef Name, QualType FT) {
    auto M = [&]() -> Expr * { return B.member(Obj(), Name); };
    if (isElementOwner(FT))
      zeroFloatingData(B, FT, M, Out);
    else if (isFloating(FT))
      Out.push_back(B.assign(M(), B.zero(FT.getUnqualifiedType())));
    else
      Out.push_back(B.callRuntime("zero", {}, {M()}));
  });
}

const FieldDecl *constFloatingMember(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const FieldDecl *F : RD->fields())
    if (isConstFloating(F))
      return F;
  return nullptr;
}

bool isPlainRecord(QualType T, std::string *Why) {
  T = T.getNonReferenceType();
  return T->isRecordType() && plainImpl(T, Why, 0);
}

bool isByteCopyable(const ASTContext &Ctx, QualType T) {
  if (T.isTriviallyCopyableType(Ctx))
    return true;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() && RD->hasTrivialCopyConstructor() &&
         RD->hasTrivialCopyAssignment() && isPlainRecord(T);
}

bool isPlainStruct(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !isPlainRecord(T))
    return false;
  return !(RD->isInStdNamespace() && RD->getIdentifier() &&
           RD->getName() == "array");
}

Expr *recordZero(SemaBuilder &B, QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  // std::pair, std::tuple, std::complex value-initialise their members.
  bool StdZeroes = RD && RD->isInStdNamespace() && RD->getIdentifier() &&
                   (RD->getName() == "pair" || RD->getName() == "tuple" ||
                    RD->getName() == "complex");
  if (RD && RD->hasDefinition() &&
      (RD->hasTrivialDefaultConstructor() || StdZeroes))
    return B.emptyInitList();
  return B.callRuntime("zeroed", {B.typeArg(T.getUnqualifiedType())}, {});
}

QualType elementTypeOf(const ASTContext &Ctx, QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const ArrayType *AT = Ctx.getAsArrayType(T))
    return AT->getElementType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (Spec && Spec->isInStdNamespace() && Spec->getIdentifier() &&
      (Spec->getName() == "vector" || Spec->getName() == "array") &&
      Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    return Spec->getTemplateArgs()[0].getAsType();
  return QualType();
}

Expr *zeroFill(SemaBuilder &B, Expr *Vec, Expr *Size, QualType VecT) {
  QualType ET = elementTypeOf(B.Ctx, VecT);
  Expr *Zero = !ET.isNull() && ET->isRecordType()
                   ? B.zero(ET.getUnqualifiedType())
                   : B.intLit(0, B.Ctx.IntTy);
  return B.memberCall(Vec, "assign", {Size, Zero});
}

static void accumulateImpl(SemaBuilder &B, QualType T,
                           llvm::function_ref<Expr *()> Dst,
                           llvm::function_ref<Expr *()> Src,
                           std::vector<Stmt *> &Out, unsigned Depth) {
  T = T.getCanonicalType();
  if (isFloating(T) || isComplex(T)) {
    Out.push_back(B.addAssign(Dst(), Src()));
    return;
  }
  if (!hasFloatingData(T))
    return;
  const auto *RD = T->getAsCXXRecordDecl();
  QualType ET = elementTypeOf(B.Ctx, T);
  if (!ET.isNull() && isPlainStruct(ET)) {
    // Arrays and containers of structs: a loop, member by member.
    QualType SizeT = B.Ctx.getSizeType();
    VarDecl *K = B.var(B.S.CurContext, "_grad_k" + std::to_string(Depth),
                       SizeT, B.intLit(0, SizeT));
    const ArrayType *AT = B.Ctx.getAsArrayType(T);
    Expr *N = AT ? B.intLit(cast<ConstantArrayType>(AT)->getSize()
                                .getZExtValue(),
                            SizeT)
                 : B.memberCall(Dst(), "size", {});
    std::vector<Stmt *> Body;
    auto D = [&]() -> Expr * { return B.subscript(Dst(), B.ref(K)); };
    auto S = [&]() -> Expr * { return B.subscript(Src(), B.ref(K)); };
    accumulateImpl(B, ET, D, S, Body, Depth + 1);
    Out.push_back(B.forStmt(B.declStmt(K),
                            B.binop(BO_LT, B.ref(K), N),
                            B.unop(UO_PreInc, B.ref(K)), B.block(Body)));
    return;
  }
  if (T->isArrayType() || !RD || !isPlainStruct(T)) {
    // Arrays and std::array: element by element in the runtime.
    Out.push_back(B.callRuntime("accumulate", {}, {Dst(), Src()}));
    return;
  }
  for (const CXXBaseSpecifier &Base : RD->bases()) {
    QualType BT = Base.getType();
    auto Up = [&](llvm::function_ref<Expr *()> E, bool Const) {
      return [&B, E, BT, Const]() -> Expr * {
        return B.staticCast(
            B.Ctx.getLValueReferenceType(Const ? BT.withConst() : BT), E());
      };
    };
    auto D = Up(Dst, false);
    auto S = Up(Src, true);
    accumulateImpl(B, BT, D, S, Out, Depth + 1);
  }
  floatingFields(T, [&](StringRef Name, QualType FT) {
    auto D = [&]() -> Expr * { return B.member(Dst(), Name); };
    auto S = [&]() -> Expr * { return B.member(Src(), Name); };
    accumulateImpl(B, FT, D, S, Out, Depth + 1);
  });
}

void accumulateOwner(SemaBuilder &B, QualType T,
                     llvm::function_ref<Expr *()> Dst,
                     llvm::function_ref<Expr *()> Src,
                     std::vector<Stmt *> &Out) {
  floatingFields(T, [&](StringRef Name, QualType FT) {
    auto D = [&]() -> Expr * { return B.member(Dst(), Name); };
    auto S = [&]() -> Expr * { return B.member(Src(), Name); };
    if (isElementOwner(FT))
      accumulateOwner(B, FT, D, S, Out);
    else
      accumulateImpl(B, FT, D, S, Out, 1);
  });
}

void accumulateRecord(SemaBuilder &B, QualType T,
                      llvm::function_ref<Expr *()> Dst,
                      llvm::function_ref<Expr *()> Src,
                      std::vector<Stmt *> &Out) {
  accumulateImpl(B, T, Dst, Src, Out, 0);
}

const Expr *memberInitValue(const CXXCtorInitializer *I) {
  const Expr *Init = I->getInit()->IgnoreImplicit();
  if (const auto *PE = dyn_cast<ParenListExpr>(Init); PE && PE->getNumExprs() == 1)
    Init = PE->getExpr(0)->IgnoreImplicit();
  if (const auto *IL = dyn_cast<InitListExpr>(Init); IL && IL->getNumInits() == 1)
    Init = IL->getInit(0)->IgnoreImplicit();
  // std::forward<U>(x), std::move(x): x.
  if (const auto *C = dyn_cast<CallExpr>(Init))
    if (const FunctionDecl *FD = C->getDirectCallee())
      if (FD->isInStdNamespace() && FD->getIdentifier() &&
          (FD->getName() == "forward" || FD->getName() == "move") &&
          C->getNumArgs() == 1)
        Init = C->getArg(0)->IgnoreImplicit();
  return Init;
}

bool readsParamOrThis(const Expr *E) {
  llvm::SmallVector<const Stmt *, 8> Work{E};
  while (!Work.empty()) {
    const Stmt *St = Work.pop_back_val();
    if (!St)
      continue;
    if (const auto *D = dyn_cast<DeclRefExpr>(St))
      if (isa<ParmVarDecl>(D->getDecl()))
        return true;
    if (isa<CXXThisExpr>(St))
      return true;
    for (const Stmt *C : St->children())
      Work.push_back(C);
  }
  return false;
}

bool memberwiseInit(
    const Expr *E,
    SmallVectorImpl<std::pair<const FieldDecl *, const Expr *>> &Out) {
  Out.clear();
  const auto *CE = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit());
  if (!CE || CE->getConstructor()->isCopyOrMoveConstructor())
    return false;
  const CXXConstructorDecl *Def = nullptr;
  const FunctionDecl *DefFD = nullptr;
  if (!CE->getConstructor()->isDefined(DefFD))
    return false;
  Def = cast<CXXConstructorDecl>(DefFD);
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || !Body->body_empty() || Def->isVariadic())
    return false;
  for (const CXXCtorInitializer *I : Def->inits()) {
    if (!I->isMemberInitializer()) {
      if (I->isBaseInitializer() && !hasFloatingData(QualType(I->getBaseClass(), 0)))
        continue;
      return false;
    }
    const FieldDecl *F = I->getMember();
    const Expr *Init = memberInitValue(I);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Init)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
        unsigned Idx = P->getFunctionScopeIndex();
        if (Idx >= CE->getNumArgs())
          return false;
        if (hasFloatingData(F->getType()) || isFloating(F->getType()))
          Out.push_back({F, CE->getArg(Idx)});
        continue;
      }
    }
    // A member from a constant (or a default member initializer): no
    // derivative, as long as no parameter is involved.
    bool UsesParam = readsParamOrThis(Init);
    if (UsesParam)
      return false;
  }
  return true;
}

bool linearConstruction(const CXXConstructExpr *CE) {
  SmallVector<std::pair<const FieldDecl *, const Expr *>, 4> MW;
  const FunctionDecl *Def = nullptr;
  if (!memberwiseInit(CE, MW) || !CE->getConstructor()->isDefined(Def))
    return false;
  for (const CXXCtorInitializer *I : cast<CXXConstructorDecl>(Def)->inits()) {
    const FieldDecl *F = I->getMember();
    if (!F)
      continue; // (a base without floating data)
    const Expr *Init = memberInitValue(I);
    const auto *DRE = dyn_cast<DeclRefExpr>(Init);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    bool FloatingMember = isFloating(F->getType()) || hasFloatingData(F->getType());
    if (FloatingMember ? !P
                       : P && (isFloating(P->getType()) ||
                               hasFloatingData(P->getType())))
      return false;
  }
  return true;
}

const CXXConstructExpr *userConstruction(const Expr *E) {
  const auto *CE = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit());
  if (!CE)
    return nullptr;
  const CXXConstructorDecl *C = CE->getConstructor();
  QualType T = CE->getType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (C->isCopyOrMoveConstructor() || !C->isUserProvided() || !RD ||
      RD->isInStdNamespace() || !isPlainStruct(T) || !hasFloatingData(T))
    return nullptr;
  SmallVector<std::pair<const FieldDecl *, const Expr *>, 4> MW;
  return memberwiseInit(CE, MW) ? nullptr : CE;
}

const Expr *temporaryRoot(const ASTContext &Ctx, const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const Expr *Base = nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow() || !isa<FieldDecl>(ME->getMemberDecl()))
      return nullptr;
    Base = ME->getBase()->IgnoreParens();
    if (isa<MaterializeTemporaryExpr>(Base) || !Base->isGLValue())
      return isPlainStruct(Base->getType()) ? Base : nullptr;
  } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Base = AS->getBase()->IgnoreParenImpCasts();
    if (!Base->getType()->isConstantArrayType() ||
        !AS->getIdx()->isIntegerConstantExpr(Ctx))
      return nullptr;
  } else {
    return nullptr;
  }
  return temporaryRoot(Ctx, Base);
}

Expr *onTemporaryPath(SemaBuilder &B, const Expr *E, Expr *Root) {
  if (!Root)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParens();
    Expr *On = isa<MaterializeTemporaryExpr>(Base) || !Base->isGLValue()
                   ? Root
                   : onTemporaryPath(B, Base, Root);
    return On ? B.member(On, ME->getMemberDecl()->getName()) : nullptr;
  }
  const auto *AS = cast<ArraySubscriptExpr>(E);
  Expr *On = onTemporaryPath(B, AS->getBase(), Root);
  std::optional<llvm::APSInt> I =
      AS->getIdx()->getIntegerConstantExpr(B.Ctx);
  if (!On || !I)
    return nullptr;
  return B.subscript(On, B.intLit(I->getExtValue(), B.Ctx.getSizeType()));
}

static bool isStdTuple(QualType T, bool AlsoPair) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         (RD->getName() == "tuple" || (AlsoPair && RD->getName() == "pair"));
}

bool isTuple(QualType T) { return isStdTuple(T, false); }

const InitListExpr *bracedElements(const Expr *E) {
  const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E->IgnoreImplicit());
  if (!SIL)
    return nullptr;
  const auto *IL = dyn_cast<InitListExpr>(SIL->getSubExpr()->IgnoreImplicit());
  if (IL && IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  return IL;
}

const InitListExpr *bracedVector(const Expr *E) {
  const auto *CC = dyn_cast<CXXConstructExpr>(E);
  if (!CC || CC->getNumArgs() < 1 || !isStdClass(CC->getType(), "vector"))
    return nullptr;
  return bracedElements(CC->getArg(0));
}

SmallVector<const Expr *, 4> tupleElements(const Expr *E) {
  E = E->IgnoreImplicit();
  auto Size = [](QualType T) -> unsigned {
    const auto *Spec =
        dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            T->getAsCXXRecordDecl());
    if (!Spec || Spec->getTemplateArgs().size() == 0)
      return 0;
    const TemplateArgumentList &L = Spec->getTemplateArgs();
    // std::tuple<Ts...>: one pack; std::pair<T, U>: two types.
    if (L[0].getKind() == TemplateArgument::Pack)
      return L[0].pack_size();
    return L.size();
  };
  SmallVector<const Expr *, 4> Out;
  auto Take = [&](auto Args, QualType T) {
    for (const Expr *A : Args)
      Out.push_back(A);
    if (Out.empty() || Out.size() != Size(T))
      Out.clear();
  };
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (isStdTuple(CE->getType(), true) &&
        !CE->getConstructor()->isCopyOrMoveConstructor())
      Take(CE->arguments(), CE->getType());
    return Out;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->isInStdNamespace() && FD->getIdentifier() &&
          (FD->getName() == "make_pair" || FD->getName() == "make_tuple") &&
          isStdTuple(CE->getType(), true))
        Take(CE->arguments(), CE->getType());
  return Out;
}

bool replayableLocalType(const Decl *D, std::string &Why) {
  if (isa<EnumDecl>(D))
    return true;
  const auto *RD = dyn_cast<CXXRecordDecl>(D);
  if (!RD) {
    Why = "local declaration";
    return false;
  }
  // (A derivative of a member function would be a member of the class,
  // defined outside it: a local class cannot have one.)
  for (const Decl *M : RD->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(M);
        (FD && !FD->isImplicit()) || isa<FunctionTemplateDecl>(M)) {
      Why = "local class '" + RD->getNameAsString() +
            "' with member functions (define the class outside the "
            "function)";
      return false;
    }
  return true;
}

} // namespace grad

