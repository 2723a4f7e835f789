//===- SemaBuilder.cpp - Building AST nodes through Sema --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/SemaBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Template.h"
#include "clang/Basic/OperatorPrecedence.h"
#include "clang/Sema/DeclSpec.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Ownership.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

SemaBuilder::SemaBuilder(Sema &S, SourceLocation Loc)
    : S(S), Ctx(S.Context), Loc(Loc) {}

Expr *SemaBuilder::check(ExprResult R) {
  if (R.isInvalid() || !R.get()) {
    Failed = true;
    return nullptr;
  }
  return R.get();
}

/// Builds the nested-name-specifier `::ns1::ns2::` for \p DC; with \p Tags,
/// through classes and scoped enums too (`::ns::C::`, `::Act::`), and
/// relative to the innermost function for a local class or enum (`Kind::`).
static void buildScope(Sema &S, ASTContext &Ctx, const DeclContext *DC,
                       CXXScopeSpec &SS, SourceLocation Loc,
                       bool Tags = false) {
  SmallVector<const Decl *, 4> Chain;
  bool Global = true;
  for (const DeclContext *It = DC; It && !It->isTranslationUnit();
       It = It->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(It)) {
      if (NS->isAnonymousNamespace() || NS->isInline())
        continue;
      Chain.push_back(NS);
    } else if (const auto *ED = dyn_cast<EnumDecl>(It);
               Tags && ED && !ED->isScoped()) {
      continue; // its enumerators are named in the enclosing scope
    } else if (Tags && isa<TagDecl>(It)) {
      Chain.push_back(cast<TagDecl>(It));
    } else if (Tags && isa<FunctionDecl>(It) && !Chain.empty() &&
               !isa<NamespaceDecl>(Chain.back())) {
      Global = false; // a local type: named from inside the function
      break;
    } else if (!isa<LinkageSpecDecl>(It)) {
      return; // Not a namespace path: leave unqualified.
    }
  }
  // Always from the global scope, so printed code finds the same function
  // from inside any namespace.
  if (Global)
    SS.MakeGlobal(Ctx, Loc);
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(*It)) {
      SS.Extend(Ctx, const_cast<NamespaceDecl *>(NS), Loc, Loc);
      continue;
    }
    QualType T = Ctx.getTypeDeclType(cast<TypeDecl>(*It));
    SS.Extend(Ctx, SourceLocation(),
              Ctx.getTrivialTypeSourceInfo(T, Loc)->getTypeLoc(), Loc);
  }
}

/// Whether a reference to \p D must name its class or scoped enum to be
/// found from another function (a static member, an enumerator of a scoped
/// enum or of an enum in a class): the printed code says `C::k`,
/// `Act::Relu`, as the user did.
static bool namedThroughScope(const ValueDecl *D) {
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    const auto *ED = cast<EnumDecl>(EC->getDeclContext());
    return ED->isScoped() || isa<RecordDecl>(ED->getDeclContext());
  }
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->isStaticDataMember();
  return false;
}

Expr *SemaBuilder::ref(ValueDecl *D) {
  if (!D)
    return nullptr;
  QualType T = D->getType().getNonReferenceType();
  // Enumerators are values, not objects.
  ExprValueKind VK = isa<EnumConstantDecl>(D) ? VK_PRValue : VK_LValue;
  CXXScopeSpec SS;
  if (namedThroughScope(D))
    buildScope(S, Ctx, D->getDeclContext(), SS, Loc, /*Tags=*/true);
  if (!SS.isSet())
    return S.BuildDeclRefExpr(D, T, VK, Loc);
  return S.BuildDeclRefExpr(D, T, VK, DeclarationNameInfo(D->getDeclName(), Loc),
                            SS.getWithLocInContext(Ctx));
}

