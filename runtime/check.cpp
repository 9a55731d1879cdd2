#include "runtime/check.h"

#include "runtime/execution.h"
#include "runtime/json.h"
#include "runtime/problems.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <atomic>
#include <memory>
#include <optional>

namespace lanewise::runtime {

std::string_view checkName(Check check) {
  switch (check) {
  case Check::Bounds:
    return "bounds";
  case Check::Uninit:
    return "uninit";
  case Check::Races:
    return "races";
  case Check::Barriers:
    return "barriers";
  case Check::Subgroups:
    return "subgroups";
  case Check::Alignment:
    return "alignment";
  case Check::Division:
    return "division";
  }
  return "?";
}

CheckSet CheckSet::all() {
  CheckSet set;
  for (Check check : allChecks)
    set.add(check);
  return set;
}

std::optional<CheckSet> CheckSet::parse(std::string_view text, std::string *bad) {
  CheckSet set;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view word = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (word.empty() || word == "none")
      continue;
    if (word == "all") {
      set = all();
      continue;
    }
    bool known = false;
    for (Check check : allChecks)
      if (checkName(check) == word) {
        set.add(check);
        known = true;
      }
    if (!known) {
      if (bad)
        *bad = std::string(word);
      return std::nullopt;
    }
  }
  return set;
}

CheckSet CheckSet::fromEnvironment() {
  static const CheckSet fromEnvironment = [] {
    const char *text = std::getenv("LANEWISE_CHECK");
    if (!text)
      return CheckSet();
    std::string bad;
    if (auto set = parse(text, &bad))
      return *set;
    std::fprintf(stderr,
                 "lanewise: LANEWISE_CHECK: unknown check '%s' (known: all, bounds, uninit, races, "
                 "barriers, subgroups, alignment, division); no checks enabled\n",
                 bad.c_str());
    return CheckSet();
  }();
  return fromEnvironment;
}

std::string CheckSet::names() const {
  std::string text;
  for (Check check : allChecks)
    if (has(check))
      text += (text.empty() ? "" : ",") + std::string(checkName(check));
  return text.empty() ? "none" : text;
}

std::string_view findingName(FindingKind kind) {
  switch (kind) {
  case FindingKind::OutOfBounds:
    return "out-of-bounds";
  case FindingKind::ReleasedMemory:
    return "released-memory";
  case FindingKind::LocalArgumentTooSmall:
    return "local-argument-too-small";
  case FindingKind::Misaligned:
    return "misaligned";
  case FindingKind::DivisionByZero:
    return "division-by-zero";
  case FindingKind::DivisionOverflow:
    return "division-overflow";
  case FindingKind::BarrierDivergence:
    return "barrier-divergence";
  case FindingKind::SubgroupDivergence:
    return "subgroup-divergence";
  case FindingKind::SubgroupBadLane:
    return "subgroup-bad-lane";
  case FindingKind::UninitialisedRead:
    return "uninitialised-read";
  case FindingKind::DataRace:
    return "data-race";
  }
  return "?";
}

namespace {

std::string_view spaceName(CheckSite::Space space) {
  switch (space) {
  case CheckSite::Space::Global:
    return "global";
  case CheckSite::Space::Constant:
    return "constant";
  case CheckSite::Space::Local:
    return "local";
  case CheckSite::Space::Private:
    return "private";
  case CheckSite::Space::Generic:
    return "generic";
  }
  return "?";
}

alignas(64) const std::byte zeros[CheckSession::sinkBytes] = {};
alignas(64) std::byte discard[CheckSession::sinkBytes];

// Appends `text` to the file at `path` (none when empty).
void appendTo(const std::string &path, const std::string &text) {
  if (path.empty())
    return;
  if (std::FILE *file = std::fopen(path.c_str(), "a")) {
    std::fputs(text.c_str(), file);
    std::fclose(file);
  }
}

// Where an address is relative to a range: "12 bytes past the end of X".
std::string relation(std::uint64_t address, std::uint64_t bytes, const MemoryRange &range) {
  char text[256];
  if (address < range.begin)
    std::snprintf(text, sizeof text, "%" PRIu64 " bytes before the start of %s (%" PRIu64 " bytes)",
                  range.begin - address, range.name.c_str(), range.size);
  else if (address >= range.begin + range.size)
    std::snprintf(text, sizeof text,
                  "%" PRIu64 " bytes past the end of %s (%" PRIu64 " bytes)",
                  address - (range.begin + range.size), range.name.c_str(), range.size);
  else
    std::snprintf(text, sizeof text,
                  "at offset %" PRIu64 " of %s (%" PRIu64 " bytes), running %" PRIu64
                  " bytes past its end",
                  address - range.begin, range.name.c_str(), range.size,
                  address + bytes - (range.begin + range.size));
  return text;
}

// The range that contains [address, address + bytes), live ranges before
// released ones (released memory may since have been reused), or else the
// nearest live one.
// How close to a live allocation an access counts as overflowing it.
constexpr std::uint64_t nearby = 256;

const MemoryRange *nearest(const std::vector<MemoryRange> &ranges, std::uint64_t address,
                           std::uint64_t bytes, bool &inside) {
  inside = true;
  for (bool released : {false, true})
    for (const MemoryRange &range : ranges)
      if (range.released == released && address >= range.begin &&
          address + bytes <= range.begin + range.size)
        return &range;
  inside = false;
  const MemoryRange *best = nullptr;
  std::uint64_t bestDistance = UINT64_MAX;
  for (const MemoryRange &range : ranges) {
    if (range.released)
      continue;
    const std::uint64_t distance = address < range.begin ? range.begin - address
                                   : address >= range.begin + range.size
                                       ? address - (range.begin + range.size) + 1
                                       : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = &range;
    }
  }
  return best;
}

} // namespace

