//===- Activity.h - Activity and write analysis -----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which variables carry derivatives (active: they depend on a
/// differentiated parameter) and which are written after their declaration
/// (their values must be recorded when the reverse sweep reads them).
/// A fixed point over the function's assignments; printable with
/// -fplugin-arg-grad-print-activity.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_ACTIVITY_H
#define CLANG_GRAD_ACTIVITY_H

#include "analysis/Paths.h"
#include "analysis/Facts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include <string>

namespace grad {

class Activity {
public:
  Activity(const Facts &St) : St(St) {}

  /// Analyses \p FD's body, with the parameters in \p Wrt as inputs.
  void run(const clang::FunctionDecl *FD, const WrtMask &Wrt);

  /// An alias of unknown storage counts as active: the builder refuses
  /// what it cannot track instead of dropping a derivative.
  bool isActive(const clang::VarDecl *VD) const {
    const clang::VarDecl *R = storageOf(VD);
    // (Loaded from memory: active if what it was loaded from is.)
    if (auto L = LoadRoots.find(VD); !R && L != LoadRoots.end())
      return llvm::any_of(L->second, [&](const clang::VarDecl *X) {
        return !X || isActive(X);
      });
    if (!R && RootsDecide) {
      if (auto It = Roots.find(VD); It != Roots.end())
        return llvm::any_of(It->second, [&](const clang::VarDecl *X) {
          return Active.count(X) != 0;
        });
      return Active.count(VD) != 0; // (its definitions decide: run())
    }
    return R ? Active.count(R) != 0 : true;
  }
  /// A pointer into several known storages is active if one of them is,
  /// and one into storage it cannot name if one of its definitions reaches
  /// active memory (vector pullbacks: a pointer of the pullback's forward
  /// sweep into its own values must not count as an adjoint). Set before
  /// run().
  bool RootsDecide = false;
  /// Active values stored into memory that only a variable carrying no
  /// derivatives reaches (`struct Buf { double *p; }`: `b.p[0] = x * x;`,
  /// `put(b, x * x)`), with the value or the call that stores them: no
  /// shadow would receive them (the builder reports each).
  llvm::SmallVector<std::pair<const clang::VarDecl *, const clang::Expr *>, 2>
      Lost;
  /// Calls that copy the bits of a differentiated value into storage
  /// without floating data (Paths.h bitCopySource: `std::bit_cast<
  /// std::uint64_t>(x)`, `memcpy(&u, &x, 8)`): the derivative would be
  /// lost (the builder reports each).
  llvm::SmallVector<const clang::CallExpr *, 1> BitCopies;
  /// Pointer parameters to floating data re-seated to other memory (`b =
  /// a;`), with the assignment: a pointer parameter's shadow is its
  /// adjoint at the offset from its entry value, which holds only while it
  /// points into its own memory (driver/EntryCopies.h presents such a
  /// parameter as a local, which tracks several storages). And pointer
  /// variables to floating data passed by reference to a call that may
  /// make them point into other memory (`std::swap(a, b)`, Paths.h
  /// keepsWithin), with the call. The builder reports each.
  llvm::SmallVector<std::pair<const clang::VarDecl *, const clang::Expr *>, 1>
      Reseated;
  /// Variables active from the start, besides the parameters (set before
  /// run()).
  llvm::SmallVector<const clang::VarDecl *, 4> Seeds;
  bool isWritten(const clang::VarDecl *VD) const { return Written.count(VD); }
  /// \p Copy, a local the derivative adds (a lambda's copy of a capture,
  /// Lift.h captureCopy) declared at \p At, is active if \p Of is; nothing
  /// else writes it.
  void addCopy(const clang::VarDecl *Copy, const clang::VarDecl *Of,
               const clang::Stmt *At) {
    if (isActive(Of))
      Active.insert(Copy);
    VarSites[Copy].push_back(At);
  }
  /// True if elements of the array, pointer or container \p VD (or of the
  /// storage an alias points into) are assigned somewhere in the function.
  bool isDataWritten(const clang::VarDecl *VD) const {
    return WrittenData.count(storageOf(VD));
  }
  /// For member functions: does `this` carry derivatives / is it written.
  bool ThisActive = false, ThisWritten = false;
  /// True if \p CE calls a local lambda that captures an active variable.
  bool capturesActive(const clang::CallExpr *CE) const;
  /// True if \p E is a floating value that depends on an active variable.
  bool isActive(const clang::Expr *E);
  /// True if \p E mentions a pointer or array into active storage (also
  /// through the initializer of a local object holding a pointer).
  bool reachesActive(const clang::Expr *E) const;