TemplateArgumentLoc SemaBuilder::argLoc(const TemplateArgument &A) {
  switch (A.getKind()) {
  case TemplateArgument::Type:
    return TemplateArgumentLoc(
        A, Ctx.getTrivialTypeSourceInfo(A.getAsType(), Loc));
  case TemplateArgument::Integral: {
    Expr *E = A.getIntegralType()->isBooleanType()
                  ? static_cast<Expr *>(new (Ctx) CXXBoolLiteralExpr(
                        A.getAsIntegral().getBoolValue(), Ctx.BoolTy, Loc))
                  : IntegerLiteral::Create(Ctx, A.getAsIntegral(),
                                           A.getIntegralType(), Loc);
    return TemplateArgumentLoc(A, E);
  }
  default:
    return TemplateArgumentLoc(A, TemplateArgumentLocInfo());
  }
}

/// True if the template argument \p A is, or is built from, the closure
/// type of a lambda.
static bool namesClosure(const TemplateArgument &A) {
  if (A.getKind() == TemplateArgument::Pack)
    return llvm::any_of(A.pack_elements(), namesClosure);
  if (A.getKind() != TemplateArgument::Type)
    return false;
  QualType T = A.getAsType().getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType()
                           : QualType(T->getArrayElementTypeNoTypeQual(), 0);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (RD->isLambda())
    return true;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  return Spec && llvm::any_of(Spec->getTemplateArgs().asArray(), namesClosure);
}

Expr *SemaBuilder::funcRef(FunctionDecl *FD) {
  CXXScopeSpec SS;
  // Static members through their class (`C::make_pushforward`); a member
  // called on an object is named by the member expression.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  buildScope(S, Ctx, FD->getDeclContext(), SS, Loc,
             /*Tags=*/!MD || MD->isStatic());
  DeclarationNameInfo NameInfo(FD->getDeclName(), Loc);
  // A specialization is named with its template arguments (printed code
  // cannot deduce `block_pullback<3>` from the call's arguments), unless
  // one is a closure type, which has no spelling (the call deduces it).
  TemplateArgumentListInfo Explicit(Loc, Loc);
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (Args && llvm::any_of(Args->asArray(), namesClosure))
    Args = nullptr;
  for (const TemplateArgument &A :
       Args ? Args->asArray() : ArrayRef<TemplateArgument>())
    Explicit.addArgument(argLoc(A));
  Expr *Ref = S.BuildDeclRefExpr(
      FD, FD->getType(), VK_LValue, NameInfo,
      SS.isSet() ? SS.getWithLocInContext(Ctx) : NestedNameSpecifierLoc(),
      /*FoundD=*/nullptr, /*TemplateKWLoc=*/SourceLocation(),
      Args ? &Explicit : nullptr);
  // Derivatives the plugin declares now and defines later (possibly after
  // Sema's end-of-file check for inline functions used but not defined).
  if (!FD->hasBody() && FD->getIdentifier() &&
      (FD->getName().starts_with("_grad_") ||
       FD->getName().ends_with("_pullback")))
    S.UndefinedButUsed.erase(FD->getCanonicalDecl());
  return Ref;
}

static int precedenceOf(const Expr *E) {
  E = E->IgnoreImplicit();
  std::optional<BinaryOperatorKind> Opc;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    Opc = BO->getOpcode();
  // `it != e`, `a < b` that Sema rewrote (C++20): the operator written.
  if (const auto *RW = dyn_cast<CXXRewrittenBinaryOperator>(E))
    Opc = RW->getOperator();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    // `a + b` on class types prints infix, as the operator it calls.
    OverloadedOperatorKind K = OC->getOperator();
    if (OC->getNumArgs() == 2 && K != OO_Call && K != OO_Subscript &&
        K != OO_Arrow && K != OO_PlusPlus && K != OO_MinusMinus)
      Opc = BinaryOperator::getOverloadedOpcode(K);
    else if (OC->getNumArgs() == 1 && K != OO_Call)
      return prec::PointerToMember + 1; // unary
  }
  if (Opc)
    return getBinOpPrecedence(
        [&] {
          switch (*Opc) {
          case BO_Mul: return tok::star;
          case BO_Div: return tok::slash;
          case BO_Rem: return tok::percent;
          case BO_Add: return tok::plus;
          case BO_Sub: return tok::minus;
          case BO_Shl: return tok::lessless;
          case BO_Shr: return tok::greatergreater;
          case BO_LT: return tok::less;
          case BO_GT: return tok::greater;
          case BO_LE: return tok::lessequal;
          case BO_GE: return tok::greaterequal;
          case BO_EQ: return tok::equalequal;
          case BO_NE: return tok::exclaimequal;
          case BO_And: return tok::amp;
          case BO_Xor: return tok::caret;
          case BO_Or: return tok::pipe;
          case BO_LAnd: return tok::ampamp;
          case BO_LOr: return tok::pipepipe;
          case BO_Comma: return tok::comma;
          default: return tok::equal;
          }
        }(),
        /*GreaterThanIsOperator=*/true, /*CPlusPlus11=*/true);
  if (isa<ConditionalOperator>(E))
    return prec::Conditional;
  if (isa<UnaryOperator>(E) || isa<CastExpr>(E))
    return prec::PointerToMember + 1; // unary
  return prec::PointerToMember + 3;   // postfix and primary
}