// The race check's record of global memory: for each 4-byte word touched,
// the token (RaceEpochs) of its last writer and of its last reader, each
// with the mask of the bytes of the word it accessed (token << 4 | mask),
// and the instruction of each access.
// One record serves the whole process: tokens increase from launch to
// launch, so what an earlier launch left is older than the current launch's
// first token and ignored, and nothing needs clearing between launches. The
// record is made in pieces (for 64 KiB of memory each) on first touch, and
// dropped when the tokens run low and no launch is using it.
class CheckSession::GlobalAccessLog {
public:
  struct Word {
    std::uint32_t writer = 0, reader = 0;
    std::uint32_t writerSite = 0, readerSite = 0; // check site + 1 of each access
  };
  static constexpr std::uint32_t tokenLimit = 1u << 28;

  static GlobalAccessLog &process() {
    static auto *log = new GlobalAccessLog(); // outlives every launch
    return *log;
  }

  // A launch starts using the record: the first token it may be given.
  std::uint32_t open() {
    std::lock_guard lock(mutex_);
    if (sessions_ == 0 && nextToken_ > tokenLimit / 2) {
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

  // The words of the 64 KiB piece of memory that holds `address` (index
  // them with wordIndex), or null outside the 48-bit address space.
  static constexpr unsigned pieceShift = 16;
  Word *piece(std::uint64_t address) {
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
    std::atomic<Word *> &leafSlot = leaves->leaf[(address >> pieceShift) & (leafCount - 1)];
    Word *leaf = leafSlot.load(std::memory_order_acquire);
    if (!leaf) {
      auto *fresh = static_cast<Word *>(std::calloc(wordsPerLeaf, sizeof(Word)));
      if (fresh && leafSlot.compare_exchange_strong(leaf, fresh, std::memory_order_acq_rel))
        leaf = fresh;
      else
        std::free(fresh);
    }
    return leaf;
  }
  static std::size_t wordIndex(std::uint64_t address) {
    return (address >> 2) & (wordsPerLeaf - 1);
  }
  // The word that holds `address` (null outside the address space), through
  // `cursor`, which remembers the last piece: neighbouring lanes' words are
  // mostly in one piece.
  Word *word(std::uint64_t address, LogCursor &cursor);

private:
  static constexpr std::size_t wordsPerLeaf = std::size_t(1) << (pieceShift - 2),
                               leafCount = 1 << 16, tableCount = 1 << 16;
  struct Leaves {
    std::atomic<Word *> leaf[leafCount] = {};
  };
  GlobalAccessLog() : tables_(std::make_unique<std::atomic<Leaves *>[]>(tableCount)) {}
  void clear() {
    for (std::size_t t = 0; t < tableCount; ++t)
      if (Leaves *leaves = tables_[t].exchange(nullptr)) {
        for (std::size_t l = 0; l < leafCount; ++l)
          std::free(leaves->leaf[l].load(std::memory_order_relaxed));
        delete leaves;
      }
  }
  std::unique_ptr<std::atomic<Leaves *>[]> tables_;
  std::mutex mutex_;
  std::uint32_t nextToken_ = 1;
  unsigned sessions_ = 0;
};

struct CheckSession::LogCursor {
  std::uint64_t piece = UINT64_MAX;
  GlobalAccessLog::Word *words = nullptr;
};

CheckSession::GlobalAccessLog::Word *CheckSession::GlobalAccessLog::word(std::uint64_t address,
                                                                       LogCursor &cursor) {
  if (address >> pieceShift != cursor.piece) {
    cursor.piece = address >> pieceShift;
    cursor.words = piece(address);
  }
  return cursor.words ? cursor.words + wordIndex(address) : nullptr;
}

CheckSession::Options CheckSession::optionsFromEnvironment() {
  Options options;
  if (const char *file = std::getenv("LANEWISE_CHECK_FILE"))
    options.textFile = file;
  if (const char *file = std::getenv("LANEWISE_CHECK_JSON"))
    options.jsonFile = file;
  if (const char *abort = std::getenv("LANEWISE_CHECK_ABORT"))
    options.abortOnFirst = *abort && *abort != '0';
  return options;
}

CheckSession::CheckSession(const KernelCode &code, std::vector<MemoryRange> global, Options options)
    : code_(code), global_(std::move(global)), options_(std::move(options)) {
  for (const MemoryRange &range : global_)
    if (!range.released)
      live_.push_back(range);
  std::sort(live_.begin(), live_.end(),
            [](const MemoryRange &a, const MemoryRange &b) { return a.begin < b.begin; });
  if (code.checks->checks.has(Check::Races)) {
    globalLog_ = &GlobalAccessLog::process();
    firstToken_ = globalLog_->open();
  }
}

CheckSession::~CheckSession() {
  if (globalLog_)
    globalLog_->close();
}

std::uint64_t CheckSession::readSink() { return reinterpret_cast<std::uint64_t>(zeros); }
std::uint64_t CheckSession::writeSink() { return reinterpret_cast<std::uint64_t>(discard); }

CheckSite::Space CheckSession::resolve(const ExecutionState &s, CheckSite::Space space,
                                       std::uint64_t address) {
  if (space != CheckSite::Space::Generic)
    return space;
  switch (memoryOf(s, address)) {
  case MemoryOf::Local:
    return CheckSite::Space::Local;
  case MemoryOf::Private:
    return CheckSite::Space::Private;
  case MemoryOf::Global:
    break;
  }
  return CheckSite::Space::Global;
}

bool CheckSession::checkAccess(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                               std::uint64_t address, std::uint64_t bytes) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const CheckSite::Space space = resolve(s, where.space, address);
  if (checks.checks.has(Check::Alignment) && where.alignment > 1 &&
      address % where.alignment != 0) {
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "%s of %" PRIu64 " bytes at an address not aligned to %u bytes (address %% %u = "
                  "%" PRIu64 ")",
                  where.write ? "write" : "read", bytes, where.alignment, where.alignment,
                  address % where.alignment);
    report(s, lane, site, FindingKind::Misaligned, detail, Place{address, space});
  }
  if (checks.checks.has(Check::Bounds)) {
    const auto arena = reinterpret_cast<std::uint64_t>(s.group->localArena);
    const auto privateBase =
        reinterpret_cast<std::uint64_t>(s.privateBase) + std::uint64_t(lane) * s.privateStride;
    if (!inBounds(s, lane, site, address, bytes, space, arena, privateBase))
      return false;
  }
  checkContents(s, lane, site, address, bytes, space);
  return true;
}

