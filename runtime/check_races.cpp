// SPDX-License-Identifier: Apache-2.0
// The race check (runtime/check.h): conflicting accesses of two work-items,
// at least one a write and neither atomic, that no barrier orders (OpenCL
// C 3.0, 6.15.8; the memory model, 3.3.6 of the API spec). __local memory:
// the writer and reader of each byte since the work-group's last barrier
// (checkRace, and checkLocalLanes for a whole warp, which also checks
// uninitialised bytes). Global memory: the process's record of the last
// writer and reader of each word or 64-byte line (GlobalAccessLog), each
// identified by a token of a work-group's epoch between barriers that
// order global memory (beginEpoch), for accesses within a work-group and
// between the work-groups of a launch, which atomics of device scope may
// order (raceRelease, raceAcquire).
#include "runtime/check.h"

#include "runtime/execution.h"
#include "runtime/handlers.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace lanewise::runtime {

// The race check's record of global memory: for each 4-byte word touched,
// the token (RaceEpochs) of its last writer and of its last reader, each
// with the mask of the bytes of the word it accessed (token << 4 | mask),
// and the instruction of each access.
// Accesses of whole words inside one 64-byte line (consecutive work-items
// at consecutive elements of 4-64 bytes, one work-item's vector) are kept
// per line instead, one record of writers and one of readers: the words of
// its mask were last accessed by tokens that step along the line (one
// work-item's, or consecutive work-items'), from one instruction or from
// each word's own. Those words' records are stale while the line's holds
// them, and an access the line cannot take first writes the line's record
// out to its words. A streaming kernel then reads and writes 8 bytes of
// record per line of memory, not 16 per word.
// One record serves the whole process: tokens increase from launch to
// launch, so what an earlier launch left is older than the current launch's
// first token and ignored, and nothing needs clearing between launches. The
// record is made in pieces (for 64 KiB of memory each) on first touch, and
// dropped when no launch is using it and either the tokens run low or the
// record has outgrown its budget (LANEWISE_CHECK_MEMORY MiB, by default a
// sixteenth of the machine's memory): a process that keeps allocating
// buffers at new addresses would otherwise keep the record of every address
// it ever used.
class CheckSession::GlobalAccessLog {
public:
  struct Word {
    std::uint32_t writer = 0, reader = 0;
    std::uint32_t writerSite = 0, readerSite = 0; // check site + 1 of each access
  };
  // A line's record of one kind, 0 (its words hold the record) or, from the
  // low bit up: the token of the line's first word (28 bits), log2 of the
  // words each later token takes (3 bits), a set bit, the mask of the words
  // it holds (16 bits) and the site + 1 of all of them (16 bits; 0: each
  // word's own, in the piece's sites).
  struct Line {
    std::uint64_t writer = 0, reader = 0;
  };
  static constexpr unsigned lineShift = 6, wordsPerLine = 1u << (lineShift - 2);
  static constexpr std::uint32_t lineSites = 1u << 16; // a line's own site + 1 is below
  static std::uint64_t lineRecord(std::uint32_t first, unsigned shift, std::uint32_t mask,
                                  std::uint32_t sitePlusOne) {
    return std::uint64_t(sitePlusOne) << 48 | std::uint64_t(mask) << 32 | 1u << 31 | shift << 28 |
           first;
  }
  // The token of word w of a line whose record is `record` (not 0).
  static std::uint32_t lineToken(std::uint64_t record, unsigned w) {
    return (record & 0x0FFFFFFF) + (w >> ((record >> 28) & 7));
  }
  static std::uint32_t lineMask(std::uint64_t record) { return (record >> 32) & 0xFFFF; }
  static std::uint32_t lineSite(std::uint64_t record) { return record >> 48; }
  // A line of the record with its words' records and sites (null until
  // the piece needs them).
  struct LineAt {
    Line *line = nullptr;
    Word *words = nullptr;
    std::uint32_t *writerSites = nullptr, *readerSites = nullptr;
  };
  static constexpr std::uint32_t tokenLimit = 1u << 28;

  static GlobalAccessLog &process() {
    static auto *log = new GlobalAccessLog(); // outlives every launch
    return *log;
  }

  // A launch starts using the record: the first token it may be given.
  std::uint32_t open() {
    std::lock_guard lock(mutex_);
    if (sessions_ == 0 && (nextToken_ > tokenLimit / 2 || recordBytes() > budget())) {
      clear();
      nextToken_ = 1;
    }
    ++sessions_;
    return nextToken_;
  }
  void close() {
    std::lock_guard lock(mutex_);
    --sessions_;
  }
  // `lanes` fresh tokens: the first, or 0 when none are left.
  std::uint32_t allocate(std::uint32_t lanes) {
    std::lock_guard lock(mutex_);
    if (tokenLimit - nextToken_ <= lanes)
      return 0;
    const std::uint32_t first = nextToken_;
    nextToken_ += lanes;
    return first;
  }