bool SemaBuilder::needsParens(const Expr *Child, int ParentPrec, bool IsRHS) {
  int P = precedenceOf(Child);
  return P < ParentPrec || (P == ParentPrec && IsRHS &&
                            P <= prec::PointerToMember);
}

Expr *SemaBuilder::wrapOperand(Expr *E, int ParentPrec, bool IsRHS) {
  if (!E || !needsParens(E, ParentPrec, IsRHS))
    return E;
  return paren(E);
}

Expr *SemaBuilder::paren(Expr *E) {
  if (!E)
    return nullptr;
  return check(S.ActOnParenExpr(Loc, Loc, E));
}

Expr *SemaBuilder::binop(BinaryOperatorKind Op, Expr *L, Expr *R) {
  if (!L || !R) {
    Failed = true;
    return nullptr;
  }
  // Precedence of the operator we build, via a probe node's helper.
  int Prec;
  switch (Op) {
  case BO_Mul: case BO_Div: case BO_Rem: Prec = prec::Multiplicative; break;
  case BO_Add: case BO_Sub: Prec = prec::Additive; break;
  case BO_LT: case BO_GT: case BO_LE: case BO_GE: Prec = prec::Relational; break;
  case BO_EQ: case BO_NE: Prec = prec::Equality; break;
  case BO_LAnd: Prec = prec::LogicalAnd; break;
  case BO_LOr: Prec = prec::LogicalOr; break;
  default: Prec = prec::Assignment; break;
  }
  bool Assign = BinaryOperator::isAssignmentOp(Op);
  if (!Assign)
    L = wrapOperand(L, Prec, false);
  R = wrapOperand(R, Prec, !Assign);
  return check(S.BuildBinOp(nullptr, Loc, Op, L, R));
}

Expr *SemaBuilder::unop(UnaryOperatorKind Op, Expr *E) {
  if (!E) {
    Failed = true;
    return nullptr;
  }
  E = wrapOperand(E, prec::PointerToMember + 1, false);
  return check(S.BuildUnaryOp(nullptr, Loc, Op, E));
}

Expr *SemaBuilder::floatLit(StringRef Value, QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  llvm::APFloat V(Ctx.getFloatTypeSemantics(T));
  auto St = V.convertFromString(Value, llvm::APFloat::rmNearestTiesToEven);
  bool Exact = St && *St == llvm::APFloat::opOK;
  return FloatingLiteral::Create(Ctx, V, Exact, T, Loc);
}

Expr *SemaBuilder::floatLit(double Value, QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  llvm::APFloat V(Value);
  bool LosesInfo = false;
  V.convert(Ctx.getFloatTypeSemantics(T), llvm::APFloat::rmNearestTiesToEven,
            &LosesInfo);
  return FloatingLiteral::Create(Ctx, V, !LosesInfo, T, Loc);
}

Expr *SemaBuilder::str(StringRef Text) {
  QualType T = Ctx.getStringLiteralArrayType(Ctx.CharTy, Text.size());
  return StringLiteral::Create(Ctx, Text, StringLiteralKind::Ordinary,
                               /*Pascal=*/false, T, Loc);
}