void CheckSession::checkContents(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                 std::uint64_t address, std::uint64_t bytes,
                                 CheckSite::Space space) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  if (checks.checks.has(Check::Uninit) && !where.write && !where.skipsUninit)
    checkInitialised(s, lane, site, address, bytes, space);
  if (checks.checks.has(Check::Races) && !where.skipsRaces) {
    if (space == CheckSite::Space::Local)
      checkRace<0>(s, lane, site, address, bytes, where.write);
    else if (space == CheckSite::Space::Global) {
      LogCursor cursor;
      checkGlobalRace(s, lane, site, address, bytes, where.write, cursor);
    }
  }
  if (where.write)
    noteWrite(s, address, where.writesPadding ? bytes / 3 * 4 : bytes);
}

bool CheckSession::spanValid(const ExecutionState &s, const CheckSite &where,
                             const std::uint64_t *pointer, std::uint64_t bytes,
                             CheckSite::Space &space) const {
  const KernelChecks &checks = *code_.checks;
  const std::uint64_t alignment =
      checks.checks.has(Check::Alignment) && where.alignment > 1 ? where.alignment : 1;
  const bool powerOfTwo = (alignment & (alignment - 1)) == 0;
  std::uint64_t low = UINT64_MAX, high = 0, misaligned = 0;
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint64_t address = pointer[lane];
    low = std::min(low, address);
    high = std::max(high, address);
    misaligned |= powerOfTwo ? address & (alignment - 1) : address % alignment;
  });
  if (misaligned || low > high)
    return false;
  const std::uint64_t end = high + bytes;
  const auto arena = reinterpret_cast<std::uint64_t>(s.group->localArena);
  const std::uint64_t arenaEnd = arena + s.group->localBytes;
  const auto privateLow = reinterpret_cast<std::uint64_t>(s.privateBase);
  const std::uint64_t privateHigh = privateLow + std::uint64_t(s.laneCount) * s.privateStride;
  space = where.space;
  if (space == CheckSite::Space::Generic) {
    if (arena && low >= arena && end <= arenaEnd)
      space = CheckSite::Space::Local;
    else if ((end <= arena || low >= arenaEnd) && (end <= privateLow || low >= privateHigh))
      space = CheckSite::Space::Global;
    else if (low >= privateLow && end <= privateHigh)
      space = CheckSite::Space::Private; // each lane's own, if the bounds check finds so
    else
      return false; // a mixture: lane by lane
  }
  if (!checks.checks.has(Check::Bounds))
    return true;
  switch (space) {
  case CheckSite::Space::Local:
    for (const MemoryRange &r : local_)
      if (low >= arena + r.begin && end <= arena + r.begin + r.size)
        return true;
    return false;
  case CheckSite::Space::Global:
  case CheckSite::Space::Constant: {
    auto after = std::upper_bound(live_.begin(), live_.end(), low,
                                  [](std::uint64_t a, const MemoryRange &r) { return a < r.begin; });
    return after != live_.begin() && end <= (after - 1)->begin + (after - 1)->size;
  }
  case CheckSite::Space::Private: {
    // Each lane in its own private memory, all at offsets inside one variable.
    std::uint64_t lowOffset = UINT64_MAX, highOffset = 0;
    bool outside = false;
    forActiveLanes(s, [&](std::uint32_t lane) {
      const std::uint64_t base = privateLow + std::uint64_t(lane) * s.privateStride;
      outside |= pointer[lane] < base;
      lowOffset = std::min(lowOffset, pointer[lane] - base);
      highOffset = std::max(highOffset, pointer[lane] - base);
    });
    if (outside)
      return false;
    for (const KernelChecks::Variable &v : checks.privateVariables)
      if (lowOffset >= v.offset && highOffset + bytes <= v.offset + v.size)
        return true;
    return false;
  }
  default:
    return false;
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
  forActiveLanes(s, [&](std::uint32_t lane) {
    const std::uint64_t offset = pointer[lane] - arena;
    if (uninit) {
      bool all = true;
      for (std::uint64_t b = 0; b < bytes; ++b)
        all &= shadow[offset + b] != 0;
      if (!all)
        checkInitialised(s, lane, site, pointer[lane], bytes, CheckSite::Space::Local);
    }
    if (races)
      checkRace<Bytes>(s, lane, site, pointer[lane], bytes, where.write);
    if (where.write && shadow)
      std::memset(shadow + offset, 1, written);
  });
}