  static constexpr unsigned pieceShift = 16;
  static constexpr std::size_t wordsPerPiece = std::size_t(1) << (pieceShift - 2),
                               linesPerPiece = wordsPerPiece / wordsPerLine;
  // The record of a 64 KiB piece of memory: its lines', and its words' and
  // the words' sites under line records, each made on first use.
  struct Piece {
    Line lines[linesPerPiece];
    std::atomic<Word *> words{nullptr};
    std::atomic<std::uint32_t *> sites{nullptr}; // writers' then readers', by word
    // The lines whose words have held a record (the others' are empty).
    std::atomic<std::uint64_t> wordsUsed[linesPerPiece / 64] = {};
  };
  // The piece that holds `address`, or null outside the 48-bit address
  // space.
  Piece *piece(std::uint64_t address) {
    if (address >> 48)
      return nullptr;
    std::atomic<Leaves *> &tableSlot = tables_[address >> 32];
    Leaves *leaves = tableSlot.load(std::memory_order_acquire);
    if (!leaves) {
      auto *fresh = new Leaves();
      if (tableSlot.compare_exchange_strong(leaves, fresh, std::memory_order_acq_rel))
        leaves = fresh;
      else
        delete fresh;
    }
    std::atomic<Piece *> &leafSlot = leaves->leaf[(address >> pieceShift) & (leafCount - 1)];
    Piece *leaf = leafSlot.load(std::memory_order_acquire);
    if (!leaf) {
      std::lock_guard lock(slabMutex_);
      leaf = leafSlot.load(std::memory_order_acquire);
      if (!leaf && (leaf = static_cast<Piece *>(carve(sizeof(Piece)))))
        leafSlot.store(leaf, std::memory_order_release);
    }
    return leaf;
  }
  // Part of a piece made on first use (null if memory ran out).
  template <typename T> T *made(std::atomic<T *> &slot, std::size_t count) {
    T *part = slot.load(std::memory_order_acquire);
    if (!part) {
      std::lock_guard lock(slabMutex_);
      part = slot.load(std::memory_order_acquire);
      if (!part && (part = static_cast<T *>(carve(count * sizeof(T)))))
        slot.store(part, std::memory_order_release);
    }
    return part;
  }
  // The line that holds `address` (its `line` null outside the address
  // space), through `cursor`, which remembers the last piece: neighbouring
  // lanes' lines are mostly in one piece. Its words (null if none of them
  // holds a record yet) and sites (null if the piece has none), or with
  // `make`, those made.
  enum class Make : std::uint8_t { Nothing, Sites, Words };
  LineAt line(std::uint64_t address, LogCursor &cursor, Make make = Make::Nothing);
  // The word that holds `address` (null outside the address space); its
  // line's records are written out to the words first.
  Word *word(std::uint64_t address, LogCursor &cursor);
  // Writes a line's record of one kind out to its words and clears it.
  static void spill(const LineAt &at, bool writers);
  template <typename Self>
  static bool conflicts(const RaceEpochs &epochs, std::uint32_t firstToken, const LineAt &at,
                        bool writers, unsigned w0, unsigned w1, Self self);

private:
  static constexpr std::size_t leafCount = 1 << 16, tableCount = 1 << 16;
  struct Leaves {
    std::atomic<Piece *> leaf[leafCount] = {};
  };
  GlobalAccessLog() : tables_(std::make_unique<std::atomic<Leaves *>[]>(tableCount)) {}
  // Pieces and words are carved in order from slabs of 32 MiB, mapped
  // zeroed and aligned to 2 MiB so that the kernel may back them with huge
  // pages: the record of a large buffer is then a few pages to fault in and
  // keep in the TLB, not one per 4 KiB of record. Under slabMutex_.
  static constexpr std::size_t slabBytes = std::size_t(32) << 20, hugePage = std::size_t(2) << 20;
  void *carve(std::size_t bytes) {
    bytes = (bytes + 63) & ~std::size_t(63);
    if (slabs_.empty() || slabUsed_ + bytes > slabBytes) {
      void *mapped = mmap(nullptr, slabBytes + hugePage, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (mapped == MAP_FAILED)
        return nullptr;
      // Keep the 2 MiB-aligned slab, return the ends.
      const auto start = reinterpret_cast<std::uintptr_t>(mapped);
      const std::uintptr_t aligned = (start + hugePage - 1) & ~(hugePage - 1);
      if (aligned > start)
        munmap(mapped, aligned - start);
      if (const std::uintptr_t tail = start + hugePage - aligned)
        munmap(reinterpret_cast<void *>(aligned + slabBytes), tail);
      madvise(reinterpret_cast<void *>(aligned), slabBytes, MADV_HUGEPAGE);
      slabs_.push_back(reinterpret_cast<std::byte *>(aligned));
      slabUsed_ = 0;
    }
    void *carved = slabs_.back() + slabUsed_;
    slabUsed_ += bytes;
    return carved;
  }
  std::size_t recordBytes() {
    std::lock_guard lock(slabMutex_);
    return slabs_.size() * slabBytes;
  }
  // Read at each launch, so that a process may change it.
  static std::size_t budget() {
    if (const char *mib = std::getenv("LANEWISE_CHECK_MEMORY"); mib && *mib) {
      char *end = nullptr;
      const unsigned long long value = std::strtoull(mib, &end, 10);
      if (*end == '\0')
        return std::size_t(value) << 20;
    }
    static const std::size_t bytes = [] {
      const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
      const std::size_t physical =
          pages > 0 && pageSize > 0 ? std::size_t(pages) * std::size_t(pageSize) : 0;
      return std::max(physical / 16, std::size_t(256) << 20);
    }();
    return bytes;
  }
  void clear() {
    for (std::size_t t = 0; t < tableCount; ++t)
      delete tables_[t].exchange(nullptr);
    std::lock_guard lock(slabMutex_);
    for (std::byte *slab : slabs_)
      munmap(slab, slabBytes);
    slabs_.clear();
  }
  std::unique_ptr<std::atomic<Leaves *>[]> tables_;
  // What changes under the mutexes starts a cache line of its own: tables_
  // is read on every new piece an access touches.
  alignas(64) std::mutex slabMutex_;
  std::vector<std::byte *> slabs_;
  std::size_t slabUsed_ = 0;
  std::mutex mutex_;
  std::uint32_t nextToken_ = 1;
  unsigned sessions_ = 0;
};

struct CheckSession::LogCursor {
  std::uint64_t piece = UINT64_MAX;
  GlobalAccessLog::Piece *records = nullptr;
};

inline CheckSession::GlobalAccessLog::LineAt
CheckSession::GlobalAccessLog::line(std::uint64_t address, LogCursor &cursor, Make make) {
  if (address >> pieceShift != cursor.piece) {
    cursor.piece = address >> pieceShift;
    cursor.records = piece(address);
  }
  LineAt at;
  if (!cursor.records)
    return at;
  Piece &p = *cursor.records;
  const std::size_t index = (address >> lineShift) % linesPerPiece;
  std::uint32_t *sites = make != Make::Nothing ? made(p.sites, 2 * wordsPerPiece)
                                               : p.sites.load(std::memory_order_acquire);
  if (make != Make::Nothing && !sites)
    return at;
  std::atomic<std::uint64_t> &used = p.wordsUsed[index / 64];
  const std::uint64_t bit = std::uint64_t(1) << (index % 64);
  if (make == Make::Words || (used.load(std::memory_order_acquire) & bit)) {
    Word *all = make == Make::Words ? made(p.words, wordsPerPiece)
                                    : p.words.load(std::memory_order_acquire);
    if (!all)
      return at;
    if (!(used.load(std::memory_order_relaxed) & bit))
      used.fetch_or(bit, std::memory_order_acq_rel);
    at.words = all + index * wordsPerLine;
  }
  at.line = p.lines + index;
  if (sites) {
    at.writerSites = sites + index * wordsPerLine;
    at.readerSites = at.writerSites + wordsPerPiece;
  }
  return at;
}

CheckSession::GlobalAccessLog::Word *CheckSession::GlobalAccessLog::word(std::uint64_t address,
                                                                         LogCursor &cursor) {
  const LineAt at = line(address, cursor, Make::Words);
  if (!at.line)
    return nullptr;
  spill(at, true);
  spill(at, false);
  return at.words + (address >> 2) % wordsPerLine;
}

void CheckSession::GlobalAccessLog::spill(const LineAt &at, bool writers) {
  std::atomic_ref line(writers ? at.line->writer : at.line->reader);
  std::uint64_t value = line.load(std::memory_order_acquire);
  while (value) {
    const std::uint32_t *sites = writers ? at.writerSites : at.readerSites;
    for (std::uint32_t mask = lineMask(value); mask; mask &= mask - 1) {
      const auto w = static_cast<unsigned>(std::countr_zero(mask));
      Word &word = at.words[w];
      std::atomic_ref token(writers ? word.writer : word.reader);
      std::atomic_ref site(writers ? word.writerSite : word.readerSite);
      token.store(lineToken(value, w) << 4 | 0xF, std::memory_order_relaxed);
      site.store(lineSite(value) ? lineSite(value)
                                 : std::atomic_ref(sites[w]).load(std::memory_order_relaxed),
                 std::memory_order_relaxed);
    }
    // An access may have changed the line meanwhile: then again.
    if (line.compare_exchange_weak(value, 0, std::memory_order_release, std::memory_order_acquire))
      break;
  }
}

void CheckSession::openGlobalLog() {
  globalLog_ = &GlobalAccessLog::process();
  firstToken_ = globalLog_->open();
}

void CheckSession::closeGlobalLog() { globalLog_->close(); }

void CheckSession::checkLaneRaces(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                  std::uint64_t address, std::uint64_t bytes, bool write,
                                  CheckSite::Space space) {
  if (space == CheckSite::Space::Local)
    checkRace<0>(s, lane, site, address, bytes, write);
  else if (space == CheckSite::Space::Global) {
    LogCursor cursor;
    checkGlobalRace(s, lane, site, address, bytes, write, cursor);
  }
}

// checkContents for every active lane of an access inside the __local
// arena, the hot path of kernels that tile through __local memory: lanes
// with nothing to report are handled here, the others by the per-lane
// checks, which report.
void CheckSession::checkLocalWarp(const ExecutionState &s, std::uint32_t site,
                                  const std::uint64_t *pointer, std::uint64_t bytes) {
  // The common sizes with the loops over bytes unrolled.
  switch (bytes) {
  case 1:
    return checkLocalLanes<1>(s, site, pointer, bytes);
  case 2:
    return checkLocalLanes<2>(s, site, pointer, bytes);
  case 4:
    return checkLocalLanes<4>(s, site, pointer, bytes);
  case 8:
    return checkLocalLanes<8>(s, site, pointer, bytes);
  case 16:
    return checkLocalLanes<16>(s, site, pointer, bytes);
  default:
    return checkLocalLanes<0>(s, site, pointer, bytes);
  }
}

namespace {

// The reader of a byte of __local memory read by several work-items.
constexpr std::uint32_t severalReaders = UINT32_MAX;
// A writer or reader recorded before a sub-group barrier of its sub-group:
// this bit and the sub-group's index in the work-group, in place of the
// work-item (local linear id + 1, at most 2^16).
constexpr std::uint32_t subgroupTag = 0x40000000u;

// Whether a read of `Bytes` bytes of __local memory at `offset` by the
// work-item `self` (local linear id + 1) changes nothing in the race record
// and reports nothing: every byte unwritten since the last barrier or
// written by the work-item itself, and already read by it or by several.
// Tiled kernels' reads of one element by a row of work-items are mostly
// such. Four bytes at a time, without a branch.
template <std::uint64_t Bytes>
bool readSettled(const WorkGroupInfo &g, std::uint64_t offset, std::uint32_t self) {
  if constexpr (Bytes % 4 == 0) {
    typedef std::uint32_t Bytes4 __attribute__((vector_size(16)));
    Bytes4 writer, reader;
    auto settled = Bytes4{} == 0;
    for (std::uint64_t b = offset; b < offset + Bytes; b += 4) {
      std::memcpy(&writer, g.localWriter + b, sizeof writer);
      std::memcpy(&reader, g.localReader + b, sizeof reader);
      settled &=
          ((writer == 0) | (writer == self)) & ((reader == self) | (reader == severalReaders));
    }
    std::uint64_t halves[2];
    std::memcpy(halves, &settled, sizeof halves);
    return (halves[0] & halves[1]) == ~std::uint64_t(0);
  } else {
    bool settled = true;
    for (std::uint64_t b = offset; b < offset + Bytes; ++b) {
      const std::uint32_t writer = g.localWriter[b], reader = g.localReader[b];
      settled &= (writer == 0) | (writer == self);
      settled &= (reader == self) | (reader == severalReaders);
    }
    return settled;
  }
}

// A read of `Bytes` bytes of __local memory at `offset` by the work-item
// `self` (local linear id + 1) whose bytes no other work-item has written
// since the last barrier: such a read races with nothing, and its only
// effect on the race record is the reader of each byte, which becomes
// `self` if it had none and "several" if it had another. Returns false,
// changing nothing, when another work-item wrote one of the bytes (then
// checkRace reports). The race check's common path for a tile's first
// reads after a barrier, four bytes at a time without a branch.
template <std::uint64_t Bytes>
bool readUnwritten(const WorkGroupInfo &g, std::uint64_t offset, std::uint32_t self,
                   std::uint32_t siteTag) {
  static_assert(Bytes != 0 && Bytes % 4 == 0);
  typedef std::uint32_t Bytes4 __attribute__((vector_size(16)));
  Bytes4 writer[Bytes / 4], reader[Bytes / 4];
  auto unwritten = Bytes4{} == 0;
  for (std::uint64_t k = 0; k < Bytes / 4; ++k) {
    std::memcpy(&writer[k], g.localWriter + offset + 4 * k, sizeof writer[k]);
    std::memcpy(&reader[k], g.localReader + offset + 4 * k, sizeof reader[k]);
    unwritten &= (writer[k] == 0) | (writer[k] == self);
  }
  std::uint64_t halves[2];
  std::memcpy(halves, &unwritten, sizeof halves);
  if ((halves[0] & halves[1]) != ~std::uint64_t(0))
    return false;
  for (std::uint64_t k = 0; k < Bytes / 4; ++k) {
    const Bytes4 keep = (reader[k] == self) | (reader[k] == severalReaders);
    const Bytes4 next = reader[k] == 0 ? Bytes4{} + self : Bytes4{} + severalReaders;
    Bytes4 site;
    std::memcpy(&site, g.localReaderSite + offset + 4 * k, sizeof site);
    reader[k] = keep ? reader[k] : next;
    site = keep ? site : Bytes4{} + siteTag;
    std::memcpy(g.localReader + offset + 4 * k, &reader[k], sizeof reader[k]);
    std::memcpy(g.localReaderSite + offset + 4 * k, &site, sizeof site);
  }
  return true;
}

// Whether a read of those bytes by any work-item would be settled: they are
// unwritten since the last barrier and read by several already. (Token 0 is
// no work-item, so it has neither written nor read them.)
template <std::uint64_t Bytes>
bool readSettledForAny(const WorkGroupInfo &g, std::uint64_t offset) {
  return readSettled<Bytes>(g, offset, 0);
}

// Whether every one of `bytes` shadow bytes is set (written), four at a
// time where it can.
template <std::uint64_t Bytes> bool allWritten(const std::uint8_t *shadow, std::uint64_t bytes) {
  if constexpr (Bytes != 0 && Bytes % 4 == 0) {
    std::uint32_t zeroByte = 0;
    for (std::uint64_t b = 0; b < Bytes; b += 4) {
      std::uint32_t v;
      std::memcpy(&v, shadow + b, 4);
      zeroByte |= (v - 0x01010101u) & ~v & 0x80808080u;
    }
    return zeroByte == 0;
  } else {
    bool all = true;
    for (std::uint64_t b = 0; b < bytes; ++b)
      all &= shadow[b] != 0;
    return all;
  }
}

} // namespace

template <std::uint64_t Bytes>
void CheckSession::checkLocalLanes(const ExecutionState &s, std::uint32_t site,
                                   const std::uint64_t *pointer, std::uint64_t size) {
  const std::uint64_t bytes = Bytes ? Bytes : size;
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const WorkGroupInfo &g = *s.group;
  const auto arena = reinterpret_cast<std::uint64_t>(g.localArena);
  std::uint8_t *const shadow = g.localShadow;
  const bool uninit =
      shadow && checks.checks.has(Check::Uninit) && !where.write && !where.skipsUninit;
  const bool races = g.localWriter && checks.checks.has(Check::Races) && !where.skipsRaces;
  const std::uint64_t written = where.writesPadding ? bytes / 3 * 4 : bytes;
  // A read of bytes that are written, unwritten since the last barrier and
  // read by several changes nothing and reports nothing, for any lane. The
  // offsets of such reads seen in this access are kept in a small table:
  // the lanes of a tile's rows and columns that read what other lanes
  // read are settled by a look-up.
  constexpr std::uint32_t remembered = 32;
  std::uint64_t settledOffsets[remembered];
  const bool remember = Bytes != 0 && !where.write;
  if (remember)
    std::fill(std::begin(settledOffsets), std::end(settledOffsets), UINT64_MAX);
  for (std::uint32_t lane = s.begin; lane < s.span; ++lane) {
    if (!s.contiguous && !s.active[lane])
      continue;
    const std::uint64_t offset = pointer[lane] - arena;
    std::uint64_t &slot = settledOffsets[offset / (Bytes ? Bytes : 1) % remembered];
    if (remember && slot == offset)
      continue;
    const bool initialised = !uninit || allWritten<Bytes>(shadow + offset, bytes);
    if (!initialised)
      checkInitialised(s, lane, site, pointer[lane], bytes, CheckSite::Space::Local);
    bool settled = false;
    if constexpr (Bytes != 0 && Bytes % 4 == 0)
      settled = races && !where.write &&
                readUnwritten<Bytes>(g, offset, s.firstLocalIndex + lane + 1, site + 1);
    else if constexpr (Bytes != 0)
      settled =
          races && !where.write && readSettled<Bytes>(g, offset, s.firstLocalIndex + lane + 1);
    if (races && !settled)
      checkRace<Bytes>(s, lane, site, pointer[lane], bytes, where.write);
    if (where.write && shadow)
      std::memset(shadow + offset, 1, written);
    if constexpr (Bytes != 0)
      if (remember && initialised && (!races || readSettledForAny<Bytes>(g, offset)))
        slot = offset;
  }
}

// Races on __local memory between two barriers: for each byte, the
// work-item that wrote it and the one that read it (or "several") since the
// last barrier. Conflicting accesses of two work-items, at least one a
// write, race (OpenCL C 3.0, 6.15.8 and the memory model).
template <std::uint64_t Bytes>
void CheckSession::checkRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                             std::uint64_t address, std::uint64_t size, bool write) {
  const std::uint64_t bytes = Bytes ? Bytes : size;
  const WorkGroupInfo &g = *s.group;
  if (!g.localWriter)
    return;
  const auto arena = reinterpret_cast<std::uint64_t>(g.localArena);
  if (address < arena || address + bytes > arena + g.localBytes)
    return;
  const std::uint32_t self = s.firstLocalIndex + lane + 1;
  // An access of a work-item of this work-item's sub-group before that
  // sub-group's barrier is ordered before this one.
  const std::uint32_t ownSubgroup = subgroupTag | (self - 1) / std::max(g.subgroupSize, 1u);
  auto ordered = [&](std::uint32_t id) { return id == ownSubgroup; };
  std::uint32_t other = 0, otherSite = 0;
  const char *what = nullptr;
  const std::uint64_t offset = address - arena;
  for (std::uint64_t b = offset; b < offset + bytes; ++b) {
    std::uint32_t &writer = g.localWriter[b], &reader = g.localReader[b];
    if (!what && writer && writer != self && !ordered(writer)) {
      other = writer;
      otherSite = g.localWriterSite[b];
      what = write ? "written by this work-item and by" : "read by this work-item and written by";
    } else if (!what && write && reader && reader != self && !ordered(reader)) {
      other = reader;
      otherSite = g.localReaderSite[b];
      what = "written by this work-item and read by";
    }
    // Stores only what changes: most reads find themselves or "several".
    if (write) {
      writer = self;
      g.localWriterSite[b] = site + 1;
    } else if (reader != self && reader != severalReaders) {
      reader = reader == 0 || ordered(reader) ? self : severalReaders;
      g.localReaderSite[b] = site + 1;
    }
  }
  if (what)
    reportLocalRace(s, lane, site, address, other, otherSite, what,
                    write && storesSameValue(s, lane, site, address, bytes, other, otherSite));
}