Expr *SemaBuilder::intLit(int64_t Value, QualType T) {
  if (T.isNull() || !T->isIntegerType())
    T = Ctx.IntTy;
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isBooleanType())
    return boolLit(Value != 0);
  unsigned Width = Ctx.getIntWidth(T);
  llvm::APInt V(Width, static_cast<uint64_t>(Value), /*isSigned=*/true);
  if (Value < 0)
    return unop(UO_Minus, IntegerLiteral::Create(Ctx, -V, T, Loc));
  return IntegerLiteral::Create(Ctx, V, T, Loc);
}

Expr *SemaBuilder::boolLit(bool Value) {
  return CXXBoolLiteralExpr::Create(Ctx, Value, Ctx.BoolTy, Loc);
}

Expr *SemaBuilder::zero(QualType T) {
  // A struct of floating members: zeroed member by member.
  if (isPlainRecord(T))
    return recordZero(*this, T);
  if (T->isRealFloatingType())
    return floatLit(0.0, T);
  if (T->isBooleanType())
    return boolLit(false);
  return intLit(0, T);
}

Stmt *SemaBuilder::noInline(Stmt *St) {
  if (!St) {
    Failed = true;
    return nullptr;
  }
  const Attr *A = NoInlineAttr::CreateImplicit(
      Ctx, Loc, NoInlineAttr::CXX11_clang_noinline);
  return AttributedStmt::Create(Ctx, Loc, {A}, St);
}

Stmt *SemaBuilder::returnStmt(Expr *E) {
  if (!E) {
    Failed = true;
    return nullptr;
  }
  StmtResult R = S.BuildReturnStmt(Loc, E);
  if (R.isInvalid()) {
    Failed = true;
    return nullptr;
  }
  return R.get();
}

Expr *SemaBuilder::cond(Expr *C, Expr *T, Expr *F) {
  if (!C || !T || !F) {
    Failed = true;
    return nullptr;
  }
  C = wrapOperand(C, prec::Conditional + 1, false);
  T = wrapOperand(T, prec::Conditional + 1, false);
  F = wrapOperand(F, prec::Conditional + 1, false);
  return check(S.ActOnConditionalOp(Loc, Loc, C, T, F));
}

Expr *SemaBuilder::call(Expr *Fn, ArrayRef<Expr *> Args) {
  if (!Fn) {
    Failed = true;
    return nullptr;
  }
  for (Expr *A : Args)
    if (!A) {
      Failed = true;
      return nullptr;
    }
  SmallVector<Expr *, 4> Copy(Args.begin(), Args.end());
  bindRValueParams(Fn, Copy);
  return check(S.BuildCallExpr(nullptr, Fn, Loc, Copy, Loc));
}

void SemaBuilder::bindRValueParams(Expr *Fn, SmallVectorImpl<Expr *> &Args) {
  // The builders pass what an argument names (`std::move(t)` and
  // `std::forward<U>(a)` are rebuilt as t and a, whose derivatives they
  // share): a `T &&` parameter gets it as the xvalue the source passed.
  const FunctionDecl *FD = nullptr;
  const Expr *K = Fn->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
    FD = dyn_cast<FunctionDecl>(DRE->getDecl());
  else if (const auto *ME = dyn_cast<MemberExpr>(K))
    FD = dyn_cast<FunctionDecl>(ME->getMemberDecl());
  if (!FD)
    return;
  for (unsigned I = 0; I < Args.size() && I < FD->getNumParams(); ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    if (PT->isRValueReferenceType() && !PT->isDependentType() &&
        Args[I]->isLValue() &&
        Ctx.hasSameUnqualifiedType(PT.getNonReferenceType(),
                                   Args[I]->getType()))
      Args[I] = staticCast(PT, Args[I]);
  }
}

