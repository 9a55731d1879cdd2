// SPDX-License-Identifier: Apache-2.0
#include "icd/object.h"

#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace lanewise::icd {

namespace registry {
namespace {
struct Registry {
  std::shared_mutex mutex;
  std::unordered_map<const void *, ObjectKind> objects;
};
Registry &instance() {
  static Registry *registry = new Registry; // never destroyed: used until exit
  return *registry;
}
} // namespace

void add(const void *object, ObjectKind kind) {
  Registry &r = instance();
  std::unique_lock lock(r.mutex);
  r.objects[object] = kind;
}

void remove(const void *object) {
  Registry &r = instance();
  std::unique_lock lock(r.mutex);
  r.objects.erase(object);
}

bool contains(const void *object, ObjectKind kind) {
  Registry &r = instance();
  std::shared_lock lock(r.mutex);
  auto it = r.objects.find(object);
  return it != r.objects.end() && it->second == kind;
}
} // namespace registry

namespace objectPool {
namespace {
struct Pool {
  std::mutex mutex;
  std::map<std::size_t, std::vector<void *>> freeBlocks;
};
Pool &instance() {
  static Pool *pool = new Pool; // never destroyed: freed handles stay readable
  return *pool;
}
} // namespace

void *allocate(std::size_t size) {
  Pool &pool = instance();
  {
    std::lock_guard lock(pool.mutex);
    auto &blocks = pool.freeBlocks[size];
    if (!blocks.empty()) {
      void *block = blocks.back();
      blocks.pop_back();
      return block;
    }
  }
  return ::operator new(size);
}

void release(void *block, std::size_t size) {
  // The ICD loader reads the first word of any handle it is given; keep it
  // pointing at Lanewise's dispatch table.
  const cl_icd_dispatch *dispatch = &dispatchTable;
  std::memcpy(block, &dispatch, sizeof dispatch);
  Pool &pool = instance();
  std::lock_guard lock(pool.mutex);
  pool.freeBlocks[size].push_back(block);
}
} // namespace objectPool

} // namespace lanewise::icd