// Whether the store at `site` writes, for `lane`, what the racing store of
// work-item `other` (at `otherSite`, plus one) wrote or writes at `address`.
// The check runs before the store: a store of an earlier instruction or
// warp is in memory; one of this instruction, by another lane of this warp,
// is still in its register. Known for scalars held in registers only.
bool CheckSession::storesSameValue(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                   std::uint64_t address, std::uint64_t bytes, std::uint32_t other,
                                   std::uint32_t otherSite) const {
  const CheckSite &where = code_.checks->sites[site];
  if (!where.storedBytes || bytes > where.storedBytes || other == severalReaders ||
      (other & subgroupTag))
    return false;
  auto storedBy = [&](std::uint32_t l) {
    // Little-endian: a narrower store writes the element's low bytes.
    return s.reg<const std::uint8_t>(where.storedOffset) +
           (where.storedVarying ? std::uint64_t(l) * where.storedBytes : 0);
  };
  const std::uint64_t otherLane = std::uint64_t(other - 1) - s.firstLocalIndex;
  const bool pending = otherSite == site + 1 && other - 1 >= s.firstLocalIndex &&
                       otherLane < s.laneCount && s.isActive(static_cast<std::uint32_t>(otherLane));
  const void *theirs = pending ? storedBy(static_cast<std::uint32_t>(otherLane))
                               : reinterpret_cast<const void *>(address);
  return std::memcmp(storedBy(lane), theirs, bytes) == 0;
}

