// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "machine.hpp"

#include <boost/version.hpp>
#include <fmt/format.h>
#include <oneapi/tbb/version.h>

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <sys/utsname.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace forkjoin_bench {

namespace {

std::string trim(std::string s)
{
    auto b = s.find_first_not_of(" \t\r\n");
    auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string cpu_model()
{
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            return trim(line.substr(line.find(':') + 1));
    return "unknown CPU";
}

// rayon and rayon-core versions, from the Cargo.lock next to the sources.
std::string rayon_versions(std::vector<fs::path> const& locks)
{
    for (auto const& lock : locks) {
        std::ifstream in(lock);
        if (!in)
            continue;
        std::string out, line, name;
        while (std::getline(in, line)) {
            if (line.rfind("name = ", 0) == 0)
                name = line.substr(8, line.size() - 9);
            else if (line.rfind("version = ", 0) == 0 && (name == "rayon" || name == "rayon-core"))
                out += (out.empty() ? "" : ", ") + name + " " + line.substr(11, line.size() - 12);
        }
        if (!out.empty())
            return out;
    }
    return "version unknown (no Cargo.lock found)";
}

} // namespace

bool have_program(std::string const& name)
{
    char const* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/bin:/bin";
    while (!dirs.empty()) {
        auto colon = dirs.find(':');
        auto dir = std::string(dirs.substr(0, colon));
        if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0)
            return true;
        if (colon == std::string_view::npos)
            break;
        dirs.remove_prefix(colon + 1);
    }
    return false;
}

std::string self_path()
{
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error("cannot find this executable via /proc/self/exe");
    return p.string();
}

std::string find_rayon(options const& o, std::string const& self, std::vector<fs::path>& cargo_locks)
{
    std::vector<fs::path> candidates;
    if (!o.rayon.empty())
        candidates.push_back(o.rayon);
    else {
        if (char const* env = std::getenv("FORKJOIN_BENCH_RAYON"))
            candidates.push_back(env);
#ifdef FORKJOIN_BENCH_RAYON_BIN
        candidates.push_back(FORKJOIN_BENCH_RAYON_BIN);
#endif
        candidates.push_back(fs::path(self).parent_path() / "rayon-bench");
#ifdef FORKJOIN_BENCH_SOURCE_DIR
        candidates.push_back(fs::path(FORKJOIN_BENCH_SOURCE_DIR) / "rayon/target/release/rayon-bench");
#endif
    }
#ifdef FORKJOIN_BENCH_SOURCE_DIR
    cargo_locks.push_back(fs::path(FORKJOIN_BENCH_SOURCE_DIR) / "rayon/Cargo.lock");
#endif
    for (auto const& c : candidates) {
        if (::access(c.c_str(), X_OK) == 0) {
            cargo_locks.insert(cargo_locks.begin(), c.parent_path().parent_path().parent_path() / "Cargo.lock");
            return c.string();
        }
    }
    std::string looked;
    for (auto const& c : candidates)
        looked += "\n        " + c.string();
    fmt::print(stderr,
               "note: Rayon rows skipped: no rayon-bench binary{}. Looked in:{}\n"
               "      Build it in performance/rayon with `cargo build --release --config codegen.toml`\n"
               "      (offline: add `--offline --config debian-registry.toml`), run\n"
               "      performance/run.sh, or pass --rayon PATH.\n",
               have_program("cargo") ? "" : " and no cargo on PATH to build one", looked);
    return {};
}

machine_info describe_machine(std::string const& rayon, std::vector<fs::path> const& locks)
{
    machine_info m;
    m.cpu = cpu_model();
    m.cores = std::thread::hardware_concurrency();
    utsname u{};
    if (::uname(&u) == 0)
        m.os = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
    m.compiler = fmt::format("g++ {}{}", __VERSION__,
#if defined(__OPTIMIZE__)
                             ", optimized"
#else
                             ", NOT optimized"
#endif
    );
    m.libraries = fmt::format("Boost {}.{}.{}, oneTBB {}.{}, OpenMP {} (omp_get_max_threads {}), fmt {}",
                              BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100,
                              TBB_VERSION_MAJOR, TBB_VERSION_MINOR, _OPENMP, omp_get_max_threads(), FMT_VERSION);
    m.rayon = rayon.empty() ? "not available" : fmt::format("{} ({})", rayon_versions(locks), rayon);
    {
        std::ifstream in("/proc/loadavg");
        double one = 0, five = 0, fifteen = 0;
        if (in >> one >> five >> fifteen) {
            m.load = fmt::format("{:.2f} {:.2f} {:.2f}", one, five, fifteen);
            m.load_1min = one;
        } else
            m.load = "unknown";
    }
    // Variables that change how the runtimes under test wait or size
    // themselves; any that are set belong in the report.
    for (char** e = environ; *e; ++e) {
        std::string_view v = *e;
        for (std::string_view prefix : {"OMP_", "GOMP_", "KMP_", "TBB_", "RAYON_", "FORKJOIN_"})
            if (v.rfind(prefix, 0) == 0) {
                m.env += (m.env.empty() ? "" : " ") + std::string(v);
                break;
            }
    }
    std::time_t now = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
    m.date = buf;
    return m;
}

} // namespace forkjoin_bench
