// The project's own declarations of the few RocksDB C++ types the flash secondary cache touches.
//
// No RocksDB header is included (none is published by a package registry, rocksdbjni ships none,
// and they are not ours to copy). Each type below is declared so that, under the Itanium C++ ABI
// on x86-64 with libstdc++'s C++11 string ABI, it has the same size, member offsets, virtual-table
// slots and calling convention as its RocksDB 11.8.1 counterpart. The names live in namespace
// hotrap::rdb, not rocksdb: only the binary layout has to agree, and our symbols stay hidden.
//
// How each fact was checked (see also the tests in FlashSecondaryCacheAbiTest):
//  - Virtual slots of SecondaryCache (29 after the two vtable header words, 0xf8 bytes in all) and
//    of SecondaryCacheResultHandle (6): read from the relocations of librocksdbjni's exported
//    vtables for CompressedSecondaryCache and CompressedSecondaryCacheResultHandle, slot by slot.
//  - LRUCacheOptions: offsets read from the machine code of LRUCacheOptions::MakeSharedCache
//    (num_shard_bits at 0x10, high and low priority ratios at 0x48 and 0x50, secondary_cache at
//    0x30, use_adaptive_mutex at 0x58, ...).
//  - SecondaryCacheWrapper keeps its target at offset 0x20 (its Erase loads 0x20(%rdi)); the
//    run-time probe (probe_vtable in flash_secondary_cache.cpp) calls RocksDB's compiled wrapper
//    methods on a probe target, so a wrong slot shows up as the wrong method being called.
#ifndef HOTRAP_ROCKSDB_ABI_H
#define HOTRAP_ROCKSDB_ABI_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace hotrap {
namespace rdb {

// Types only ever passed by pointer or reference: their contents are never touched here.
struct ConfigOptions;
struct DBOptions;
struct ColumnFamilyOptions;
struct OptionTypeInfo;
struct Statistics;
struct MemoryAllocator;
struct Cache;           // the block cache: held only through std::shared_ptr
struct TableProperties;  // read only through RocksDB's C API accessors
struct CreateContext;    // Cache::CreateContext, handed back to the create callback unchanged

using StringMap = std::unordered_map<std::string, std::string>;

// rocksdb::Slice: a pointer and a length, 16 bytes.
struct Slice {
  const char *data;
  size_t size;
};
static_assert(sizeof(Slice) == 16, "Slice layout");

enum class CompressionType : unsigned char { kNoCompression = 0 };
enum class CacheTier : uint8_t { kVolatileTier = 0, kVolatileCompressedTier = 1, kNonVolatileBlockTier = 2 };

// rocksdb::Status: six one-byte fields, then the owner of an optional message at offset 8.
// RocksDB's Status has a user-provided destructor, so it is passed and returned in memory (hidden
// result pointer); declaring one here gives ours the same calling convention. A message, when
// RocksDB allocated one, is released with delete[] as RocksDB does (both sides use the process's
// libstdc++, which librocksdbjni links dynamically).
class Status {
 public:
  enum Code : unsigned char { kOk = 0, kNotFound = 1, kNotSupported = 3, kInvalidArgument = 4 };

  Status() : Status(kOk) {}
  explicit Status(Code code) : code_(code), subcode_(0), sev_(0), retryable_(false), data_loss_(false), scope_(0) {}
  ~Status() {}
  Status(Status &&other) noexcept = default;
  Status &operator=(Status &&other) noexcept = default;
  Status(const Status &) = delete;
  Status &operator=(const Status &) = delete;

  static Status OK() { return Status(kOk); }
  static Status NotSupported() { return Status(kNotSupported); }
  static Status InvalidArgument() { return Status(kInvalidArgument); }

  bool ok() const { return code_ == kOk; }
  Code code() const { return code_; }

 private:
  Code code_;
  unsigned char subcode_;
  unsigned char sev_;
  bool retryable_;
  bool data_loss_;
  unsigned char scope_;
  std::unique_ptr<const char[]> state_;
};
static_assert(sizeof(Status) == 16, "Status layout");

// rocksdb::Cache::CacheItemHelper: how RocksDB turns a cached object into bytes and back.
struct CacheItemHelper {
  using DeleterFn = void (*)(void *obj, MemoryAllocator *allocator);
  using SizeFn = size_t (*)(void *obj);
  using SaveToFn = Status (*)(void *obj, size_t from_offset, size_t length, char *out);
  using CreateFn = Status (*)(const Slice &data, CompressionType type, CacheTier source,
                              CreateContext *context, MemoryAllocator *allocator, void **out_obj,
                              size_t *out_charge);

