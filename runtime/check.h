// SPDX-License-Identifier: Apache-2.0
// The checked mode: which checks a kernel was built with, where each checked
// instruction comes from, the memory a launch may touch, and the findings.
//
// A kernel built with checks carries extra bytecode instructions (emitted by
// spirv/lower*.cpp) that validate each active lane before the real operation:
// an access check replaces the address of a lane that must not access memory
// by the address of a harmless sink, so the access itself runs unchanged and
// nothing outside the kernel's memory is touched. Kernels built without
// checks contain none of this and pay nothing.
//
// Defined in check.cpp (the session, the entry of a checked access, the
// reports), check_bounds.cpp (bounds and alignment), check_uninit.cpp
// (uninitialised memory) and check_races.cpp (races); the instructions in
// exec_check.cpp (with the division, barrier and sub-group checks) and
// exec_undef.cpp (the register shadows).
#pragma once

#include "runtime/bytecode.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanewise::runtime {

struct ExecutionState;

// The checks, by the names LANEWISE_CHECK and -lanewise-check= take.
enum class Check : std::uint8_t { Bounds, Uninit, Races, Barriers, Subgroups, Alignment, Division };
inline constexpr Check allChecks[] = {Check::Bounds,    Check::Uninit,    Check::Races,
                                      Check::Barriers,  Check::Subgroups, Check::Alignment,
                                      Check::Division};
std::string_view checkName(Check check);

class CheckSet {
public:
  CheckSet() = default;
  static CheckSet all();
  // "all", "none" or a comma list of check names; nullopt (and *bad set to
  // the offending word) for an unknown name.
  static std::optional<CheckSet> parse(std::string_view text, std::string *bad = nullptr);
  // LANEWISE_CHECK (unset: none). An unknown name is reported on stderr
  // once and ignored.
  static CheckSet fromEnvironment();

  bool has(Check check) const { return bits_ & bit(check); }
  bool any() const { return bits_ != 0; }
  void add(Check check) { bits_ |= bit(check); }
  CheckSet operator|(CheckSet other) const { return CheckSet(bits_ | other.bits_); }
  std::string names() const; // "bounds,division" or "none"

private:
  explicit CheckSet(std::uint32_t bits) : bits_(bits) {}
  static std::uint32_t bit(Check check) { return 1u << static_cast<unsigned>(check); }
  std::uint32_t bits_ = 0;
};

// Where a checked instruction comes from, for reports.
struct CheckSite {
  std::string opcode;      // "OpStore"
  std::uint32_t resultId = 0;
  std::string file;        // empty without OpLine / debug information
  std::uint32_t line = 0, column = 0;
  std::uint32_t alignment = 0; // the access must be aligned to (0, 1: any)
  enum class Space : std::uint8_t { Global, Constant, Local, Private, Generic } space = Space::Generic;
  bool write = false;
  bool skipsUninit = false; // a copy's source: copies carry uninitialised bytes along
  // A whole 3-vector stored through a pointer to it: its 4-element slot
  // counts as written, padding included (compilers load 3-vectors as 4).
  bool writesPadding = false;
  // Not checked for races: atomics, and asynchronous copies (made by the
  // work-group, not by one work-item).
  bool skipsRaces = false;
  // A store of a scalar held in a register: that register (its element
  // size and whether it is varying), so that a race report can say that the
  // racing work-items stored the same value. storedBytes 0: not known.
  std::uint32_t storedOffset = 0;
  std::uint8_t storedBytes = 0;
  bool storedVarying = false;
  // A use of a value that may be undefined: where the value may come from
  // ("; the value comes from the read of private variable 'a' at k.cl:7"),
  // appended to the report; empty when unknown.
  std::string origin;
};