void CheckSession::reportLocalRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                   std::uint64_t address, std::uint32_t other,
                                   std::uint32_t otherSite, const char *what, bool sameValue) {
  char detail[256];
  if (other == severalReaders)
    std::snprintf(detail, sizeof detail,
                  "local memory %s several other work-items with no barrier between", what);
  else if (other & subgroupTag)
    std::snprintf(detail, sizeof detail,
                  "local memory %s a work-item of sub-group %u, with no work-group barrier "
                  "between (a sub-group barrier orders the work-items of its own sub-group only)",
                  what, other & ~subgroupTag);
  else
    std::snprintf(detail, sizeof detail,
                  "local memory %s work-item with local linear id %u, with no barrier between",
                  what, other - 1);
  // Still a race (OpenCL C 3.0, 6.15.8: the result is undefined), but the
  // common one of every work-item storing a whole shared tile: the report
  // says so, to point at the fix (one work-item stores, then a barrier).
  const std::string same =
      sameValue ? "; both stored the same value (every work-item writing the same data is "
                  "still a race: let one work-item store it, then barrier)"
                : "";
  report(s, lane, site, FindingKind::DataRace,
         detail + same + otherAccess(otherSite) + owner(s, lane, address, CheckSite::Space::Local),
         Place{address, CheckSite::Space::Local});
}

