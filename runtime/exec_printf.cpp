// SPDX-License-Identifier: Apache-2.0
// printf (OpenCL C 3.0, 6.15.14): each active lane formats its record into
// its worker thread's part of the launch's log; the launch writes the log
// out, in work-item order, when every work-group has finished.
#include "runtime/printf.h"

#include "runtime/execution.h"
#include "runtime/shapes.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace lanewise::runtime {

namespace {

struct Record {
  std::uint64_t workItem; // global linear id
  std::size_t offset, length;
};

} // namespace

struct PrintfLog::Threads {
  struct Part {
    std::string text;
    std::vector<Record> records; // in the order the thread kept them
  };
  tbb::enumerable_thread_specific<Part> parts;
};

PrintfLog::PrintfLog(std::uint64_t capacity)
    : threads_(std::make_unique<Threads>()), capacity_(capacity) {}
PrintfLog::~PrintfLog() = default;

std::string &PrintfLog::buffer() { return threads_->parts.local().text; }

bool PrintfLog::keep(std::uint64_t globalLinearId, std::size_t start) {
  Threads::Part &part = threads_->parts.local();
  const std::uint64_t length = part.text.size() - start;
  std::uint64_t used = used_.load(std::memory_order_relaxed);
  do {
    if (used + length > capacity_) {
      part.text.resize(start);
      return false;
    }
  } while (!used_.compare_exchange_weak(used, used + length, std::memory_order_relaxed));
  part.records.push_back({globalLinearId, start, length});
  return true;
}

void PrintfLog::write() {
  struct Entry {
    std::uint64_t workItem;
    const char *text;
    std::size_t length;
  };
  std::vector<Entry> entries;
  for (Threads::Part &part : threads_->parts)
    for (const Record &record : part.records)
      entries.push_back({record.workItem, part.text.data() + record.offset, record.length});
  if (entries.empty())
    return;
  // All records of a work-item come from the thread that ran its
  // work-group, in program order: a stable sort by work-item keeps it.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry &a, const Entry &b) { return a.workItem < b.workItem; });
  // stdout's own lock is process-wide: no other launch, and no thread of the
  // application writing through stdio, comes in between.
  flockfile(stdout);
  for (const Entry &entry : entries)
    fwrite_unlocked(entry.text, 1, entry.length, stdout);
  std::fflush(stdout);
  funlockfile(stdout);
}

namespace {

template <typename T> T loadElement(const std::byte *p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

const std::byte *elementAddress(const PrintfArgument &a, const ExecutionState &s, std::uint32_t c,
                                std::uint32_t lane) {
  const std::size_t index = a.varying ? std::size_t(c) * s.width + lane : c;
  return s.registers + a.offset + index * scalarSize(a.scalar);
}

std::uint64_t integerElement(const PrintfArgument &a, const ExecutionState &s, std::uint32_t c,
                             std::uint32_t lane) {
  const std::byte *p = elementAddress(a, s, c, lane);
  switch (scalarSize(a.scalar)) {
  case 1:
    return loadElement<std::uint8_t>(p);
  case 2:
    return loadElement<std::uint16_t>(p);
  case 4:
    return loadElement<std::uint32_t>(p);
  default:
    return loadElement<std::uint64_t>(p);
  }
}

double floatElement(const PrintfArgument &a, const ExecutionState &s, std::uint32_t c,
                    std::uint32_t lane) {
  const std::byte *p = elementAddress(a, s, c, lane);
  switch (a.scalar) {
  case Scalar::F16:
    return static_cast<double>(loadElement<half>(p));
  case Scalar::F32:
    return static_cast<double>(loadElement<float>(p));
  default:
    return loadElement<double>(p);
  }
}

// The record of one lane, appended to `out`; false if a conversion failed.
bool formatRecord(const PrintfCall &call, const ExecutionState &s, std::uint32_t lane,
                  std::string &out) {
  std::size_t argument = 0;
  for (const PrintfPiece &piece : call.pieces) {
    if (!piece.isConversion) {
      out += piece.text;
      continue;
    }
    const PrintfConversion &c = piece.conversion;
    const PrintfArgument &a = call.arguments[argument++];
    const std::uint32_t elements = c.vectorSize ? c.vectorSize : 1;
    for (std::uint32_t e = 0; e < elements; ++e) {
      // "value1 C value2 C ... C valuen where C is a separator character.
      // The value for this separator character is a comma."
      if (e)
        out += ',';
      bool ok = false;
      switch (c.specifier) {
      case 'c':
        ok = appendPrintfCharacter(out, c, integerElement(a, s, e, lane));
        break;
      case 's': {
        // A string that is not known when the kernel is built: read where
        // the pointer points.
        const auto *text = reinterpret_cast<const char *>(integerElement(a, s, e, lane));
        ok = appendPrintfString(out, c, text ? text : "(null)");
        break;
      }
      case 'p':
        ok = appendPrintfPointer(out, c, integerElement(a, s, e, lane));
        break;
      default:
        ok = c.isFloat()
                 ? appendPrintfFloat(out, c, floatElement(a, s, e, lane))
                 : appendPrintfInteger(out, c, integerElement(a, s, e, lane), scalarSize(a.scalar));
        break;
      }
      if (!ok)
        return false;
    }
  }
  return true;
}

// The global linear id of a lane: the order of the ND-range, x fastest
// (OpenCL C 3.0, 6.15.1, get_global_linear_id, without the offset).
std::uint64_t globalLinearId(const ExecutionState &s, std::uint32_t lane) {
  const WorkGroupInfo &g = *s.group;
  WorkItemIds ids = workItemIds(s, lane);
  for (int d = 0; d < 3; ++d)
    ids.global[d] -= g.globalOffset[d];
  return (ids.global[2] * g.globalSize[1] + ids.global[1]) * g.globalSize[0] + ids.global[0];
}

// "printf returns 0 if it was executed successfully and -1 otherwise."
void runPrintf(const Instruction &instruction, ExecutionState &s) {
  const auto &call = *static_cast<const PrintfCall *>(instruction.data);
  auto *result = s.reg<std::uint32_t>(instruction.result);
  const bool varying = instruction.aux != 0;
  PrintfLog *log = s.group->printfLog;
  std::string *out = call.valid && log ? &log->buffer() : nullptr;
  forActiveLanes(s, [&](std::uint32_t lane) {
    bool ok = false;
    if (out) {
      const std::size_t start = out->size();
      if (formatRecord(call, s, lane, *out))
        ok = log->keep(globalLinearId(s, lane), start);
      else
        out->resize(start);
    }
    result[varying ? lane : 0] = ok ? 0u : 0xFFFFFFFFu;
  });
}

} // namespace

Handler printfHandler() { return &runPrintf; }

} // namespace lanewise::runtime
