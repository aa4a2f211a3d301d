// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The default thread count is the CPUs the process may really use: the
// affinity mask (set in a child process, no root needed) and the cgroup CPU
// quota (v1 and v2, read from a tree of files this test writes, the way the
// library reads /proc and /sys/fs/cgroup).

#define BOOST_TEST_MODULE thread_count
#include <boost/test/unit_test.hpp>

#include "child_process.hpp"

#include <boost/forkjoin/detail/available_parallelism.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace fj = boost::forkjoin;
namespace fs = std::filesystem;

namespace {

// The quota as a number, 0 for none, so that Boost.Test can print it.
std::size_t quota(std::string const& root) { return fj::detail::cgroup_cpu_quota(root).value_or(0); }

// A fake root: proc/self/cgroup, proc/self/mountinfo and cgroup files.
class fake_root {
public:
    fake_root()
    {
        char name[] = "/tmp/forkjoin-cgroup-XXXXXX";
        if (mkdtemp(name) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        dir_ = name;
        fs::create_directories(dir_ / "proc/self");
    }
    ~fake_root()
    {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
    void write(std::string const& path, std::string const& text) const
    {
        fs::path const file = dir_ / path;
        fs::create_directories(file.parent_path());
        std::ofstream(file) << text;
    }
    std::string root() const { return dir_.string() + "/"; }

private:
    fs::path dir_;
};

constexpr char const* v2_mount = "36 25 0:31 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";

} // namespace

BOOST_AUTO_TEST_CASE(cgroup_v2_takes_the_tightest_quota_up_to_the_root_rounded_up)
{
    fake_root tree;
    tree.write("proc/self/cgroup", "0::/kubepods/pod1/container\n");
    tree.write("proc/self/mountinfo", std::string("22 1 8:1 / / rw - ext4 /dev/sda1 rw\n") + v2_mount);
    tree.write("sys/fs/cgroup/kubepods/pod1/container/cpu.max", "max 100000\n");
    tree.write("sys/fs/cgroup/kubepods/pod1/cpu.max", "250000 100000\n"); // 2.5 CPUs: 3
    tree.write("sys/fs/cgroup/kubepods/cpu.max", "800000 100000\n");
    BOOST_TEST(quota(tree.root()) == 3u);

    tree.write("sys/fs/cgroup/kubepods/pod1/container/cpu.max", "150000 100000\n");
    BOOST_TEST(quota(tree.root()) == 2u);

    // A quota under one CPU still gets one thread.
    tree.write("sys/fs/cgroup/kubepods/cpu.max", "5000 100000\n");
    BOOST_TEST(quota(tree.root()) == 1u);
    BOOST_TEST(fj::detail::available_parallelism(tree.root()) == 1u);
}

BOOST_AUTO_TEST_CASE(cgroup_v2_without_a_limit_is_no_limit)
{
    fake_root tree;
    tree.write("proc/self/cgroup", "0::/user.slice\n");
    tree.write("proc/self/mountinfo", v2_mount);
    tree.write("sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
    BOOST_TEST(quota(tree.root()) == 0u);
    // Nothing readable at all: no limit either.
    fake_root empty;
    BOOST_TEST(quota(empty.root()) == 0u);
    BOOST_TEST(quota("/nonexistent/") == 0u);
    // Garbage: no limit, no crash.
    tree.write("sys/fs/cgroup/user.slice/cpu.max", "lots\n");
    BOOST_TEST(quota(tree.root()) == 0u);
    tree.write("proc/self/cgroup", "nonsense");
    BOOST_TEST(quota(tree.root()) == 0u);
}

BOOST_AUTO_TEST_CASE(cgroup_v1_reads_the_cpu_controller_and_strips_the_mount_root)
{
    fake_root tree;
    tree.write("proc/self/cgroup", "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n");
    // Inside a container the hierarchy is mounted at the container's own
    // cgroup: the mount root is stripped from the process's path.
    tree.write("proc/self/mountinfo",
               "30 25 0:26 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n"
               "31 25 0:27 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n");
    tree.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "200000\n");
    tree.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    BOOST_TEST(quota(tree.root()) == 2u);
    tree.write("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    BOOST_TEST(quota(tree.root()) == 0u);
}

BOOST_AUTO_TEST_CASE(the_default_pool_has_as_many_threads_as_its_affinity_mask_has_cpus)
{
    auto const r = test::run_in_child([] {
        cpu_set_t set;
        CPU_ZERO(&set);
        test::child_require(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
        int first = 0;
        while (!CPU_ISSET(first, &set))
            ++first;
        CPU_ZERO(&set);
        CPU_SET(first, &set);
        test::child_require(sched_setaffinity(0, sizeof set, &set) == 0, "sched_setaffinity");
        unsetenv("FORKJOIN_NUM_THREADS");
        test::child_require(fj::detail::available_parallelism() == 1, "available_parallelism() == 1");
        {
            fj::basic_thread_pool<fj::sleep::jec> pool;
            test::child_require(pool.num_threads() == 1, "a default pool on one CPU has one thread");
        }
        // The variable and the option still win.
        setenv("FORKJOIN_NUM_THREADS", "3", 1);
        {
            fj::basic_thread_pool<fj::sleep::jec> pool;
            test::child_require(pool.num_threads() == 3, "FORKJOIN_NUM_THREADS=3 gives 3 threads");
        }
        fj::pool_options options;
        options.num_threads = 2;
        fj::basic_thread_pool<fj::sleep::jec> pool(options);
        test::child_require(pool.num_threads() == 2, "num_threads = 2 gives 2 threads");
    });
    BOOST_TEST(r.succeeded(), r);
}
