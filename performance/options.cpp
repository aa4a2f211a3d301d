// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "options.hpp"

#include "implementations.hpp"
#include "runner.hpp"
#include "workloads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <thread>
#include <type_traits>

#include <unistd.h>

namespace fs = std::filesystem;

namespace forkjoin_bench {

namespace {

void print_help()
{
    fmt::print(
        "usage: forkjoin_bench [options]\n"
        "\n"
        "Runs every workload on every implementation and thread count, each in a\n"
        "child process, and prints a table of medians with min-max ranges.\n"
        "\n"
        "  --quick                 smoke test, at most about a minute: fewer repetitions\n"
        "                          and the reduced sizes the report labels\n"
        "  --workloads a,b         run only these workloads (see --list)\n"
        "  --impls a,b             run only these implementations; 'forkjoin' selects\n"
        "                          the three policies\n"
        "  --threads 1,2           thread counts (default: 1, 2 and the core count)\n"
        "  --reps N                measured repetitions per run (default: per workload)\n"
        "  --rounds N              run the whole plan N times over (default 1): each row\n"
        "                          gets N child processes spread over the run, and its\n"
        "                          median is over all their repetitions\n"
        "  --set wl.key=value      override a workload parameter, e.g. --set fib.n=30\n"
        "  --json FILE             write all results, raw repetitions included, as JSON\n"
        "  --csv FILE              write the summary as CSV\n"
        "  --plots DIR             write one PNG per workload with gnuplot\n"
        "  --rayon PATH            the rayon-bench binary (default: searched, or\n"
        "                          $FORKJOIN_BENCH_RAYON)\n"
        "  --timeout S             seconds before a child run is killed (default 300,\n"
        "                          60 with --quick; times the policies for the\n"
        "                          library's rows, which share a child)\n"
        "  --list                  list workloads and implementations and exit\n");
}

[[noreturn]] void usage_error(std::string const& what)
{
    fmt::print(stderr, "forkjoin_bench: {}\n(try --help)\n", what);
    std::exit(2);
}

bool is_workload(std::string_view name)
{
    return std::any_of(registry().begin(), registry().end(), [&](workload const& w) { return w.name == name; });
}

// The limits of the numeric options: far beyond any sensible run, and low
// enough that nothing computed from them overflows (the timeout in
// nanoseconds, the thread count as Rayon's usize and OpenMP's int).
constexpr std::size_t max_threads = 65535;
constexpr int max_reps = 1'000'000;
constexpr double max_timeout_s = 1e6;

// `text` as a number, all of it, within [lo, hi]; a usage error otherwise.
// std::from_chars, unlike strtoul and atoi, takes no sign, no blanks and no
// trailing junk, and says when the value is out of range: "2x", "-1" and
// "4294967297" are errors, not 2, 2^64 - 1 and 1.
template <class T>
T parse_number(std::string_view flag, std::string_view text, T lo, T hi)
{
    T v{};
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    bool const ok = ec == std::errc{} && end == text.data() + text.size() && !text.empty();
    if constexpr (std::is_floating_point_v<T>) {
        if (ok && std::isfinite(v) && v > lo && v <= hi)
            return v;
        usage_error(fmt::format("{} needs a number above {} and at most {}, got '{}'", flag, lo, hi, text));
    } else {
        if (ok && v >= lo && v <= hi)
            return v;
        usage_error(fmt::format("{} needs a whole number from {} to {}, got '{}'", flag, lo, hi, text));
    }
}

// A comma-separated list with no empty item: "" and "a,,b" are errors, not
// "everything" and "a,b". split_list drops empty items, so a list that had
// one comes back with fewer items than its commas plus one.
std::vector<std::string> parse_list(std::string_view flag, std::string_view text)
{
    std::vector<std::string> items = split_list(text);
    if (items.size() != static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1)
        usage_error(fmt::format("{} needs a comma-separated list with no empty item, got '{}'", flag, text));
    return items;
}

// Fails now, not after a run of many minutes, when `path` cannot be
// written: opens it for appending, which keeps what is there, and removes
// it again if it was not there before.
void check_writable_file(std::string_view flag, std::string const& path)
{
    std::error_code ec;
    bool const existed = fs::exists(path, ec);
    if (!std::ofstream(path, std::ios::app))
        usage_error(fmt::format("{}: cannot write '{}'", flag, path));
    if (!existed)
        fs::remove(path, ec);
}

// The same for the plots' directory, which write_plots creates anyway.
void check_writable_dir(std::string_view flag, std::string const& dir)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir) || ::access(dir.c_str(), W_OK | X_OK) != 0)
        usage_error(fmt::format("{}: cannot write into directory '{}'{}", flag, dir,
                                ec ? fmt::format(" ({})", ec.message()) : ""));
}

} // namespace

std::vector<std::string> split_list(std::string_view s)
{
    std::vector<std::string> out;
    while (!s.empty()) {
        auto comma = s.find(',');
        auto item = s.substr(0, comma);
        if (!item.empty())
            out.emplace_back(item);
        if (comma == std::string_view::npos)
            break;
        s.remove_prefix(comma + 1);
    }
    return out;
}