void CheckSession::beginEpoch(RaceEpochs &epochs, std::uint32_t kind) {
  if (epochs.session != serial_) {
    epochs.session = serial_;
    epochs.block = nullptr;
  }
  TokenBlock *block = epochs.block;
  if (!block || block->lanes != epochs.lanes || epochs.next == block->epochs) {
    // A fresh block of about 64 Ki tokens, under the lock once per block.
    std::lock_guard lock(epochMutex_);
    const std::uint32_t count = std::max<std::uint32_t>(1, (1u << 16) / epochs.lanes);
    const std::uint32_t first = tokensExhausted_ ? 0 : globalLog_->allocate(count * epochs.lanes);
    if (first == 0) {
      if (!tokensExhausted_)
        std::fprintf(stderr,
                     "lanewise: kernel '%s': the race check on global memory has no tokens left "
                     "(2^28 work-item epochs); later accesses to global memory in this launch "
                     "are not checked for races\n",
                     code_.name.c_str());
      tokensExhausted_ = true;
      epochs.block = nullptr;
      epochs.starts.clear();
      return;
    }
    block = &blocks_.emplace_back();
    block->first = first;
    block->lanes = epochs.lanes;
    block->epochs = count;
    block->groups = std::make_unique<std::atomic<std::uint64_t>[]>(count);
    epochs.block = block;
    epochs.next = 0;
  }
  const std::uint32_t epoch = epochs.next++;
  block->groups[epoch].store(epochs.group + 1, std::memory_order_relaxed);
  epochs.starts.push_back(block->first + epoch * block->lanes);
  epochs.kinds.push_back(kind);
}

// A release publishes every epoch of the group so far (an approximation:
// the spec orders the accesses of the releasing work-item and those
// ordered before them, such as its group's before a barrier), and what the
// group acquired from other objects, so that acquires chain. A group's
// epochs are published in order, so the object holds a prefix of them: the
// walk back from the current epoch stops at the first already there.
void CheckSession::raceRelease(RaceEpochs &epochs, std::uint64_t address) {
  if (epochs.starts.empty())
    return;
  std::lock_guard lock(syncMutex_);
  SyncObject &object = syncObjects_[address];
  auto publish = [&](std::uint32_t first, std::uint32_t end) {
    if (object.released.try_emplace(first, SyncObject::Released{end, object.count}).second) {
      ++object.count;
      return true;
    }
    return false;
  };
  for (std::size_t e = epochs.starts.size(); e-- > 0;)
    if (!publish(epochs.starts[e], epochs.starts[e] + epochs.lanes))
      break;
  for (const RaceEpochs::Acquired &from : epochs.acquired)
    if (from.object != &object)
      for (const auto &[first, range] : from.object->released)
        if (range.order < from.releases)
          publish(first, range.end);
}

// An acquire sees what was released to the object before it (the
// atomic's read comes first): more than the spec's release sequences when
// a plain atomic store replaced a released value, never less.
void CheckSession::raceAcquire(RaceEpochs &epochs, std::uint64_t address) {
  std::lock_guard lock(syncMutex_);
  const auto found = syncObjects_.find(address);
  if (found == syncObjects_.end() || found->second.count == 0)
    return;
  epochs.syncMutex = &syncMutex_;
  for (RaceEpochs::Acquired &from : epochs.acquired)
    if (from.object == &found->second) {
      from.releases = found->second.count;
      return;
    }
  epochs.acquired.push_back({&found->second, found->second.count});
}

namespace {

// Whether the epoch of token `other`, of another work-group, was released
// to an object before the group with `epochs` acquired from it.
bool acquired(const RaceEpochs &epochs, std::uint32_t other) {
  if (epochs.acquired.empty())
    return false;
  std::lock_guard lock(*epochs.syncMutex);
  for (const RaceEpochs::Acquired &from : epochs.acquired) {
    auto after = from.object->released.upper_bound(other);
    if (after == from.object->released.begin())
      continue;
    const SyncObject::Released &range = std::prev(after)->second;
    if (other < range.end && range.order < from.releases)
      return true;
  }
  return false;
}

// Whether the access of token `other` may be concurrent with the current
// epoch's work-item `self` of the group with `epochs`, in a launch whose
// tokens start at `firstToken`.
bool concurrent(const RaceEpochs &epochs, std::uint32_t firstToken, std::uint32_t self,
                std::uint32_t other) {
  if (other < firstToken || other == self)
    return false; // nobody, or an earlier launch, or this work-item
  if (other - epochs.starts.back() < epochs.lanes)
    return true; // another work-item of this epoch
  // Another group's epoch is concurrent unless acquired.
  auto after = std::upper_bound(epochs.starts.begin(), epochs.starts.end(), other);
  if (after == epochs.starts.begin() || other >= *(after - 1) + epochs.lanes)
    return !acquired(epochs, other);
  // An earlier epoch of this group: ordered before by a work-group barrier
  // since, or by a sub-group barrier that both work-items' sub-group passed;
  // the same work-item's accesses are in program order.
  const std::size_t epoch = std::size_t(after - epochs.starts.begin()) - 1;
  const std::uint32_t selfLane = self - epochs.starts.back(),
                      otherLane = other - epochs.starts[epoch];
  if (selfLane == otherLane)
    return false;
  const std::uint32_t size = std::max(epochs.subgroupSize, 1u);
  const std::uint32_t subgroup = selfLane / size;
  const bool sameSubgroup = otherLane / size == subgroup;
  for (std::size_t e = epoch + 1; e < epochs.kinds.size(); ++e) {
    const std::uint32_t kind = epochs.kinds[e];
    if (kind == 0)
      return false;
    if (sameSubgroup && subgroup + 1 >= (kind & 0xFFFF) && subgroup + 1 <= kind >> 16)
      return false;
  }
  return true;
}

} // namespace