Expr *SemaBuilder::nameRef(CXXScopeSpec &SS, LookupResult &R,
                           ArrayRef<TemplateArgumentLoc> TArgs) {
  if (TArgs.empty())
    return check(S.BuildDeclarationNameExpr(SS, R, /*NeedsADL=*/false));
  TemplateArgumentListInfo TAL(Loc, Loc);
  for (const TemplateArgumentLoc &A : TArgs)
    TAL.addArgument(A);
  return check(S.BuildTemplateIdExpr(SS, SourceLocation(), R,
                                     /*RequiresADL=*/false, &TAL));
}

Expr *SemaBuilder::callStd(StringRef Name, ArrayRef<Expr *> Args,
                           ArrayRef<TemplateArgumentLoc> TArgs) {
  DeclarationNameInfo NameInfo(&Ctx.Idents.get(Name), Loc);
  LookupResult R(S, NameInfo, Sema::LookupOrdinaryName);
  CXXScopeSpec SS;
  if (NamespaceDecl *Std = S.getStdNamespace()) {
    S.LookupQualifiedName(R, Std);
    if (!R.empty()) {
      SS.MakeGlobal(Ctx, Loc);
      SS.Extend(Ctx, Std, Loc, Loc);
    }
  }
  if (R.empty())
    S.LookupQualifiedName(R, Ctx.getTranslationUnitDecl());
  if (R.empty()) {
    Failed = true;
    return nullptr;
  }
  return call(nameRef(SS, R, TArgs), Args);
}

Expr *SemaBuilder::namedCast(tok::TokenKind Kind, QualType T, Expr *E) {
  if (!E) {
    Failed = true;
    return nullptr;
  }
  // A pointer to an array prints as `double (*)[2]` only when the array
  // type is not sugar (`auto` or a typedef): Clang's printer asks the
  // pointee's own class.
  if (const auto *PT = T->getAs<PointerType>();
      PT && PT->getPointeeType()->isArrayType())
    T = Ctx.getQualifiedType(
        Ctx.getPointerType(PT->getPointeeType().getCanonicalType()),
        T.getQualifiers());
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(T, Loc);
  return check(S.BuildCXXNamedCast(Loc, Kind, TSI, E, SourceRange(Loc, Loc),
                                   SourceRange(Loc, Loc)));
}

Expr *SemaBuilder::staticCast(QualType T, Expr *E) {
  return namedCast(tok::kw_static_cast, T, E);
}

Expr *SemaBuilder::reinterpretCast(QualType T, Expr *E) {
  return namedCast(tok::kw_reinterpret_cast, T, E);
}

Expr *SemaBuilder::constCast(QualType T, Expr *E) {
  return namedCast(tok::kw_const_cast, T, E);
}

Expr *SemaBuilder::addrOf(Expr *E) { return unop(UO_AddrOf, E); }
Expr *SemaBuilder::deref(Expr *E) { return unop(UO_Deref, E); }

VarDecl *SemaBuilder::var(DeclContext *DC, StringRef Name, QualType T,
                          Expr *Init, bool Direct) {
  // Canonical class types print the same from anywhere (no template-
  // internal aliases such as R or detail::ElementT<...>).
  T = T.getCanonicalType();
  VarDecl *VD = VarDecl::Create(Ctx, DC, Loc, Loc, &Ctx.Idents.get(Name), T,
                                Ctx.getTrivialTypeSourceInfo(T, Loc),
                                SC_None);
  // `T v(T(n))` would print as a function declaration (the most vexing
  // parse): from a temporary of its own type, `T v = T(n)` is the same.
  const Expr *Bare = Init ? Init->IgnoreImplicit() : nullptr;
  if (Bare && isa<CXXFunctionalCastExpr, CXXTemporaryObjectExpr>(Bare) &&
      Ctx.hasSameUnqualifiedType(Bare->getType(), T))
    Direct = false;
  if (Init && Direct) {
    VD->setInitStyle(VarDecl::CallInit);
    S.AddInitializerToDecl(
        VD, ParenListExpr::Create(Ctx, Loc, {Init}, Loc), /*DirectInit=*/true);
  } else if (Init) {
    S.AddInitializerToDecl(VD, Init, /*DirectInit=*/false);
  } else {
    S.ActOnUninitializedDecl(VD);
  }
  if (VD->isInvalidDecl())
    Failed = true;
  return VD;
}