// The checks a kernel's code was built with and its sites (Instruction::aux
// of a check instruction indexes `sites`).
struct KernelChecks {
  CheckSet checks;
  std::vector<CheckSite> sites;
  std::vector<std::string> argumentNames; // by kernel argument index
  // For a source without a name of its own (program.cl), which program it
  // is: "program 3f2a91c0 (kernels a, b)"; empty otherwise.
  std::string programLabel;
  // The kernel's own __local variables and private variables, by offset.
  struct Variable {
    std::uint64_t offset = 0, size = 0;
    std::string name;
  };
  std::vector<Variable> localVariables, privateVariables;
  // Findings reported so far, as (site, kind): each is reported once for
  // the life of the kernel's code.
  mutable std::mutex reportedMutex;
  mutable std::set<std::pair<std::uint32_t, std::uint8_t>> reported;
};

// A range of memory a launch may access.
struct MemoryRange {
  std::uint64_t begin = 0, size = 0;
  CheckSite::Space space = CheckSite::Space::Global;
  std::string name; // "argument 1 'out'", "program-scope variable", "SVM allocation"
  bool released = false; // memory of a released object: never valid
};

enum class FindingKind : std::uint8_t {
  OutOfBounds,
  ReleasedMemory,
  LocalArgumentTooSmall,
  Misaligned,
  DivisionByZero,
  DivisionOverflow,
  BarrierDivergence,
  SubgroupDivergence, // a uniform-only sub-group operation reached by part of a sub-group
  SubgroupBadLane,    // a shuffle or broadcast reading an inactive or out-of-range lane
  UninitialisedRead,  // local or private memory read before any write
  DataRace,           // conflicting accesses of two work-items between barriers
};
std::string_view findingName(FindingKind kind);
// "global", "constant", "local", "private", "generic".
std::string_view spaceName(CheckSite::Space space);

// An atomic object's record for the race check: the epochs (token ranges)
// of the work-groups that released to it, by first token, each with the
// order in which it was released (CheckSession::raceRelease).
struct SyncObject {
  struct Released {
    std::uint32_t end, order;
  };
  std::map<std::uint32_t, Released> released;
  std::uint32_t count = 0;
};

// The race check on global memory identifies each access by a token: every
// epoch of a work-group (its run from the start or from a barrier that
// orders global memory to the next such barrier) gets a fresh range of
// tokens, one per work-item. Two accesses with different tokens are ordered
// only if they are in two epochs of the same work-group, or if the later
// one's group acquired the earlier one's epoch from an atomic object.
struct RaceEpochs {
  std::vector<std::uint32_t> starts; // ascending: the first token of each epoch, current last
  // What began each epoch: 0 the start or a work-group barrier; for a
  // sub-group barrier ordering global memory, the range of the sub-groups
  // that passed it, first + 1 in the low 16 bits, last + 1 in the high.
  std::vector<std::uint32_t> kinds;
  std::uint32_t lanes = 0; // work-items of the group
  std::uint32_t subgroupSize = 1;
  std::uint64_t group = 0; // the group's linear id
  // The block of tokens the worker takes its epochs' tokens from
  // (CheckSession::beginEpoch), of which launch, and the next epoch in it.
  std::uint64_t session = 0;
  struct TokenBlock *block = nullptr;
  std::uint32_t next = 0;
  // Release and acquire between work-groups (CheckSession::raceRelease):
  // the atomic objects this group acquired from, each with how many of the
  // object's released epochs it saw; whether a release fence of device
  // scope came before this group's later atomic writes; the objects its
  // atomics read since its last acquire fence of device scope.
  struct Acquired {
    const SyncObject *object;
    std::uint32_t releases;
  };
  std::vector<Acquired> acquired;
  bool releaseFence = false;
  std::vector<std::uint64_t> readAtomically;
  std::mutex *syncMutex = nullptr; // guards the objects acquired from
  // A new work-group: no epoch, nothing acquired.
  void reset() {
    starts.clear();
    kinds.clear();
    acquired.clear();
    releaseFence = false;
    readAtomically.clear();
  }
};