  /// Local pointers and references are aliases of the storage they point
  /// into (a parameter, a local array, container or scalar): their root.
  bool isAlias(const clang::VarDecl *VD) const { return Alias.count(VD); }
  /// A local pointer (or reference) every definition of which loads a
  /// pointer from memory (`double *a = *pa;`, `pp[i]`, `s.p`): it points
  /// where that pointer does, whose shadow is the pointer loaded from the
  /// same place in shadow memory (`*d_pa`). Its storage is unknown
  /// (storageOf is null).
  bool isLoadedAlias(const clang::VarDecl *VD) const {
    return Loaded.count(VD);
  }
  /// A pointer that owns heap memory it allocated (new[], malloc): its own
  /// root.
  bool isOwner(const clang::VarDecl *VD) const {
    auto It = Alias.find(VD);
    return It != Alias.end() && It->second == VD;
  }
  /// The storage \p VD points into if it is an alias (null when that is
  /// not one variable), else \p VD itself.
  const clang::VarDecl *storageOf(const clang::VarDecl *VD) const {
    auto It = Alias.find(VD);
    return It == Alias.end() ? VD : It->second;
  }
  /// A local pointer assigned pointers into different storages (`xp = x2;
  /// ... xp = &s[i];`): those storages, in a fixed order (empty if \p VD is
  /// not such a pointer). Its storage is then unknown (storageOf is null);
  /// the builder tracks which one it points into at run time.
  llvm::ArrayRef<const clang::VarDecl *>
  rootsOf(const clang::VarDecl *VD) const {
    auto It = Roots.find(VD);
    return It == Roots.end() ? llvm::ArrayRef<const clang::VarDecl *>()
                             : llvm::ArrayRef<const clang::VarDecl *>(
                                   It->second);
  }
  /// For an alias of one storage into the elements of a container member of
  /// it (`double *r = &m.data[i * n]`, `for (double &v : m.data)`, `double
  /// *q = r + 1`): the members from the storage to that container; empty
  /// for any other alias, and for one whose definitions go through
  /// different members.
  llvm::ArrayRef<const clang::FieldDecl *>
  memberPathOf(const clang::VarDecl *VD) const {
    auto It = MemberPaths.find(VD);
    return It == MemberPaths.end()
               ? llvm::ArrayRef<const clang::FieldDecl *>()
               : llvm::ArrayRef<const clang::FieldDecl *>(It->second);
  }
  /// The storage the pointer or lvalue expression \p E points into: a
  /// variable, or null (unknown, or `this` with \p IsThis set).
  const clang::VarDecl *rootOf(const clang::Expr *E, bool &IsThis) const;
  /// The storages \p E may denote or point into: its root (rootOf), or,
  /// through a pointer assigned pointers into several storages (rootsOf) or
  /// a conditional between them, each of those; empty where unknown and for
  /// `this`.
  llvm::SmallVector<const clang::VarDecl *, 2>
  mayReach(const clang::Expr *E) const;
  /// While computeAliases runs: true if \p E points where another alias
  /// than \p Of does, one whose targets are not found yet (an alias of
  /// aliases assigned each other, `t = a; a = b; b = t;`, settles
  /// optimistically: such a definition adds nothing until they are).
  bool pendingAlias(const clang::Expr *E, const clang::VarDecl *Of) const;
  /// True if the address of \p VD is taken or a reference binds to it.
  bool isAddressTaken(const clang::VarDecl *VD) const {
    return AddressTaken.count(VD);
  }

  /// True if no write to the data of the local array or container \p VD
  /// can run after \p Read (an expression of the function's body): every
  /// write ends before it, outside any loop around it. The reverse sweep
  /// may then read it again instead of recording it.
  bool unchangedAfter(const clang::VarDecl *VD, const clang::Stmt *Read) const;
  /// True if no write to the scalar variable \p VD can run after \p Read:
  /// every assignment or increment ends before it, outside any loop around
  /// it (and nothing takes its address or binds a reference to it).
  bool valueUnchangedAfter(const clang::VarDecl *VD,
                           const clang::Stmt *Read) const;
  /// True if, of the writes to the data of \p VD inside the statement
  /// \p Root, none can run after \p Read (inside \p Root too) in the same
  /// run of \p Root: each ends before it and shares no loop inside \p Root
  /// with it. (For an iteration recomputed just before its reverse.)
  bool unchangedWithin(const clang::VarDecl *VD, const clang::Stmt *Read,
                       const clang::Stmt *Root) const;