// Whether a word of [w0, w1) of a line was last accessed, by the record of
// one kind, by a work-item concurrent with the one that now accesses it
// (token self(w)): by the line's record for the words of its mask, else by
// the word's.
template <typename Self>
inline bool CheckSession::GlobalAccessLog::conflicts(const RaceEpochs &epochs,
                                                     std::uint32_t firstToken, const LineAt &at,
                                                     bool writers, unsigned w0, unsigned w1,
                                                     Self self) {
  const std::uint64_t value =
      std::atomic_ref(writers ? at.line->writer : at.line->reader).load(std::memory_order_acquire);
  const std::uint32_t mask = value ? lineMask(value) : 0;
  const std::uint32_t range = ((1u << (w1 - w0)) - 1) << w0;
  // The whole range at once: never accessed, or the line's and older than
  // this launch.
  if (!(mask & range) && !at.words)
    return false;
  if ((mask & range) == range && lineToken(value, w1 - 1) < firstToken)
    return false;
  for (unsigned w = w0; w < w1; ++w) {
    std::uint32_t other = 0;
    if ((mask >> w) & 1)
      other = lineToken(value, w);
    else if (at.words)
      other = std::atomic_ref(writers ? at.words[w].writer : at.words[w].reader)
                  .load(std::memory_order_relaxed) >>
              4;
    if (concurrent(epochs, firstToken, self(w), other))
      return true;
  }
  return false;
}

// The race check on global memory for every active lane of an access.
void CheckSession::checkGlobalWarp(const ExecutionState &s, std::uint32_t site,
                                   const std::uint64_t *pointer, std::uint64_t bytes) {
  const CheckSite &where = code_.checks->sites[site];
  if (where.skipsRaces)
    return;
  // Runs of lanes at consecutive elements of 4-64 bytes that fill a 64-byte
  // line (the streaming kernels' accesses, a row of a tile) are recorded as
  // lines. The other lanes, and those of a line whose record shows a
  // concurrent work-item, go lane by lane.
  LogCursor cursor;
  const RaceEpochs *epochs = s.group->raceEpochs;
  constexpr std::uint64_t lineBytes = std::uint64_t(1) << GlobalAccessLog::lineShift;
  const bool lines = bytes >= 4 && bytes <= lineBytes && !(bytes & (bytes - 1)) && globalLog_ &&
                     epochs && !epochs->starts.empty() && site + 1 < GlobalAccessLog::lineSites;
  const auto lanesPerLine = static_cast<std::uint32_t>(lines ? lineBytes / bytes : 0);
  const unsigned shift = lines ? static_cast<unsigned>(std::countr_zero(bytes)) - 2 : 0;
  auto fillsLine = [&](std::uint32_t lane) {
    if (!lines || pointer[lane] % lineBytes || lane + lanesPerLine > s.span)
      return false;
    for (std::uint32_t k = 1; k < lanesPerLine; ++k)
      if ((!s.contiguous && !s.active[lane + k]) || pointer[lane + k] != pointer[lane] + k * bytes)
        return false;
    return true;
  };
  for (std::uint32_t lane = s.begin; lane < s.span;) {
    if (!s.contiguous && !s.active[lane]) {
      ++lane;
      continue;
    }
    if (!fillsLine(lane)) {
      if (!checkGlobalLine(s, lane, site, pointer[lane], bytes, where.write, cursor))
        checkGlobalRace(s, lane, site, pointer[lane], bytes, where.write, cursor);
      ++lane;
      continue;
    }
    const GlobalAccessLog::LineAt line = globalLog_->line(pointer[lane], cursor);
    if (!line.line)
      return;
    const std::uint32_t self = epochs->starts.back() + s.firstLocalIndex + lane;
    const auto selfOf = [&](unsigned w) { return self + (w >> shift); };
    constexpr unsigned words = GlobalAccessLog::wordsPerLine;
    if (GlobalAccessLog::conflicts(*epochs, firstToken_, line, true, 0, words, selfOf) ||
        (where.write &&
         GlobalAccessLog::conflicts(*epochs, firstToken_, line, false, 0, words, selfOf))) {
      for (std::uint32_t k = 0; k < lanesPerLine; ++k)
        checkGlobalRace(s, lane + k, site, pointer[lane + k], bytes, where.write, cursor);
    } else {
      std::atomic_ref(where.write ? line.line->writer : line.line->reader)
          .store(GlobalAccessLog::lineRecord(self, shift, 0xFFFF, site + 1),
                 std::memory_order_release);
    }
    lane += lanesPerLine;
  }
}

