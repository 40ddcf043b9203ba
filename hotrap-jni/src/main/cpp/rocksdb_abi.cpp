// Minimal definitions for the RocksDB base classes declared in rocksdb_abi.h, and the lookup of the
// RocksDB functions the secondary cache calls.
//
// An object deriving from these registers no options, so the Configurable machinery reduces to:
// nothing to get, parse or configure (NotSupported, or OK for an empty request), nothing to
// serialize, equal only to itself.
#include "rocksdb_abi.h"

#include <dlfcn.h>

#include "../c/rocksdb_capi.h"

namespace hotrap {
namespace rdb {

Configurable::~Configurable() {}

Status Configurable::GetOption(const ConfigOptions &, const std::string &, std::string *) const {
  return Status::NotSupported();
}

bool Configurable::AreEquivalent(const ConfigOptions &, const Configurable *other,
                                 std::string *) const {
  return other == this;
}

std::string Configurable::GetPrintableOptions() const { return std::string(); }

Status Configurable::PrepareOptions(const ConfigOptions &) { return Status::OK(); }

Status Configurable::ValidateOptions(const DBOptions &, const ColumnFamilyOptions &) const {
  return Status::OK();
}

const void *Configurable::GetOptionsPtr(const std::string &) const { return nullptr; }

Status Configurable::ParseStringOptions(const ConfigOptions &, const std::string &text) {
  return text.empty() ? Status::OK() : Status::InvalidArgument();
}

Status Configurable::ConfigureOptions(const ConfigOptions &, const StringMap &map, StringMap *unused) {
  if (unused != nullptr) {
    unused->insert(map.begin(), map.end());
    return Status::OK();
  }
  return map.empty() ? Status::OK() : Status::InvalidArgument();
}

Status Configurable::ParseOption(const ConfigOptions &, const OptionTypeInfo &, const std::string &,
                                 const std::string &, void *) {
  return Status::NotSupported();
}

bool Configurable::OptionsAreEqual(const ConfigOptions &, const OptionTypeInfo &,
                                   const std::string &, const void *mine, const void *theirs,
                                   std::string *) const {
  return mine == theirs;
}

std::string Configurable::SerializeOptions(const ConfigOptions &, const std::string &) const {
  return std::string();
}

std::string Configurable::GetOptionName(const std::string &long_name) const { return long_name; }

std::string Customizable::GetId() const { return std::string(Name()); }

bool Customizable::IsInstanceOf(const std::string &name) const {
  return !name.empty() && name == Name();
}

const Customizable *Customizable::Inner() const { return nullptr; }

const char *Customizable::NickName() const { return ""; }

SecondaryCacheResultHandle::~SecondaryCacheResultHandle() {}

Status SecondaryCache::SetCapacity(size_t) { return Status::NotSupported(); }

Status SecondaryCache::GetCapacity(size_t &) { return Status::NotSupported(); }

Status SecondaryCache::Deflate(size_t) { return Status::NotSupported(); }

Status SecondaryCache::Inflate(size_t) { return Status::NotSupported(); }

namespace {

template <typename F>
bool find(void *library, const char *symbol, F *out, std::string *missing) {
  void *address = dlsym(library, symbol);
  if (address == nullptr) {
    if (!missing->empty()) {
      missing->append(", ");
    }
    missing->append(symbol);
    return false;
  }
  *out = (F)address;  // object or function pointer, as the symbol is
  return true;
}

}  // namespace

std::string resolve_rocksdb_functions(RocksDbFunctions *out) {
  char message[1024];
  void *library = rocksdb_library_open("_ZNK7rocksdb15LRUCacheOptions15MakeSharedCacheEv", message,
                                       sizeof(message));
  if (library == nullptr) {
    return std::string(message);
  }
  RocksDbFunctions f{};
  std::string missing;
  find(library, "_ZNK7rocksdb15LRUCacheOptions15MakeSharedCacheEv", &f.make_shared_cache, &missing);
  find(library,
       "_ZN7rocksdb18OffsetableCacheKeyC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES8_m",
       &f.offsetable_cache_key, &missing);
  find(library, "_ZNK7rocksdb13SstFileReader18GetTablePropertiesEv", &f.sst_table_properties,
       &missing);
  find(library, "rocksdb_table_properties_db_id", &f.table_properties_db_id, &missing);
  find(library, "rocksdb_table_properties_db_session_id", &f.table_properties_db_session_id,
       &missing);
  find(library, "rocksdb_table_properties_orig_file_number", &f.table_properties_orig_file_number,
       &missing);
  find(library, "rocksdb_cache_get_capacity", &f.cache_get_capacity, &missing);
  find(library, "_ZNK7rocksdb12Customizable5GetIdB5cxx11Ev", &f.customizable_get_id, &missing);
  find(library, "_ZTVN7rocksdb21SecondaryCacheWrapperE", &f.secondary_cache_wrapper_vtable,
       &missing);
  find(library, "_ZN7rocksdb21SecondaryCacheWrapper6InsertERKNS_5SliceEPvPKNS_5Cache15CacheItemHelperEb",
       &f.wrapper_insert, &missing);
  find(library,
       "_ZN7rocksdb21SecondaryCacheWrapper11InsertSavedERKNS_5SliceES3_NS_15CompressionTypeENS_9CacheTierE",
       &f.wrapper_insert_saved, &missing);
  find(library,
       "_ZN7rocksdb21SecondaryCacheWrapper6LookupERKNS_5SliceEPKNS_5Cache15CacheItemHelperEPNS4_"
       "13CreateContextEbbPNS_10StatisticsERb",
       &f.wrapper_lookup, &missing);
  find(library, "_ZNK7rocksdb21SecondaryCacheWrapper17SupportForceEraseEv",
       &f.wrapper_support_force_erase, &missing);
  find(library, "_ZN7rocksdb21SecondaryCacheWrapper5EraseERKNS_5SliceE", &f.wrapper_erase, &missing);
  find(library,
       "_ZN7rocksdb21SecondaryCacheWrapper7WaitAllESt6vectorIPNS_26SecondaryCacheResultHandleESaIS3_EE",
       &f.wrapper_wait_all, &missing);
  find(library, "_ZN7rocksdb21SecondaryCacheWrapper11SetCapacityEm", &f.wrapper_set_capacity,
       &missing);
  find(library, "_ZN7rocksdb21SecondaryCacheWrapper11GetCapacityERm", &f.wrapper_get_capacity,
       &missing);
  find(library, "_ZN7rocksdb21SecondaryCacheWrapper7DeflateEm", &f.wrapper_deflate, &missing);
  find(library, "_ZN7rocksdb21SecondaryCacheWrapper7InflateEm", &f.wrapper_inflate, &missing);
  if (!missing.empty()) {
    return "the rocksdbjni library does not export " + missing;
  }
  *out = f;
  return std::string();
}

}  // namespace rdb
}  // namespace hotrap