  DeleterFn del_cb;
  SizeFn size_cb;
  SaveToFn saveto_cb;
  CreateFn create_cb;
  int role;  // CacheEntryRole, an int-sized enum
  const CacheItemHelper *without_secondary_compat;
};
static_assert(sizeof(CacheItemHelper) == 48, "CacheItemHelper layout");
static_assert(offsetof(CacheItemHelper, create_cb) == 24, "CacheItemHelper layout");
static_assert(offsetof(CacheItemHelper, without_secondary_compat) == 40, "CacheItemHelper layout");

// rocksdb::Configurable. Virtual slots 0-13, in this order. RocksDB's out-of-line definitions are
// not linked: every function here has its own minimal definition (rocksdb_abi.cpp), which is all
// an object that registers no options needs.
class Configurable {
 public:
  virtual ~Configurable();                                                      // 0, 1
  virtual Status GetOption(const ConfigOptions &options, const std::string &name,
                           std::string *value) const;                          // 2
  virtual bool AreEquivalent(const ConfigOptions &options, const Configurable *other,
                             std::string *mismatch) const;                     // 3
  virtual std::string GetPrintableOptions() const;                             // 4
  virtual Status PrepareOptions(const ConfigOptions &options);                 // 5
  virtual Status ValidateOptions(const DBOptions &db, const ColumnFamilyOptions &cf) const;  // 6

 protected:
  virtual const void *GetOptionsPtr(const std::string &name) const;            // 7
  virtual Status ParseStringOptions(const ConfigOptions &options, const std::string &text);  // 8
  virtual Status ConfigureOptions(const ConfigOptions &options, const StringMap &map,
                                  StringMap *unused);                          // 9
  virtual Status ParseOption(const ConfigOptions &options, const OptionTypeInfo &info,
                             const std::string &name, const std::string &value, void *where);  // 10
  virtual bool OptionsAreEqual(const ConfigOptions &options, const OptionTypeInfo &info,
                               const std::string &name, const void *mine, const void *theirs,
                               std::string *mismatch) const;                   // 11
  virtual std::string SerializeOptions(const ConfigOptions &options,
                                       const std::string &header) const;       // 12
  virtual std::string GetOptionName(const std::string &long_name) const;      // 13

 private:
  // RocksDB's registered-options vector (begin, end, capacity). RocksDB's non-virtual Configurable
  // functions read it; an object that registers nothing keeps it empty, i.e. three null pointers.
  void *registered_options_[3] = {nullptr, nullptr, nullptr};
};

// rocksdb::Customizable: slots 14-18.
class Customizable : public Configurable {
 public:
  virtual const char *Name() const = 0;                                        // 14
  virtual std::string GetId() const;                                           // 15
  virtual bool IsInstanceOf(const std::string &name) const;                    // 16
  virtual const Customizable *Inner() const;                                   // 17