void CheckSession::checkWarp(const ExecutionState &s, std::uint32_t site,
                             const std::uint64_t *pointer, bool varying, std::uint64_t bytes,
                             std::uint64_t *result) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const std::uint64_t sink = where.write ? writeSink() : readSink();
  if (!varying) {
    // One address for every lane: its bounds and alignment once; what
    // depends on the work-item (uninitialised bytes, races) for each lane.
    const std::uint32_t first = firstActiveLane(s);
    if (first == s.laneCount)
      return;
    const std::uint64_t address = pointer[0];
    const bool valid = checkAccess(s, first, site, address, bytes);
    result[0] = valid ? address : sink;
    if (valid) {
      const CheckSite::Space space = resolve(s, where.space, address);
      for (std::uint32_t lane = first + 1; lane < s.laneCount; ++lane)
        if (s.isActive(lane))
          checkContents(s, lane, site, address, bytes, space);
    }
    return;
  }
  CheckSite::Space space;
  if (spanValid(s, where, pointer, bytes, space)) {
    // The common case: every lane inside one range, all aligned.
    const bool local = space == CheckSite::Space::Local;
    const bool contents =
        (checks.checks.has(Check::Races) && (local || space == CheckSite::Space::Global)) ||
        (checks.checks.has(Check::Uninit) && (local || space == CheckSite::Space::Private));
    if (contents && space == CheckSite::Space::Local)
      checkLocalWarp(s, site, pointer, bytes);
    else if (contents && space == CheckSite::Space::Global)
      checkGlobalWarp(s, site, pointer, bytes);
    else if (contents)
      forActiveLanes(s, [&](std::uint32_t lane) {
        checkContents(s, lane, site, pointer[lane], bytes, space);
      });
    std::memcpy(result, pointer, sizeof(std::uint64_t) * s.laneCount);
    return;
  }
  forActiveLanes(s, [&](std::uint32_t lane) {
    result[lane] = checkAccess(s, lane, site, pointer[lane], bytes) ? pointer[lane] : sink;
  });
}