Stmt *SemaBuilder::declStmt(VarDecl *VD) {
  return new (Ctx) DeclStmt(DeclGroupRef(VD), Loc, Loc);
}

Stmt *SemaBuilder::assign(Expr *L, Expr *R) { return binop(BO_Assign, L, R); }

Stmt *SemaBuilder::addAssign(Expr *L, Expr *R) {
  return binop(BO_AddAssign, L, R);
}

Stmt *SemaBuilder::block(ArrayRef<Stmt *> Stmts) {
  SmallVector<Stmt *, 16> Clean;
  for (Stmt *St : Stmts)
    if (St)
      Clean.push_back(St);
  return CompoundStmt::Create(Ctx, Clean, FPOptionsOverride(), Loc, Loc);
}

Stmt *SemaBuilder::ifStmt(Expr *C, Stmt *Then, Stmt *Else) {
  if (!C || !Then) {
    Failed = true;
    return nullptr;
  }
  Sema::ConditionResult CR =
      S.ActOnCondition(nullptr, Loc, C, Sema::ConditionKind::Boolean);
  if (CR.isInvalid()) {
    Failed = true;
    return nullptr;
  }
  StmtResult R = S.BuildIfStmt(Loc, IfStatementKind::Ordinary, Loc, nullptr,
                               CR, Loc, Then, Else ? Loc : SourceLocation(),
                               Else);
  if (R.isInvalid()) {
    Failed = true;
    return nullptr;
  }
  return R.get();
}

Expr *SemaBuilder::subscript(Expr *Base, Expr *Idx) {
  if (!Base || !Idx) {
    Failed = true;
    return nullptr;
  }
  Base = wrapOperand(Base, prec::PointerToMember + 2, false);
  return check(S.ActOnArraySubscriptExpr(nullptr, Base, Loc, Idx, Loc));
}

Expr *SemaBuilder::newObject(TypeSourceInfo *T, ArrayRef<Expr *> Args,
                             bool Braces, bool Global) {
  if (llvm::is_contained(Args, nullptr)) {
    Failed = true;
    return nullptr;
  }
  SourceRange Direct;
  Expr *Init = nullptr;
  if (Braces && Args.size() == 1) {
    Init = Args[0];
  } else if (!Args.empty()) {
    Init = ParenListExpr::Create(Ctx, Loc, Args, Loc);
    Direct = SourceRange(Loc, Loc);
  }
  return check(S.BuildCXXNew(SourceRange(Loc, Loc), Global, SourceLocation(),
                             {}, SourceLocation(), SourceRange(),
                             T->getType(), T, std::nullopt, Direct, Init));
}

Expr *SemaBuilder::memberCall(Expr *Base, StringRef Name,
                              ArrayRef<Expr *> Args, bool Arrow) {
  return memberCall(Base, DeclarationName(&Ctx.Idents.get(Name)), Args,
                    Arrow);
}

Expr *SemaBuilder::memberCall(Expr *Base, DeclarationName Name,
                              ArrayRef<Expr *> Args, bool Arrow) {
  if (!Base) {
    Failed = true;
    return nullptr;
  }
  Base = wrapOperand(Base, prec::PointerToMember + 2, false);
  CXXScopeSpec SS;
  DeclarationNameInfo NameInfo(Name, Loc);
  QualType BT = Base->getType();
  Expr *Member = check(S.BuildMemberReferenceExpr(
      Base, BT, Loc, Arrow, SS, SourceLocation(), nullptr, NameInfo, nullptr,
      nullptr));
  return call(Member, Args);
}

NamespaceDecl *SemaBuilder::gradNamespace(bool Detail) {
  LookupResult NR(S, &Ctx.Idents.get("grad"), Loc, Sema::LookupNamespaceName);
  S.LookupQualifiedName(NR, Ctx.getTranslationUnitDecl());
  auto *NS = NR.getAsSingle<NamespaceDecl>();
  if (!NS || !Detail)
    return NS;
  LookupResult DR(S, &Ctx.Idents.get("detail"), Loc,
                  Sema::LookupNamespaceName);
  S.LookupQualifiedName(DR, NS);
  return DR.getAsSingle<NamespaceDecl>();
}