// Tokens for `epochs` epochs of `lanes` work-items each (epoch e has the
// tokens from first + e * lanes), which a worker hands out to its
// work-groups without a lock; the group of each epoch handed out (+ 1) is
// kept for reports.
struct TokenBlock {
  std::uint32_t first = 0, lanes = 0, epochs = 0;
  std::unique_ptr<std::atomic<std::uint64_t>[]> groups;
};

// One launch under checks: its memory map and where findings go. Shared by
// the launch's workers.
class CheckSession {
public:
  struct Options {
    std::string textFile, jsonFile; // empty: stderr only
    bool abortOnFirst = false;
  };
  static Options optionsFromEnvironment();

  CheckSession(const KernelCode &code, std::vector<MemoryRange> global, Options options);
  ~CheckSession();

  const KernelCode &code() const { return code_; }
  // The __local arena layout of this launch: argument i at localArgument[i]
  // with its size (ranges relative to the arena).
  void setLocalLayout(std::vector<MemoryRange> ranges) { local_ = std::move(ranges); }

  // Validates the access of `bytes` bytes for the site by each active lane
  // of the warp at `pointer` (one address per lane when varying, else one
  // for all) and writes to `result` the address each lane may use: its own,
  // or a sink when it must not access memory (the finding is reported).
  void checkWarp(const ExecutionState &s, std::uint32_t site, const std::uint64_t *pointer,
                 bool varying, std::uint64_t bytes, std::uint64_t *result);
  // The same for one lane; false if the access must not happen.
  bool checkAccess(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                   std::uint64_t address, std::uint64_t bytes);

  // Starts a new epoch of a work-group for the race check on global memory.
  void beginEpoch(RaceEpochs &epochs, std::uint32_t kind = 0);
  // Ordering between work-groups by atomics and fences of device scope
  // (OpenCL C 3.0, 6.15.12; the memory model, 3.3.6 of the API spec): a
  // release to the atomic object at `address` publishes the group's epochs
  // so far, and those it acquired, to the object; an acquire from it
  // orders them before the group's later accesses (RaceEpochs::acquired).
  void raceRelease(RaceEpochs &epochs, std::uint64_t address);
  void raceAcquire(RaceEpochs &epochs, std::uint64_t address);
  // A finding that has no address (division, barrier, sub-group).
  void report(const ExecutionState &s, std::uint32_t lane, std::uint32_t site, FindingKind kind,
              const std::string &detail);

  // Marks [address, address + bytes) written, for the uninitialised-read
  // check (copies and asynchronous copies that bypass the access checks).
  static void noteWrite(const ExecutionState &s, std::uint64_t address, std::uint64_t bytes);

  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }
  // Prints the summary of suppressed repeats; called when the launch ends.
  void finish();

  // The uninitialised-read check's memory shadow of [address, address +
  // bytes) when it lies in the work-group's __local arena or private
  // memory, else null: a byte per byte, 0 until written (see
  // memoryShadowBadShuffle in runtime/handlers.h for the other values).
  static std::uint8_t *shadowOf(const ExecutionState &s, std::uint64_t address,
                                std::uint64_t bytes);

  // Addresses that inactive or invalid lanes are sent to: reads give zeros.
  static std::uint64_t readSink();
  static std::uint64_t writeSink();
  static constexpr std::uint64_t sinkBytes = 4096;