bool CheckSession::inBounds(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                            std::uint64_t address, std::uint64_t bytes, CheckSite::Space space,
                            std::uint64_t arena, std::uint64_t privateBase) {
  const KernelChecks &checks = *code_.checks;
  const CheckSite &where = checks.sites[site];
  const char *access = where.write ? "write" : "read";
  char detail[512];
  // The common case, a valid access, without building anything.
  if (space == CheckSite::Space::Local) {
    const std::uint64_t offset = address - arena;
    for (const MemoryRange &r : local_)
      if (offset >= r.begin && offset + bytes <= r.begin + r.size && address >= arena)
        return true;
  } else if (space == CheckSite::Space::Private) {
    const std::uint64_t offset = address - privateBase;
    if (address >= privateBase)
      for (const KernelChecks::Variable &v : checks.privateVariables)
        if (offset >= v.offset && offset + bytes <= v.offset + v.size)
          return true;
  }
  if (space != CheckSite::Space::Local) {
    // Live ranges sorted by start: the one that starts last at or before
    // the address, and those before it that may still contain it.
    auto after = std::upper_bound(live_.begin(), live_.end(), address,
                                  [](std::uint64_t a, const MemoryRange &r) { return a < r.begin; });
    for (auto it = after; it != live_.begin();) {
      --it;
      if (address + bytes <= it->begin + it->size)
        return true;
      if (after - it > 8)
        break;
    }
  }

  bool inside = false;
  const MemoryRange *range = nullptr;
  std::vector<MemoryRange> lanePrivate;
  if (space == CheckSite::Space::Local) {
    std::vector<MemoryRange> ranges = local_;
    for (MemoryRange &r : ranges)
      r.begin += arena;
    range = nearest(ranges, address, bytes, inside);
    if (inside)
      return true;
    // Ranges by value: copy the one found before `ranges` goes away.
    if (range) {
      const MemoryRange found = *range;
      const bool argument = found.name.rfind("__local argument", 0) == 0;
      std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in local memory, %s%s", access,
                    bytes, relation(address, bytes, found).c_str(),
                    argument ? ": the size given to clSetKernelArg is smaller than what the "
                               "kernel accesses"
                             : "");
      report(s, lane, site,
             argument && address >= found.begin ? FindingKind::LocalArgumentTooSmall
                                                : FindingKind::OutOfBounds,
             detail, Place{address, space});
    } else {
      std::snprintf(detail, sizeof detail,
                    "%s of %" PRIu64 " bytes in local memory outside every __local allocation",
                    access, bytes);
      report(s, lane, site, FindingKind::OutOfBounds, detail, Place{address, space});
    }
    return false;
  }
  if (space == CheckSite::Space::Private) {
    for (const KernelChecks::Variable &variable : checks.privateVariables)
      lanePrivate.push_back({privateBase + variable.offset, variable.size, CheckSite::Space::Private,
                             "private variable '" + variable.name + "'"});
    range = nearest(lanePrivate, address, bytes, inside);
    if (inside)
      return true;
    // Pointers to arguments passed by value point into the launch's copy.
    bool inGlobal = false;
    const MemoryRange *other = nearest(global_, address, bytes, inGlobal);
    if (inGlobal && !other->released)
      return true;
    std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in private memory, %s", access,
                  bytes,
                  range ? relation(address, bytes, *range).c_str()
                        : "outside the work-item's private memory");
    report(s, lane, site, FindingKind::OutOfBounds, detail, Place{address, space});
    return false;
  }
  range = nearest(global_, address, bytes, inside);
  if (inside && !range->released)
    return true;
  // An access just outside a live allocation is an overflow of it, even if
  // the heap has put released memory there.
  bool nearLive = false;
  const MemoryRange *live = nullptr;
  if (inside) {
    bool unused;
    if ((live = nearest(live_, address, bytes, unused))) {
      const std::uint64_t end = live->begin + live->size;
      nearLive = address + bytes > live->begin - std::min(live->begin, nearby) &&
                 address < end + nearby;
    }
  }
  if (inside && !nearLive) {
    std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in %s memory of %s", access,
                  bytes, spaceName(space).data(), range->name.c_str());
    report(s, lane, site, FindingKind::ReleasedMemory, detail, Place{address, space});
    return false;
  }
  if (nearLive)
    range = live;
  std::snprintf(detail, sizeof detail, "%s of %" PRIu64 " bytes in %s memory, %s", access, bytes,
                spaceName(space).data(),
                range ? relation(address, bytes, *range).c_str()
                      : "outside every buffer the kernel can access");
  report(s, lane, site, FindingKind::OutOfBounds, detail, Place{address, space});
  return false;
}