options parse_options(int argc, char** argv)
{
    options o;
    auto value = [&](int& i) -> std::string {
        if (i + 1 >= argc)
            usage_error(fmt::format("{} needs a value", argv[i]));
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "--quick")
            o.quick = true;
        else if (a == "--workloads")
            o.workloads = parse_list(a, value(i));
        else if (a == "--impls")
            o.impls = parse_list(a, value(i));
        else if (a == "--threads") {
            for (auto const& t : parse_list(a, value(i)))
                o.threads.push_back(parse_number<std::size_t>(a, t, 1, max_threads));
        } else if (a == "--reps")
            o.reps = parse_number(a, value(i), 1, max_reps);
        else if (a == "--rounds")
            o.rounds = parse_number(a, value(i), 1, max_reps);
        else if (a == "--set") {
            auto kv = value(i);
            auto dot = kv.find('.'), eq = kv.find('=');
            if (dot == std::string::npos || eq == std::string::npos || eq < dot)
                usage_error(fmt::format("--set needs workload.key=value, got '{}'", kv));
            o.overrides.emplace_back(kv.substr(0, dot), kv.substr(dot + 1));
        } else if (a == "--json")
            o.json = value(i);
        else if (a == "--csv")
            o.csv = value(i);
        else if (a == "--plots")
            o.plots = value(i);
        else if (a == "--rayon")
            o.rayon = value(i);
        else if (a == "--timeout")
            o.timeout_s = parse_number(a, value(i), 0.0, max_timeout_s);
        else if (a == "--help" || a == "-h") {
            print_help();
            std::exit(0);
        } else if (a == "--list") {
            // One column for the names of both lists, as wide as the longest.
            std::size_t width = 0;
            for (auto const& w : registry())
                width = std::max(width, w.name.size());
            for (auto const& impl : implementations)
                width = std::max(width, impl.name.size());
            fmt::print("workloads:\n");
            for (auto const& w : registry())
                fmt::print("  {:<{}} {}\n", w.name, width, w.title);
            fmt::print("implementations:\n");
            for (auto const& impl : implementations)
                fmt::print("  {:<{}} {}\n", impl.name, width, impl.description);
            std::exit(0);
        } else
            usage_error(fmt::format("unknown option '{}'", a));
    }

    // Expand and check the selections.
    std::vector<std::string> impls;
    for (auto const& i : o.impls) {
        if (i == "forkjoin") {
            for (auto p : policy_rows)
                impls.emplace_back(p);
        } else if (is_implementation(i))
            impls.push_back(i);
        else
            usage_error(fmt::format("unknown implementation '{}'", i));
    }
    o.impls = impls;
    for (auto const& w : o.workloads)
        if (!is_workload(w))
            usage_error(fmt::format("unknown workload '{}'", w));
    for (auto const& [w, kv] : o.overrides)
        if (!is_workload(w))
            usage_error(fmt::format("--set: unknown workload '{}'", w));
    // Every workload's parameters, the --set ones included, are checked
    // here, before any child runs: a zero grain hangs a child, an empty
    // sample crashes one, and a key no kernel reads would be shown in the
    // report as if it had been used. rayon-bench gets the same values, so
    // this covers it too.
    for (auto const& [w, kv] : o.overrides) {
        auto const key = kv.substr(0, kv.find('='));
        auto const& wl = *std::find_if(registry().begin(), registry().end(), [&](auto const& r) { return r.name == w; });
        if (!std::any_of(wl.full.begin(), wl.full.end(), [&](auto const& p) { return p.first == key; })) {
            std::string keys;
            for (auto const& p : wl.full)
                keys += (keys.empty() ? "" : ", ") + std::string(p.first);
            usage_error(fmt::format("--set {}.{}: {} has no parameter '{}'{}", w, kv, w, key,
                                    keys.empty() ? std::string(" (it has none)") : " (it has " + keys + ")"));
        }
    }
    for (auto const& wl : registry())
        if (wl.implemented())
            if (auto const error = param_error(wl, workload_params(wl, o)); !error.empty())
                usage_error(fmt::format("--set: {}: {}", wl.name, error));
    if (o.threads.empty()) {
        o.threads = {1, 2};
        if (auto hw = std::thread::hardware_concurrency(); hw > 2)
            o.threads.push_back(hw);
    }
    // In ascending order, each once: a repeated count would give a row
    // twice, and the "vs rayon" ratio of the second would read the first's
    // reference (compare_policies sorts and dedupes its threads the same way).
    std::sort(o.threads.begin(), o.threads.end());
    o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
    if (o.timeout_s == 0)
        o.timeout_s = o.quick ? 60 : 300;
    if (!o.json.empty())
        check_writable_file("--json", o.json);
    if (!o.csv.empty())
        check_writable_file("--csv", o.csv);
    if (!o.plots.empty())
        check_writable_dir("--plots", o.plots);
    return o;
}

} // namespace forkjoin_bench