 protected:
  virtual const char *NickName() const;                                        // 18
};

// rocksdb::SecondaryCacheResultHandle: slots 0-5.
class SecondaryCacheResultHandle {
 public:
  virtual ~SecondaryCacheResultHandle();                                       // 0, 1
  virtual bool IsReady() = 0;                                                  // 2
  virtual void Wait() = 0;                                                     // 3
  virtual void *Value() = 0;                                                   // 4
  virtual size_t Size() = 0;                                                   // 5
};

// rocksdb::SecondaryCache: slots 19-28. RocksDB calls these from its own threads and is not
// exception-safe: an implementation must not let any exception out.
class SecondaryCache : public Customizable {
 public:
  virtual Status Insert(const Slice &key, void *obj, const CacheItemHelper *helper,
                        bool force_insert) = 0;                                // 19
  virtual Status InsertSaved(const Slice &key, const Slice &saved, CompressionType type,
                             CacheTier source) = 0;                            // 20
  virtual std::unique_ptr<SecondaryCacheResultHandle> Lookup(
      const Slice &key, const CacheItemHelper *helper, CreateContext *context, bool wait,
      bool advise_erase, Statistics *stats, bool &kept_in_sec_cache) = 0;      // 21
  virtual bool SupportForceErase() const = 0;                                  // 22
  virtual void Erase(const Slice &key) = 0;                                    // 23
  virtual void WaitAll(std::vector<SecondaryCacheResultHandle *> handles) = 0;  // 24
  virtual Status SetCapacity(size_t capacity);                                 // 25
  virtual Status GetCapacity(size_t &capacity);                                // 26
  virtual Status Deflate(size_t decrease);                                     // 27
  virtual Status Inflate(size_t increase);                                     // 28
};
static_assert(sizeof(SecondaryCache) == 32, "vtable pointer and the empty options vector");

// rocksdb::LRUCacheOptions (with its base ShardedCacheOptions, which has a virtual destructor).
// Only read by RocksDB's LRUCacheOptions::MakeSharedCache, which copies it; the vtable pointer is
// never used through this object.
struct LRUCacheOptions {
  virtual ~LRUCacheOptions() = default;
  size_t capacity = 0;
  int num_shard_bits = -1;
  bool strict_capacity_limit = false;
  std::shared_ptr<MemoryAllocator> memory_allocator;
  int metadata_charge_policy = 1;  // kFullChargeCacheMetadata, RocksDB's default
  std::shared_ptr<SecondaryCache> secondary_cache;
  int32_t hash_seed = -2;  // kHostHashSeed, RocksDB's default
  double high_pri_pool_ratio = 0.5;
  double low_pri_pool_ratio = 0.0;
  bool use_adaptive_mutex = false;
};
// offsetof on a class with a virtual destructor is conditionally supported; GCC and Clang support it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(LRUCacheOptions, capacity) == 0x08, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, num_shard_bits) == 0x10, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, strict_capacity_limit) == 0x14, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, memory_allocator) == 0x18, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, metadata_charge_policy) == 0x28, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, secondary_cache) == 0x30, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, hash_seed) == 0x40, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, high_pri_pool_ratio) == 0x48, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, low_pri_pool_ratio) == 0x50, "LRUCacheOptions layout");
static_assert(offsetof(LRUCacheOptions, use_adaptive_mutex) == 0x58, "LRUCacheOptions layout");
static_assert(sizeof(LRUCacheOptions) == 0x60, "LRUCacheOptions layout");
#pragma GCC diagnostic pop

// rocksdb::OffsetableCacheKey: the per-file base of every block's 16-byte cache key. The first
// eight bytes (file_num_etc64_) are what all blocks of one file share; the second eight are xored
// with the block offset.
struct OffsetableCacheKey {
  uint64_t file_num_etc64;
  uint64_t offset_etc64;
};

// Functions of librocksdbjni called through pointers found with dlsym (member functions are
// called with `this` as the first parameter; a class-type result is returned through a hidden
// pointer, the same for a free function as for a member function under the Itanium ABI).
struct RocksDbFunctions {
  // LRUCacheOptions::MakeSharedCache() const; an empty pointer when the options are invalid.
  std::shared_ptr<Cache> (*make_shared_cache)(const LRUCacheOptions *self);
  // OffsetableCacheKey::OffsetableCacheKey(const std::string& db_id,
  //                                        const std::string& db_session_id, uint64_t file_number)
  void (*offsetable_cache_key)(OffsetableCacheKey *self, const std::string &db_id,
                               const std::string &db_session_id, uint64_t file_number);
  // SstFileReader::GetTableProperties() const
  std::shared_ptr<const TableProperties> (*sst_table_properties)(const void *reader);
  // C API: const char* rocksdb_table_properties_db_id(const rocksdb_table_properties_t*, size_t*)
  // (rocksdb_table_properties_t holds a TableProperties at offset 0, asserted in RocksDB's c.cc.)
  const char *(*table_properties_db_id)(const TableProperties *props, size_t *size);
  const char *(*table_properties_db_session_id)(const TableProperties *props, size_t *size);
  uint64_t (*table_properties_orig_file_number)(const TableProperties *props);
  // C API: size_t rocksdb_cache_get_capacity(rocksdb_cache_t*), where rocksdb_cache_t holds a
  // std::shared_ptr<Cache> at offset 0, as RocksJava's handle does.
  size_t (*cache_get_capacity)(const std::shared_ptr<Cache> *cache);
  // Customizable::GetId() const: RocksDB's own code calling our Name() through slot 14.
  std::string (*customizable_get_id)(const Customizable *self);
  // The vtable RocksDB's SecondaryCacheWrapper objects point to (address of the symbol).
  const void *secondary_cache_wrapper_vtable;
  // SecondaryCacheWrapper methods, each forwarding to target_ through a virtual call.
  Status (*wrapper_insert)(void *self, const Slice &key, void *obj, const CacheItemHelper *helper,
                           bool force_insert);
  Status (*wrapper_insert_saved)(void *self, const Slice &key, const Slice &saved,
                                 CompressionType type, CacheTier source);
  std::unique_ptr<SecondaryCacheResultHandle> (*wrapper_lookup)(
      void *self, const Slice &key, const CacheItemHelper *helper, CreateContext *context,
      bool wait, bool advise_erase, Statistics *stats, bool &kept_in_sec_cache);
  bool (*wrapper_support_force_erase)(const void *self);
  void (*wrapper_erase)(void *self, const Slice &key);
  void (*wrapper_wait_all)(void *self, std::vector<SecondaryCacheResultHandle *> handles);
  Status (*wrapper_set_capacity)(void *self, size_t capacity);
  Status (*wrapper_get_capacity)(void *self, size_t &capacity);
  Status (*wrapper_deflate)(void *self, size_t decrease);
  Status (*wrapper_inflate)(void *self, size_t increase);
};

// Resolves every function above in the loaded rocksdbjni library. Returns an empty string on
// success, else what is missing.
std::string resolve_rocksdb_functions(RocksDbFunctions *out);

}  // namespace rdb
}  // namespace hotrap

#endif
