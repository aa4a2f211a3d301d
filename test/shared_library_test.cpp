// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The library inside a shared library loaded with dlopen() after the
// program started (a plugin, a Python extension): it loads, its joins work
// on both kinds of pool, an exception crosses back out, and its hot
// thread_locals use the TLS model config.hpp says they do, initial-exec
// unless BOOST_FORKJOIN_NO_INITIAL_EXEC_TLS (the dynamic section's
// DF_STATIC_TLS flag tells). The modules, built from shared_module.cpp,
// sit beside this program.

#define BOOST_TEST_MODULE shared_library
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

using tree_sum_fn = std::uint64_t (*)(unsigned depth, unsigned threads, bool lazy, bool throw_in_a_leaf);

std::string directory_of_this_program()
{
    char path[4096];
    ssize_t const length = ::readlink("/proc/self/exe", path, sizeof path - 1);
    BOOST_TEST_REQUIRE(length > 0);
    std::string const exe(path, static_cast<std::size_t>(length));
    return exe.substr(0, exe.rfind('/') + 1);
}

struct module {
    void* handle = nullptr;
    tree_sum_fn tree_sum = nullptr;

    explicit module(char const* file)
    {
        std::string const path = directory_of_this_program() + file;
        handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        char const* const error = handle ? nullptr : ::dlerror();
        BOOST_TEST_REQUIRE(handle != nullptr, "dlopen(" << path << "): " << (error ? error : "?"));
        tree_sum = reinterpret_cast<tree_sum_fn>(::dlsym(handle, "forkjoin_module_tree_sum"));
        BOOST_TEST_REQUIRE(tree_sum != nullptr);
    }
    // Never closed: a pool's threads are gone when tree_sum returns, but
    // thread_locals with destructors may keep the module pinned anyway.

    bool has_static_tls_flag() const
    {
        link_map* map = nullptr;
        BOOST_TEST_REQUIRE(::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0);
        for (ElfW(Dyn) const* entry = map->l_ld; entry->d_tag != DT_NULL; ++entry)
            if (entry->d_tag == DT_FLAGS)
                return (entry->d_un.d_val & DF_STATIC_TLS) != 0;
        return false;
    }
};

constexpr unsigned depth = 16;
constexpr std::uint64_t expected = (std::uint64_t{1} << depth) * ((std::uint64_t{1} << depth) - 1) / 2;

void check_sums(module const& m)
{
    for (bool lazy : {false, true})
        for (unsigned threads : {1u, 2u, 4u}) {
            BOOST_TEST(m.tree_sum(depth, threads, lazy, false) == expected, "lazy " << lazy << ", threads " << threads);
            BOOST_CHECK_THROW(m.tree_sum(depth, threads, lazy, true), std::runtime_error);
        }
}

} // namespace

BOOST_AUTO_TEST_CASE(initial_exec_module_loads_late_and_joins)
{
    module const m("libforkjoin_shared_module.so");
    BOOST_TEST(m.has_static_tls_flag(), "the module's thread_locals should be initial-exec (config.hpp)");
    check_sums(m);
}

BOOST_AUTO_TEST_CASE(module_without_initial_exec_tls_loads_late_and_joins)
{
    module const m("libforkjoin_shared_module_dynamic_tls.so");
    BOOST_TEST(!m.has_static_tls_flag(), "BOOST_FORKJOIN_NO_INITIAL_EXEC_TLS should leave the default TLS model");
    check_sums(m);
}