// The race check of one lane's access of whole words inside one line, kept
// in the line's record: false where the record cannot take it (the access
// is not of whole words inside one line, or a record names a concurrent
// work-item, which checkGlobalRace reports). The record takes the words if
// one pattern of tokens covers them and the words it already holds: its
// own, one token for the whole line (one work-item's vectors, as a
// transposition loads them), or consecutive tokens a lane's words apart
// (a row of work-items).
bool CheckSession::checkGlobalLine(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                   std::uint64_t address, std::uint64_t bytes, bool write,
                                   LogCursor &cursor) {
  using Log = GlobalAccessLog;
  constexpr std::uint64_t lineBytes = std::uint64_t(1) << Log::lineShift;
  const RaceEpochs *epochs = s.group->raceEpochs;
  if (!globalLog_ || !epochs || epochs->starts.empty() || site + 1 >= Log::lineSites ||
      address % 4 || bytes % 4 || !bytes || address % lineBytes + bytes > lineBytes)
    return false;
  Log::LineAt at = globalLog_->line(address, cursor);
  if (!at.line)
    return false;
  const std::uint32_t self = epochs->starts.back() + s.firstLocalIndex + lane;
  const auto w0 = static_cast<unsigned>(address % lineBytes / 4);
  const auto w1 = static_cast<unsigned>(w0 + bytes / 4);
  const auto selfOf = [&](unsigned) { return self; };
  if (Log::conflicts(*epochs, firstToken_, at, true, w0, w1, selfOf) ||
      (write && Log::conflicts(*epochs, firstToken_, at, false, w0, w1, selfOf)))
    return false;
  const std::uint32_t bits = ((1u << (w1 - w0)) - 1) << w0;
  // The patterns the record may take: the words of a lane that takes 2^k
  // words of the line from a multiple of 2^k are tokens first + (w >> k).
  const unsigned laneShift =
      (bytes & (bytes - 1)) == 0 && w0 % (bytes / 4) == 0 ? std::countr_zero(bytes) - 2 : 4;
  std::atomic_ref record(write ? at.line->writer : at.line->reader);
  std::uint64_t value = record.load(std::memory_order_acquire);
  for (;;) {
    // The words the record keeps: none if it is older than this launch.
    const std::uint32_t mask = value ? Log::lineMask(value) : 0;
    const bool old = mask && Log::lineToken(value, Log::wordsPerLine - 1) < firstToken_;
    const std::uint32_t kept = old ? 0 : mask;
    // Whether the pattern (first token, shift) gives the accessed words
    // `self` and the kept ones their tokens. Tokens grow along a line, so
    // the ends of a run of words tell.
    auto fits = [&](std::uint32_t first, unsigned shift) {
      if (first == 0 || first >= Log::tokenLimit)
        return false;
      const std::uint64_t pattern = Log::lineRecord(first, shift, 0, 0);
      if (Log::lineToken(pattern, w0) != self || Log::lineToken(pattern, w1 - 1) != self)
        return false;
      if (!kept || (first == (value & 0x0FFFFFFF) && shift == ((value >> 28) & 7)))
        return true;
      for (std::uint32_t m = kept; m; m &= m - 1) {
        const auto w = static_cast<unsigned>(std::countr_zero(m));
        if (Log::lineToken(pattern, w) != Log::lineToken(value, w))
          return false;
      }
      return true;
    };
    // The step of consecutive tokens along the line (log2 of the words a
    // token takes) that fits, from the access's own size up; 5 if none (4,
    // one token for the line, fits when nothing is kept).
    auto steps = [&] {
      unsigned step = laneShift;
      while (step <= 4 && !fits(self - (w0 >> step), step))
        ++step;
      return step;
    };
    const std::uint32_t own = value & 0x0FFFFFFF;
    const unsigned ownShift = (value >> 28) & 7;
    // The kept words all of this work-item: one token for the line.
    const bool allSelf = kept && Log::lineToken(value, std::countr_zero(kept)) == self &&
                         Log::lineToken(value, 31 - std::countl_zero(kept)) == self;
    std::uint32_t first;
    unsigned shift;
    if (kept && fits(own, ownShift))
      first = own, shift = ownShift;
    else if (allSelf)
      first = self, shift = 4;
    else if (const unsigned step = steps(); step <= 4)
      first = self - (w0 >> step), shift = step;
    else {
      // Tokens of other work-items of this launch: out to the words first.
      if ((!at.words || !at.writerSites) &&
          !(at = globalLog_->line(address, cursor, Log::Make::Words)).line)
        return false;
      Log::spill(at, write);
      value = record.load(std::memory_order_acquire);
      continue;
    }
    std::uint32_t sitePlusOne = site + 1;
    if (kept && Log::lineSite(value) != site + 1) {
      // Several instructions' accesses: each word keeps its own site.
      if (!at.writerSites && !(at = globalLog_->line(address, cursor, Log::Make::Sites)).line)
        return false;
      std::uint32_t *sites = write ? at.writerSites : at.readerSites;
      if (const std::uint32_t lineSite = Log::lineSite(value))
        for (std::uint32_t m = kept; m; m &= m - 1)
          std::atomic_ref(sites[std::countr_zero(m)]).store(lineSite, std::memory_order_relaxed);
      for (unsigned w = w0; w < w1; ++w)
        std::atomic_ref(sites[w]).store(site + 1, std::memory_order_relaxed);
      sitePlusOne = 0;
    }
    // A plain store, as the dense accesses' (and the words' records) take:
    // an access of another thread to the line meanwhile may lose its
    // record, never give one to a work-item that did not access it.
    record.store(Log::lineRecord(first, shift, kept | bits, sitePlusOne),
                 std::memory_order_release);
    return true;
  }
}