TemplateArgumentLoc SemaBuilder::typeArg(QualType T) {
  return TemplateArgumentLoc(TemplateArgument(T),
                             Ctx.getTrivialTypeSourceInfo(T, Loc));
}

TemplateArgumentLoc SemaBuilder::exprArg(Expr *E) {
  return TemplateArgumentLoc(TemplateArgument(E), E);
}

QualType SemaBuilder::runtimeDetailType(StringRef Name) {
  NamespaceDecl *NS = gradNamespace(true);
  if (!NS)
    return QualType();
  LookupResult R(S, &Ctx.Idents.get(Name), Loc, Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, NS);
  auto *RD = R.getAsSingle<CXXRecordDecl>();
  if (!RD)
    return QualType();
  CXXScopeSpec SS;
  SS.MakeGlobal(Ctx, Loc);
  SS.Extend(Ctx, gradNamespace(false), Loc, Loc);
  SS.Extend(Ctx, NS, Loc, Loc);
  return Ctx.getElaboratedType(ElaboratedTypeKeyword::None, SS.getScopeRep(),
                               Ctx.getRecordType(RD));
}

QualType SemaBuilder::runtimeType(StringRef Name, QualType T) {
  return runtimeType(Name, {typeArg(T)});
}

QualType SemaBuilder::runtimeType(StringRef Name,
                                  ArrayRef<TemplateArgumentLoc> TArgs,
                                  bool Detail) {
  NamespaceDecl *NS = gradNamespace(Detail);
  if (!NS)
    return QualType();
  LookupResult R(S, &Ctx.Idents.get(Name), Loc, Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, NS);
  auto *TD = R.getAsSingle<ClassTemplateDecl>();
  if (!TD)
    return QualType();
  TemplateArgumentListInfo Args(Loc, Loc);
  for (const TemplateArgumentLoc &A : TArgs)
    Args.addArgument(A);
  QualType Spec = S.CheckTemplateIdType(TemplateName(TD), Loc, Args);
  if (Spec.isNull() || S.RequireCompleteType(Loc, Spec, 0)) {
    Failed = true;
    return QualType();
  }
  // Qualify it so that printed code names ::grad::Name<...>.
  CXXScopeSpec SS;
  SS.MakeGlobal(Ctx, Loc);
  if (Detail)
    SS.Extend(Ctx, gradNamespace(false), Loc, Loc);
  SS.Extend(Ctx, NS, Loc, Loc);
  return Ctx.getElaboratedType(ElaboratedTypeKeyword::None,
                               SS.getScopeRep(), Spec);
}

bool SemaBuilder::hasRuntime(StringRef Name) {
  NamespaceDecl *NS = gradNamespace(true);
  if (!NS)
    return false;
  LookupResult R(S, &Ctx.Idents.get(Name), Loc, Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, NS);
  return !R.empty();
}

Expr *SemaBuilder::callRuntime(StringRef Name,
                               ArrayRef<TemplateArgumentLoc> TArgs,
                               ArrayRef<Expr *> Args, bool Detail) {
  NamespaceDecl *NS = gradNamespace(Detail);
  if (!NS) {
    Failed = true;
    return nullptr;
  }
  DeclarationNameInfo NameInfo(&Ctx.Idents.get(Name), Loc);
  LookupResult R(S, NameInfo, Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, NS);
  if (R.empty()) {
    Failed = true;
    return nullptr;
  }
  CXXScopeSpec SS;
  SS.MakeGlobal(Ctx, Loc);
  SS.Extend(Ctx, gradNamespace(false), Loc, Loc);
  if (Detail)
    SS.Extend(Ctx, NS, Loc, Loc);
  return call(nameRef(SS, R, TArgs), Args);
}

Expr *SemaBuilder::callGrad(StringRef Name, ArrayRef<Expr *> Args) {
  return callRuntime(Name, {}, Args, /*Detail=*/false);
}