  using SiteMap =
      llvm::DenseMap<const clang::VarDecl *,
                     llvm::SmallVector<const clang::Stmt *, 2>>;

  /// "active: x, y, t; written: t".
  std::string print() const;

private:
  bool compute(const clang::Expr *E) const;
  /// compute() for a member or element path through a pointer.
  bool pathIsActive(const clang::Expr *E) const;
  /// True if the call argument \p A is active or points into active data.
  bool argumentIsActive(const clang::Expr *A) const;
  /// compute() for a call: its arguments, captures and object.
  bool callIsActive(const clang::CallExpr *CE) const;
  /// True if a construction takes active values or pointers into them.
  bool constructionIsActive(const clang::CXXConstructExpr *CE) const;
  /// Marks the parameters in \p Wrt, `this` and the seeds active.
  void seedActive(const clang::FunctionDecl *FD, const WrtMask &Wrt);
  /// Marks \p VD active, in order.
  void activate(const clang::VarDecl *VD);
  /// True if the call \p CE, which may write memory, has an active input.
  bool effectHasActiveInput(const clang::CallExpr *CE) const;
  /// No write in \p Sites can run after \p Read; with \p Root, only the
  /// writes inside \p Root count, and only loops inside it.
  bool sitesEndBefore(llvm::ArrayRef<const clang::Stmt *> Sites,
                      const clang::Stmt *Read,
                      const clang::Stmt *Root = nullptr) const;
  /// What collectWrites finds besides the written sets and sites it fills
  /// in: each local's definitions (initialisers, assignments), the calls
  /// that may write a variable, and range-for variables with the ranges
  /// they walk.
  struct Writes {
    llvm::SmallVector<std::pair<const clang::VarDecl *, const clang::Expr *>,
                      32>
        Defs;
    llvm::SmallVector<
        std::pair<const clang::VarDecl *, const clang::CallExpr *>, 8>
        Effects;
    llvm::SmallVector<
        std::pair<const clang::VarDecl *, const clang::VarDecl *>, 4>
        Ranges;
    llvm::DenseSet<const clang::VarDecl *> RangeVars;
  };
  /// The write analysis of \p Body (ActivityWrites.cpp).
  void collectWrites(const clang::Stmt *Body, Writes &W);
  /// The fixed point over the definitions and effects in \p C.
  void propagateActivity(const Writes &C);
  /// Fills Lost: active values stored where no shadow would receive them.
  void collectLost(const Writes &C);
  /// Fills BitCopies from the calls under \p S.
  void collectBitCopies(const clang::Stmt *S);
  void computeAliases(const clang::Stmt *Body);
  /// One round of computeAliases for the alias \p VD defined by \p Defs:
  /// true if its storage, storages or loads changed.
  bool updateAlias(const clang::VarDecl *VD,
                   llvm::ArrayRef<const clang::Expr *> Defs);
  void computeMemberPaths(
      const llvm::MapVector<const clang::VarDecl *,
                            llvm::SmallVector<const clang::Expr *, 2>> &Defs);

  const Facts &St;
  llvm::DenseSet<const clang::VarDecl *> Active, Written, WrittenData,
      AddressTaken, Loaded;
  /// Aliases with a definition whose target is not known (computeAliases;
  /// an alias assigned one of them is unknown too).
  llvm::DenseSet<const clang::VarDecl *> UnknownAliases;
  llvm::DenseMap<const clang::VarDecl *, const clang::VarDecl *> Alias;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::VarDecl *, 2>>
      Roots;
  /// For each loaded alias, the variables its loads read from (null:
  /// unknown, `this`).
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::VarDecl *, 2>>
      LoadRoots;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::FieldDecl *, 2>>
      MemberPaths;
  llvm::SmallVector<const clang::VarDecl *, 16> Order;
  const clang::Stmt *Body = nullptr;
  SiteMap DataSites, VarSites;
  // (unchangedAfter's numbering, built on first use.)
  mutable llvm::DenseMap<const clang::Stmt *, std::pair<unsigned, unsigned>>
      Span;
  mutable llvm::SmallVector<const clang::Stmt *, 8> LoopStmts;
  llvm::DenseMap<const clang::Expr *, bool> Cache;
  bool Done = false;
};

} // namespace grad

#endif