// Shadow memory of the uninitialised-read check: one byte per byte of the
// work-group's __local arena and private memory, 0 until written.
std::uint8_t *CheckSession::shadowOf(const ExecutionState &s, std::uint64_t address,
                                     std::uint64_t bytes) {
  const WorkGroupInfo &g = *s.group;
  const auto arena = reinterpret_cast<std::uint64_t>(g.localArena);
  if (g.localShadow && address >= arena && address + bytes <= arena + g.localBytes)
    return g.localShadow + (address - arena);
  const auto privateMemory = reinterpret_cast<std::uint64_t>(g.privateMemory);
  if (g.privateShadow && address >= privateMemory &&
      address + bytes <= privateMemory + g.privateBytes)
    return g.privateShadow + (address - privateMemory);
  return nullptr;
}

void CheckSession::noteWrite(const ExecutionState &s, std::uint64_t address, std::uint64_t bytes) {
  if (std::uint8_t *shadow = shadowOf(s, address, bytes))
    std::memset(shadow, 1, bytes);
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
  constexpr std::uint32_t several = UINT32_MAX;
  const std::uint32_t self = s.firstLocalIndex + lane + 1;
  std::uint32_t other = 0, otherSite = 0;
  const char *what = nullptr;
  const std::uint64_t offset = address - arena;
  for (std::uint64_t b = offset; b < offset + bytes; ++b) {
    std::uint32_t &writer = g.localWriter[b], &reader = g.localReader[b];
    if (!what && writer && writer != self) {
      other = writer;
      otherSite = g.localWriterSite[b];
      what = write ? "written by this work-item and by" : "read by this work-item and written by";
    } else if (!what && write && reader && reader != self) {
      other = reader;
      otherSite = g.localReaderSite[b];
      what = "written by this work-item and read by";
    }
    // Stores only what changes: most reads find themselves or "several".
    if (write) {
      writer = self;
      g.localWriterSite[b] = site + 1;
    } else if (reader != self && reader != several) {
      reader = reader == 0 ? self : several;
      g.localReaderSite[b] = site + 1;
    }
  }
  if (what)
    reportLocalRace(s, lane, site, address, other, otherSite, what);
}

void CheckSession::reportLocalRace(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                                   std::uint64_t address, std::uint32_t other,
                                   std::uint32_t otherSite, const char *what) {
  constexpr std::uint32_t several = UINT32_MAX;
  char detail[256];
  if (other == several)
    std::snprintf(detail, sizeof detail,
                  "local memory %s several other work-items with no barrier between", what);
  else
    std::snprintf(detail, sizeof detail,
                  "local memory %s work-item with local linear id %u, with no barrier between",
                  what, other - 1);
  report(s, lane, site, FindingKind::DataRace,
         detail + otherAccess(otherSite) + owner(s, lane, address, CheckSite::Space::Local),
         Place{address, CheckSite::Space::Local});
}

void CheckSession::beginEpoch(RaceEpochs &epochs) {
  std::lock_guard lock(epochMutex_);
  const std::uint32_t first = tokensExhausted_ ? 0 : globalLog_->allocate(epochs.lanes);
  if (first == 0) {
    if (!tokensExhausted_)
      std::fprintf(stderr,
                   "lanewise: kernel '%s': the race check on global memory has no tokens left "
                   "(2^28 work-item epochs); later accesses to global memory in this launch are "
                   "not checked for races\n",
                   code_.name.c_str());
    tokensExhausted_ = true;
    epochs.starts.clear();
    return;
  }
  epochs.starts.push_back(first);
  epochs_.push_back({first, epochs.lanes, epochs.group});
}