// Races on global memory: conflicting non-atomic accesses, at least one a
// write, of two work-items that no barrier orders (OpenCL C 3.0, 6.15.8;
// the memory model, 3.3.6 of the API spec): of one work-group with no
// barrier ordering global memory between them, or of two work-groups of
// the launch. Records the lane's access and reports its first conflict.
void CheckSession::checkGlobalRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                   std::uint64_t address, std::uint64_t bytes, bool write,
                                   LogCursor &cursor) {
  const RaceEpochs *epochs = s.group->raceEpochs;
  if (!epochs || epochs->starts.empty() || !globalLog_)
    return;
  const std::uint32_t self = epochs->starts.back() + s.firstLocalIndex + lane;
  std::uint32_t other = 0, otherSite = 0;
  const char *what = nullptr;
  const std::uint64_t end = address + bytes;
  for (std::uint64_t word = address & ~std::uint64_t(3); word < end; word += 4) {
    GlobalAccessLog::Word *entry = globalLog_->word(word, cursor);
    if (!entry)
      return;
    const std::uint64_t low = std::max(word, address), high = std::min(word + 4, end);
    const std::uint32_t mask = ((1u << (high - low)) - 1) << (low - word);
    std::atomic_ref<std::uint32_t> writer(entry->writer), reader(entry->reader);
    std::atomic_ref<std::uint32_t> writerSite(entry->writerSite), readerSite(entry->readerSite);
    const std::uint32_t wrote = writer.load(std::memory_order_relaxed);
    const std::uint32_t read = reader.load(std::memory_order_relaxed);
    if (!what && (wrote & mask) && concurrent(*epochs, firstToken_, self, wrote >> 4)) {
      other = wrote >> 4;
      otherSite = writerSite.load(std::memory_order_relaxed);
      what = write ? "written by this work-item and by" : "read by this work-item and written by";
    } else if (!what && write && (read & mask) &&
               concurrent(*epochs, firstToken_, self, read >> 4)) {
      other = read >> 4;
      otherSite = readerSite.load(std::memory_order_relaxed);
      what = "written by this work-item and read by";
    }
    // The record changes only when another work-item or other bytes come.
    const std::uint32_t last = write ? wrote : read;
    const std::uint32_t now = self << 4 | ((last >> 4) == self ? (last & 0xF) | mask : mask);
    if (now != last) {
      (write ? writer : reader).store(now, std::memory_order_relaxed);
      (write ? writerSite : readerSite).store(site + 1, std::memory_order_relaxed);
    }
  }
  if (!what)
    return;
  // Who the other work-item is: the epoch its token belongs to.
  struct Epoch {
    std::uint32_t first;
    std::uint64_t group;
  };
  std::optional<Epoch> epoch;
  {
    std::lock_guard lock(epochMutex_);
    for (const TokenBlock &block : blocks_)
      if (other >= block.first && other - block.first < block.epochs * block.lanes) {
        const std::uint32_t index = (other - block.first) / block.lanes;
        if (const std::uint64_t group = block.groups[index].load(std::memory_order_relaxed))
          epoch = Epoch{block.first + index * block.lanes, group - 1};
      }
  }
  const WorkGroupInfo &g = *s.group;
  char detail[320];
  if (!epoch)
    std::snprintf(detail, sizeof detail,
                  "global memory %s a work-item of another kernel running at the same time", what);
  else if (epoch->group == epochs->group)
    std::snprintf(detail, sizeof detail,
                  "global memory %s the work-item with local linear id %u of the same "
                  "work-group, with no barrier ordering global memory between them",
                  what, other - epoch->first);
  else
    std::snprintf(detail, sizeof detail,
                  "global memory %s the work-item with local linear id %u of work-group "
                  "(%" PRIu64 ",%" PRIu64 ",%" PRIu64
                  "): work-items of different work-groups are not ordered within a launch",
                  what, other - epoch->first, epoch->group % g.numGroups[0],
                  epoch->group / g.numGroups[0] % g.numGroups[1],
                  epoch->group / (g.numGroups[0] * g.numGroups[1]));
  report(s, lane, site, FindingKind::DataRace,
         detail + otherAccess(otherSite) + owner(s, lane, address, CheckSite::Space::Global),
         Place{address, CheckSite::Space::Global});
}

namespace {

// A sub-group barrier whose fence includes __local memory, under the race
// check (OpenCL C 3.0, 6.15.19: sub_group_barrier orders the memory
// accesses of the work-items of the sub-group): the writer and reader of
// each byte that a work-item of a sub-group of the active lanes recorded
// become that sub-group's, ordered before its later accesses and still
// racing with other sub-groups'.
void subgroupBarrierRaces(const Instruction &, ExecutionState &s) {
  const WorkGroupInfo &g = *s.group;
  if (!g.localWriter || !g.localBytes)
    return;
  const std::uint32_t size = std::max(g.subgroupSize, 1u);
  std::vector<bool> passing;
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint32_t subgroup = (s.firstLocalIndex + lane) / size;
    if (subgroup >= passing.size())
      passing.resize(subgroup + 1, false);
    passing[subgroup] = true;
  });
  auto retag = [&](std::uint32_t &id) {
    if (id == 0 || id == severalReaders || (id & subgroupTag))
      return;
    const std::uint32_t subgroup = (id - 1) / size;
    if (subgroup < passing.size() && passing[subgroup])
      id = subgroupTag | subgroup;
  };
  for (std::uint64_t b = 0; b < g.localBytes; ++b) {
    retag(g.localWriter[b]);
    retag(g.localReader[b]);
  }
}

} // namespace

Handler subgroupBarrierRacesHandler() { return &subgroupBarrierRaces; }

namespace {

// A sub-group barrier whose fence includes global memory, under the race
// check: a new epoch of the work-group that orders the global accesses of
// the active lanes' sub-groups before their later ones (concurrent()).
void subgroupBarrierGlobalRaces(const Instruction &, ExecutionState &s) {
  RaceEpochs *epochs = s.group->raceEpochs;
  if (!s.check || !epochs || epochs->starts.empty())
    return;
  const std::uint32_t size = std::max(s.group->subgroupSize, 1u);
  std::uint32_t first = UINT32_MAX, last = 0;
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint32_t subgroup = (s.firstLocalIndex + lane) / size;
    first = std::min(first, subgroup);
    last = std::max(last, subgroup);
  });
  if (first > last || last + 1 > 0xFFFF)
    return;
  s.check->beginEpoch(*epochs, (first + 1) | (last + 1) << 16);
}

} // namespace

Handler subgroupBarrierGlobalRacesHandler() { return &subgroupBarrierGlobalRaces; }

namespace {

// The ordering an atomic or a fence of device scope makes (RaceSync in aux).
// A release fence makes the group's later atomic writes release; an
// acquire fence makes the atomic reads before it acquire (OpenCL C 3.0,
// 6.15.12; fence synchronisation in the API spec's memory model). Both are
// kept per work-group, as the epochs are.
void raceSync(const Instruction &in, ExecutionState &s) {
  RaceEpochs *epochs = s.group->raceEpochs;
  if (!s.check || !epochs || epochs->starts.empty())
    return;
  CheckSession &check = *s.check;
  if (in.aux & RaceSyncFence) {
    if (in.aux & RaceSyncRelease)
      epochs->releaseFence = true;
    if (in.aux & RaceSyncAcquire) {
      for (const std::uint64_t address : epochs->readAtomically)
        check.raceAcquire(*epochs, address);
      epochs->readAtomically.clear();
    }
    return;
  }
  const std::uint64_t *pointer = s.reg<const std::uint64_t>(in.operand[0]);
  auto each = [&](auto &&apply) {
    if (!(in.aux & RaceSyncVarying)) {
      apply(pointer[0]);
      return;
    }
    std::optional<std::uint64_t> last;
    forActiveLanes(s, [&](std::uint32_t lane) {
      if (last != pointer[lane])
        apply(*(last = pointer[lane]));
    });
  };
  if (!(in.aux & RaceSyncAfter)) {
    if ((in.aux & RaceSyncRelease) || epochs->releaseFence)
      each([&](std::uint64_t address) { check.raceRelease(*epochs, address); });
  } else if (in.aux & RaceSyncAcquire) {
    each([&](std::uint64_t address) { check.raceAcquire(*epochs, address); });
  } else {
    // For a later acquire fence: the objects read, a bounded few.
    constexpr std::size_t kept = 256;
    each([&](std::uint64_t address) {
      std::vector<std::uint64_t> &read = epochs->readAtomically;
      if (read.size() < kept && std::find(read.begin(), read.end(), address) == read.end())
        read.push_back(address);
    });
  }
}

} // namespace

Handler raceSyncHandler() { return &raceSync; }

} // namespace lanewise::runtime
