// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_AVAILABLE_PARALLELISM_HPP
#define BOOST_FORKJOIN_DETAIL_AVAILABLE_PARALLELISM_HPP

// How many CPUs this process may really use: the smallest of
//
// * std::thread::hardware_concurrency(), the machine's count;
// * the CPUs in the calling thread's affinity mask (taskset, docker
//   --cpuset-cpus, systemd AllowedCPUs), from sched_getaffinity;
// * the cgroup CPU quota (docker --cpus, Kubernetes CPU limits), quota over
//   period rounded up, from cgroup v2's cpu.max or v1's cpu.cfs_quota_us and
//   cpu.cfs_period_us, in the process's own cgroup and every ancestor up to
//   the mount point (a limit set on a parent binds its children too).
//
// This is what Rust's std::thread::available_parallelism computes (and so
// Rayon's default), and what Go's runtime does since 1.25. A container
// limited to 2 CPUs on a 64-core host then gets 2 workers, not 64 that
// time-slice 2 CPUs. Whatever cannot be read counts as no limit; the result
// is at least 1.
//
// The cgroup files are read below `root` ("/" in a real process), so that
// tests can point the code at a tree of their own.

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace boost::forkjoin::detail {

// CPUs in the calling thread's affinity mask, or nothing if it cannot be read.
inline std::optional<std::size_t> affinity_cpu_count()
{
    // Start with the usual 1,024-CPU mask; a machine with more CPUs makes
    // sched_getaffinity fail with EINVAL, so grow it until it fits.
    for (std::size_t cpus = 1024; cpus <= (std::size_t{1} << 20); cpus *= 2) {
        cpu_set_t* const set = CPU_ALLOC(cpus);
        if (set == nullptr)
            return std::nullopt;
        std::size_t const bytes = CPU_ALLOC_SIZE(cpus);
        CPU_ZERO_S(bytes, set);
        int const rc = sched_getaffinity(0, bytes, set);
        std::size_t const count = rc == 0 ? static_cast<std::size_t>(CPU_COUNT_S(bytes, set)) : 0;
        CPU_FREE(set);
        if (rc == 0)
            return count > 0 ? std::optional<std::size_t>(count) : std::nullopt;
    }
    return std::nullopt;
}

// quota / period rounded up, at least 1; nothing for "no limit" (a quota of
// "max" or -1) or nonsense.
inline std::optional<std::size_t> cpus_from_quota(long long quota, long long period)
{
    if (quota <= 0 || period <= 0)
        return std::nullopt;
    return static_cast<std::size_t>(std::max<long long>(1, (quota + period - 1) / period));
}

// A whole (small) file, read with POSIX calls: iostreams would cost every
// translation unit that includes the pool their parse time.
inline std::optional<std::string> read_file(std::string const& path)
{
    int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::string text;
    char buffer[4096];
    for (;;) {
        ssize_t const got = ::read(fd, buffer, sizeof buffer);
        if (got <= 0)
            break;
        text.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    return text;
}

// The next line of `text` (without its newline), consumed from it.
inline std::optional<std::string_view> next_line(std::string_view& text)
{
    if (text.empty())
        return std::nullopt;
    std::size_t const end = text.find('\n');
    std::string_view const line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    return line;
}

// The next space-separated field of `text`, consumed from it.
inline std::string_view next_field(std::string_view& text)
{
    std::size_t const begin = std::min(text.find_first_not_of(' '), text.size());
    text.remove_prefix(begin);
    std::size_t const end = std::min(text.find(' '), text.size());
    std::string_view const field = text.substr(0, end);
    text.remove_prefix(end);
    return field;
}

inline long long to_number(std::string_view text)
{
    long long value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

inline bool lists(std::string_view comma_separated, std::string_view item)
{
    while (!comma_separated.empty()) {
        std::size_t const comma = std::min(comma_separated.find(','), comma_separated.size());
        if (comma_separated.substr(0, comma) == item)
            return true;
        comma_separated.remove_prefix(std::min(comma + 1, comma_separated.size()));
    }
    return false;
}

// A cgroup hierarchy: where it is mounted, and the process's path in it.
struct cgroup_location {
    std::string mount_point; // e.g. /sys/fs/cgroup
    std::string path;        // e.g. /docker/abc, relative to the mount
};

// From /proc/self/mountinfo: the mount point of cgroup v2 (controller
// empty) or of the v1 hierarchy that has the cpu controller; its fourth
// field is the root of the mount inside the hierarchy, which a container's
// own view strips from its paths.
inline std::optional<cgroup_location> find_cgroup(std::string const& root, bool v2, std::string_view proc_path)
{
    std::optional<std::string> const mountinfo = read_file(root + "proc/self/mountinfo");
    if (!mountinfo)
        return std::nullopt;
    std::string_view text = *mountinfo;
    while (std::optional<std::string_view> line = next_line(text)) {
        // "36 25 0:31 / /sys/fs/cgroup rw,... - cgroup2 cgroup2 rw"
        std::size_t const dash = line->find(" - ");
        if (dash == std::string_view::npos)
            continue;
        std::string_view after = line->substr(dash + 3);
        std::string_view const fs_type = next_field(after);
        next_field(after); // the source
        std::string_view const super_options = next_field(after);
        std::string_view before = line->substr(0, dash);
        for (int skipped = 0; skipped < 3; ++skipped) // id, parent, device
            next_field(before);
        std::string_view const mount_root = next_field(before);
        std::string_view const mount_point = next_field(before);
        bool const wanted = v2 ? fs_type == "cgroup2" : fs_type == "cgroup" && lists(super_options, "cpu");
        if (!wanted || mount_point.empty())
            continue;
        std::string_view path = proc_path;
        if (mount_root != "/" && path.substr(0, mount_root.size()) == mount_root)
            path.remove_prefix(mount_root.size());
        return cgroup_location{root + std::string(mount_point.substr(1)), std::string(path)};
    }
    return std::nullopt;
}

// The CPUs one cgroup directory's quota allows, if it sets one.
inline std::optional<std::size_t> quota_of(std::string const& dir, bool v2)
{
    if (v2) {
        // "max 100000" (no limit) or "200000 100000".
        std::optional<std::string> const max = read_file(dir + "/cpu.max");
        if (!max)
            return std::nullopt;
        std::string_view fields = *max;
        std::string_view const quota = next_field(fields);
        if (quota == "max")
            return std::nullopt;
        return cpus_from_quota(to_number(quota), to_number(next_field(fields)));
    }
    std::optional<std::string> const quota = read_file(dir + "/cpu.cfs_quota_us");
    std::optional<std::string> const period = read_file(dir + "/cpu.cfs_period_us");
    if (!quota || !period)
        return std::nullopt;
    return cpus_from_quota(to_number(*quota), to_number(*period));
}

// The tightest CPU quota on the way from the process's cgroup up to the
// mount point, or nothing when none is set.
inline std::optional<std::size_t> cgroup_cpu_quota(std::string const& root = "/")
{
    std::optional<std::string> const cgroups = read_file(root + "proc/self/cgroup");
    if (!cgroups)
        return std::nullopt;
    std::optional<std::size_t> tightest;
    std::string_view text = *cgroups;
    while (std::optional<std::string_view> line = next_line(text)) {
        // v2: "0::/path"; v1: "4:cpu,cpuacct:/path".
        std::size_t const first = line->find(':');
        std::size_t const second = first == std::string_view::npos ? first : line->find(':', first + 1);
        if (second == std::string_view::npos)
            continue;
        std::string_view const controllers = line->substr(first + 1, second - first - 1);
        bool const v2 = line->substr(0, first) == "0" && controllers.empty();
        if (!v2 && !lists(controllers, "cpu"))
            continue;
        std::optional<cgroup_location> const where = find_cgroup(root, v2, line->substr(second + 1));
        if (!where)
            continue;
        // From the process's cgroup up to the hierarchy's root.
        std::string path = where->path;
        for (;;) {
            std::optional<std::size_t> const cpus = quota_of(where->mount_point + (path == "/" ? "" : path), v2);
            if (cpus && (!tightest || *cpus < *tightest))
                tightest = cpus;
            std::size_t const slash = path.find_last_of('/');
            if (path.empty() || path == "/" || slash == std::string::npos)
                break;
            path = slash == 0 ? "/" : path.substr(0, slash);
        }
    }
    return tightest;
}

// The smallest of the hardware's count, the affinity mask's and the cgroup
// quota's; at least 1.
inline std::size_t available_parallelism(std::string const& cgroup_root = "/")
{
    unsigned const hardware = std::thread::hardware_concurrency();
    std::size_t n = hardware == 0 ? 1 : hardware;
    if (std::optional<std::size_t> const affinity = affinity_cpu_count())
        n = std::min(n, *affinity);
    if (std::optional<std::size_t> const quota = cgroup_cpu_quota(cgroup_root))
        n = std::min(n, *quota);
    return std::max<std::size_t>(n, 1);
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_AVAILABLE_PARALLELISM_HPP