namespace {

// Whether the access of token `other` may be concurrent with the current
// epoch's work-item `self` of the group with `epochs`, in a launch whose
// tokens start at `firstToken`.
bool concurrent(const RaceEpochs &epochs, std::uint32_t firstToken, std::uint32_t self,
                std::uint32_t other) {
  if (other < firstToken || other == self)
    return false; // nobody, or an earlier launch, or this work-item
  if (other >= epochs.starts.back())
    return true; // this epoch (of this group, or of a group that started since)
  // An earlier epoch of this group is ordered before; any other group's is not.
  auto after = std::upper_bound(epochs.starts.begin(), epochs.starts.end(), other);
  return after == epochs.starts.begin() || other >= *(after - 1) + epochs.lanes;
}

} // namespace


// The race check on global memory for every active lane of an access.
void CheckSession::checkGlobalWarp(const ExecutionState &s, std::uint32_t site,
                                   const std::uint64_t *pointer, std::uint64_t bytes) {
  if (code_.checks->sites[site].skipsRaces)
    return;
  LogCursor cursor;
  forActiveLanes(s, [&](std::uint32_t lane) {
    checkGlobalRace(s, lane, site, pointer[lane], bytes, code_.checks->sites[site].write, cursor);
  });
}

// Races on global memory: conflicting non-atomic accesses, at least one a
// write, of two work-items that no barrier orders (OpenCL C 3.0, 6.15.8;
// the memory model, 3.3.6 of the API spec): of one work-group with no
// barrier ordering global memory between them, or of two work-groups of
// the launch. Records the lane's access and reports its first conflict.
void CheckSession::checkGlobalRace(const ExecutionState &s, std::uint32_t lane,
                                   std::uint32_t site, std::uint64_t address, std::uint64_t bytes,
                                   bool write, LogCursor &cursor) {
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
  std::optional<Epoch> epoch;
  {
    std::lock_guard lock(epochMutex_);
    auto after = std::upper_bound(epochs_.begin(), epochs_.end(), other,
                                  [](std::uint32_t token, const Epoch &e) { return token < e.first; });
    if (after != epochs_.begin() && other < (after - 1)->first + (after - 1)->lanes)
      epoch = *(after - 1);
  }
  const WorkGroupInfo &g = *s.group;
  char detail[320];
  if (!epoch)
    std::snprintf(detail, sizeof detail,
                  "global memory %s a work-item of another kernel running at the same time",
                  what);
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

std::string CheckSession::otherAccess(std::uint32_t sitePlusOne) const {
  if (sitePlusOne == 0 || sitePlusOne > code_.checks->sites.size())
    return "";
  const CheckSite &other = code_.checks->sites[sitePlusOne - 1];
  std::string text = "; its access: " + other.opcode;
  if (other.resultId)
    text += " %" + std::to_string(other.resultId);
  if (!other.file.empty())
    text += " at " + other.file + ":" + std::to_string(other.line) + ":" +
            std::to_string(other.column);
  return text;
}

std::string CheckSession::owner(const ExecutionState &s, std::uint32_t lane,
                                std::uint64_t address, CheckSite::Space space) const {
  std::uint64_t base = 0;
  std::vector<MemoryRange> lanePrivate;
  const std::vector<MemoryRange> *ranges = &live_;
  if (space == CheckSite::Space::Local) {
    base = reinterpret_cast<std::uint64_t>(s.group->localArena);
    ranges = &local_;
  } else if (space == CheckSite::Space::Private) {
    base = reinterpret_cast<std::uint64_t>(s.privateBase) + std::uint64_t(lane) * s.privateStride;
    for (const KernelChecks::Variable &v : code_.checks->privateVariables)
      lanePrivate.push_back({v.offset, v.size, space, "private variable '" + v.name + "'"});
    ranges = &lanePrivate;
  }
  for (const MemoryRange &range : *ranges)
    if (address >= base + range.begin && address < base + range.begin + range.size)
      return "; at offset " + std::to_string(address - base - range.begin) + " of " + range.name;
  return "";
}

void CheckSession::checkInitialised(const ExecutionState &s, std::uint32_t lane,
                                    std::uint32_t site, std::uint64_t address,
                                    std::uint64_t bytes, CheckSite::Space space) {
  const std::uint8_t *shadow = shadowOf(s, address, bytes);
  if (!shadow)
    return;
  std::uint64_t first = 0;
  while (first < bytes && shadow[first])
    ++first;
  if (first == bytes)
    return;
  char detail[256];
  std::snprintf(detail, sizeof detail,
                "read of %" PRIu64 " bytes of %s memory, byte %" PRIu64
                " of which no work-item has written in this work-group",
                bytes, space == CheckSite::Space::Local ? "local" : "private", first);
  report(s, lane, site, FindingKind::UninitialisedRead, detail + owner(s, lane, address, space),
         Place{address, space});
}

void CheckSession::report(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                          FindingKind kind, const std::string &detail) {
  report(s, lane, site, kind, detail, std::nullopt);
}

void CheckSession::report(const ExecutionState &s, std::uint32_t lane, std::uint32_t site,
                          FindingKind kind, const std::string &detail,
                          std::optional<Place> place) {
  if (options_.abortOnFirst)
    aborted_.store(true, std::memory_order_relaxed);
  {
    const KernelChecks &checks = *code_.checks;
    std::lock_guard lock(checks.reportedMutex);
    if (!checks.reported.insert({site, static_cast<std::uint8_t>(kind)}).second) {
      std::lock_guard counting(mutex_);
      ++suppressed_;
      return;
    }
  }
  countProblem();
  const CheckSite &where = code_.checks->sites[site];
  // The work-item's ids.
  const WorkGroupInfo &g = *s.group;
  const std::uint64_t linear = s.firstLocalIndex + lane;
  const auto [local, global, group] = workItemIds(s, lane);
  const std::uint64_t subgroup = linear / g.subgroupSize, subgroupLane = linear % g.subgroupSize;

  char text[2048];
  std::string location =
      where.file.empty() ? "no source line (compile with -g)"
                         : where.file + ":" + std::to_string(where.line) + ":" +
                               std::to_string(where.column);
  // Two programs of an application are both "program.cl": say which.
  if (where.file == "program.cl" && !code_.checks->programLabel.empty())
    location += " of " + code_.checks->programLabel;
  char addressText[64] = "";
  if (place)
    std::snprintf(addressText, sizeof addressText, ", address 0x%" PRIx64, place->address);
  std::snprintf(text, sizeof text,
                "lanewise: %s in kernel '%s' at %s (%s%s)\n"
                "  %s%s\n"
                "  work-item: global (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") local (%" PRIu64
                ",%" PRIu64 ",%" PRIu64 ") group (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                "), sub-group %" PRIu64 " lane %" PRIu64 "\n",
                findingName(kind).data(), code_.name.c_str(), location.c_str(),
                where.opcode.c_str(),
                where.resultId ? (" %" + std::to_string(where.resultId)).c_str() : "",
                detail.c_str(), addressText, global[0],
                global[1], global[2], local[0], local[1], local[2], group[0], group[1],
                group[2], subgroup, subgroupLane);

  std::string json = "{\"kind\":" + jsonString(findingName(kind)) +
                     ",\"kernel\":" + jsonString(code_.name) +
                     ",\"opcode\":" + jsonString(where.opcode) +
                     ",\"id\":" + std::to_string(where.resultId) +
                     ",\"file\":" + jsonString(where.file) +
                     ",\"line\":" + std::to_string(where.line) +
                     ",\"column\":" + std::to_string(where.column);
  if (!code_.checks->programLabel.empty())
    json += ",\"program\":" + jsonString(code_.checks->programLabel);
  auto triple = [](const std::uint64_t *v) {
    return "[" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) +
           "]";
  };
  json += ",\"global_id\":" + triple(global) + ",\"local_id\":" + triple(local) +
          ",\"group_id\":" + triple(g.groupId) + ",\"subgroup\":" + std::to_string(subgroup) +
          ",\"subgroup_lane\":" + std::to_string(subgroupLane);
  if (place) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "\"0x%" PRIx64 "\"", place->address);
    json += ",\"address\":" + std::string(hex) +
            ",\"address_space\":" + jsonString(spaceName(place->space));
  }
  json += ",\"message\":" + jsonString(detail) + "}\n";

  std::lock_guard lock(mutex_);
  std::fputs(text, stderr);
  std::fflush(stderr);
  appendTo(options_.textFile, text);
  appendTo(options_.jsonFile, json);
}

void CheckSession::finish() {
  std::lock_guard lock(mutex_);
  if (suppressed_ == 0)
    return;
  char text[256];
  std::snprintf(text, sizeof text,
                "lanewise: kernel '%s': %" PRIu64
                " more occurrences of findings already reported were suppressed\n",
                code_.name.c_str(), suppressed_);
  std::fputs(text, stderr);
  appendTo(options_.textFile, text);
}

} // namespace lanewise::runtime