Expr *SemaBuilder::member(Expr *Base, StringRef Name, bool Arrow) {
  if (!Base) {
    Failed = true;
    return nullptr;
  }
  Base = wrapOperand(Base, prec::PointerToMember + 2, false);
  CXXScopeSpec SS;
  DeclarationNameInfo NameInfo(&Ctx.Idents.get(Name), Loc);
  return check(S.BuildMemberReferenceExpr(Base, Base->getType(), Loc, Arrow,
                                          SS, SourceLocation(), nullptr,
                                          NameInfo, nullptr, nullptr));
}

Expr *SemaBuilder::condition(Expr *E) {
  if (!E) {
    Failed = true;
    return nullptr;
  }
  Sema::ConditionResult CR =
      S.ActOnCondition(nullptr, Loc, E, Sema::ConditionKind::Boolean);
  if (CR.isInvalid()) {
    Failed = true;
    return nullptr;
  }
  return CR.get().second;
}

Stmt *SemaBuilder::forStmt(Stmt *Init, Expr *Cond, Expr *Inc, Stmt *Body) {
  if (!Body) {
    Failed = true;
    return nullptr;
  }
  return new (Ctx) ForStmt(Ctx, Init, Cond ? condition(Cond) : nullptr,
                           nullptr, Inc, Body, Loc, Loc, Loc);
}

Stmt *SemaBuilder::whileStmt(Expr *Cond, Stmt *Body) {
  Expr *C = condition(Cond);
  if (!C || !Body) {
    Failed = true;
    return nullptr;
  }
  return WhileStmt::Create(Ctx, nullptr, C, Body, Loc, Loc, Loc);
}

Stmt *SemaBuilder::doStmt(Stmt *Body, Expr *Cond) {
  Expr *C = condition(Cond);
  if (!C || !Body) {
    Failed = true;
    return nullptr;
  }
  return new (Ctx) DoStmt(Body, C, Loc, Loc, Loc);
}

Stmt *SemaBuilder::breakStmt() { return new (Ctx) BreakStmt(Loc); }
Stmt *SemaBuilder::continueStmt() { return new (Ctx) ContinueStmt(Loc); }

LabelDecl *SemaBuilder::label(DeclContext *DC, StringRef Name) {
  return LabelDecl::Create(Ctx, DC, Loc, &Ctx.Idents.get(Name));
}

Stmt *SemaBuilder::gotoStmt(LabelDecl *L) {
  return new (Ctx) GotoStmt(L, Loc, Loc);
}

Stmt *SemaBuilder::labelStmt(LabelDecl *L, Stmt *Sub) {
  auto *LS = new (Ctx) LabelStmt(Loc, L, Sub ? Sub : new (Ctx) NullStmt(Loc));
  L->setStmt(LS);
  return LS;
}

Expr *SemaBuilder::construct(QualType T, ArrayRef<Expr *> Args, bool List) {
  for (Expr *A : Args)
    if (!A) {
      Failed = true;
      return nullptr;
    }
  SmallVector<Expr *, 4> Ops(Args.begin(), Args.end());
  if (List && !(Ops.size() == 1 && isa<InitListExpr>(Ops[0]))) {
    ExprResult L = S.ActOnInitList(Loc, Ops, Loc);
    if (L.isInvalid())
      return check(L);
    Ops.assign(1, L.get());
  }
  T = T.getCanonicalType().getUnqualifiedType();
  return check(S.BuildCXXTypeConstructExpr(Ctx.getTrivialTypeSourceInfo(T, Loc),
                                           Loc, Ops, Loc, List));
}

Expr *SemaBuilder::initList(ArrayRef<Expr *> Elems) {
  for (Expr *E : Elems)
    if (!E) {
      Failed = true;
      return nullptr;
    }
  SmallVector<Expr *, 8> Ops(Elems.begin(), Elems.end());
  return check(S.ActOnInitList(Loc, Ops, Loc));
}

Expr *SemaBuilder::emptyInitList() {
  return check(S.ActOnInitList(Loc, {}, Loc));
}

} // namespace grad