private:
  // Where a finding's access went: the address, and the memory it is in
  // (a generic pointer's resolved).
  struct Place {
    std::uint64_t address;
    CheckSite::Space space;
  };
  class GlobalAccessLog;
  // Under the race check: the process's record of global memory, taken for
  // this launch (globalLog_, firstToken_) and given back.
  void openGlobalLog();
  void closeGlobalLog();
  // Which memory a lane's address is in (generic pointers resolved).
  std::string privateOwner(const ExecutionState &s, std::uint64_t address, std::uint64_t bytes,
                           const MemoryRange *nearest) const;
  static CheckSite::Space resolve(CheckSite::Space space, std::uint64_t address);
  // The whole warp at once: true if every active lane's access is aligned
  // and inside one and the same valid range of `space` (resolved).
  bool spanValid(const ExecutionState &s, const CheckSite &where, const std::uint64_t *pointer,
                 std::uint64_t bytes, CheckSite::Space &space) const;
  // The checks after the bounds check: uninitialised reads, races, and the
  // record of the write.
  void checkContents(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                     std::uint64_t address, std::uint64_t bytes, CheckSite::Space space);
  // "; its access: OpStore at FILE:LINE:COLUMN" for a site + 1 (0: "").
  std::string otherAccess(std::uint32_t sitePlusOne) const;
  // "; at offset N of NAME" for the allocation that holds `address`, or "".
  std::string owner(const ExecutionState &s, std::uint32_t lane, std::uint64_t address,
                    CheckSite::Space space) const;
  void checkLocalWarp(const ExecutionState &s, std::uint32_t site, const std::uint64_t *pointer,
                      std::uint64_t bytes);
  template <std::uint64_t Bytes> // 0: `bytes` bytes
  void checkLocalLanes(const ExecutionState &s, std::uint32_t site, const std::uint64_t *pointer,
                       std::uint64_t bytes);
  void checkGlobalWarp(const ExecutionState &s, std::uint32_t site, const std::uint64_t *pointer,
                       std::uint64_t bytes);
  struct LogCursor; // remembers the last piece of the global record looked at
  void checkGlobalRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                       std::uint64_t address, std::uint64_t bytes, bool write,
                       LogCursor &cursor);
  bool checkGlobalLine(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                       std::uint64_t address, std::uint64_t bytes, bool write, LogCursor &cursor);
  bool inBounds(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                std::uint64_t address, std::uint64_t bytes, CheckSite::Space space,
                std::uint64_t arena, std::uint64_t privateBase);
  void reportLocalRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                       std::uint64_t address, std::uint32_t other, std::uint32_t otherSite,
                       const char *what, bool sameValue);
  bool storesSameValue(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                       std::uint64_t address, std::uint64_t bytes, std::uint32_t other,
                       std::uint32_t otherSite) const;
  // The race check of one lane's access of __local (checkRace) or global
  // memory (checkGlobalRace).
  void checkLaneRaces(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                      std::uint64_t address, std::uint64_t bytes, bool write,
                      CheckSite::Space space);
  template <std::uint64_t Bytes> // 0: `bytes` bytes
  void checkRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                 std::uint64_t address, std::uint64_t bytes, bool write);
  void checkInitialised(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                        std::uint64_t address, std::uint64_t bytes, CheckSite::Space space);
  void report(const ExecutionState &s, std::uint32_t lane, std::uint32_t site, FindingKind kind,
              const std::string &detail, std::optional<Place> place);

  const KernelCode &code_;
  std::vector<MemoryRange> global_, local_;
  std::vector<MemoryRange> live_; // the global ranges not released, by start
  Options options_;
  std::atomic<bool> aborted_{false};
  // Under the race check: the process's record of global memory, and the
  // first token of this launch (older tokens are of earlier launches).
  GlobalAccessLog *globalLog_ = nullptr;
  std::uint32_t firstToken_ = 0;
  // What the workers change (under the mutexes) starts a cache line of its
  // own: the members above are read on every checked access.
  alignas(64) std::mutex epochMutex_;
  std::uint64_t serial_; // of the sessions of the process, from 1
  // This launch's blocks of tokens, each a worker's, by first token.
  std::deque<TokenBlock> blocks_;
  bool tokensExhausted_ = false;
  // The atomic objects released to in this launch, by address.
  std::mutex syncMutex_;
  std::unordered_map<std::uint64_t, SyncObject> syncObjects_;
  std::mutex mutex_;
  std::uint64_t suppressed_ = 0;
};

} // namespace lanewise::runtime
