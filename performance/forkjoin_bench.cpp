// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// forkjoin_bench: Boost.ForkJoin (one row per sleep policy) against serial
// code, oneTBB, OpenMP tasks and Rayon, on the workloads of workloads.hpp.
//
// Every (workload, implementation, thread count) runs in a child process of
// its own: this program re-executed with --child for the C++ implementations,
// rayon/ 's `rayon-bench` for Rayon. That puts every implementation on the
// same footing (a fresh process, no other runtime's threads spinning in the
// background while we read the process CPU clock) and lets a hung or
// crashed run be reported instead of taking the whole benchmark down.
// Children print `rep key=value ...` lines (measure.hpp); this process
// gathers them and reports medians and min-max ranges.
//
// See README.md for the workloads and how to read the results, and --help
// for the options.

#include "executors.hpp"
#include "measure.hpp"
#include "workloads.hpp"

#include <boost/version.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace forkjoin_bench;

namespace {

// ---------------------------------------------------------------------------
// Implementations
// ---------------------------------------------------------------------------

struct implementation {
    std::string_view name;
    std::string_view description;
};

// Report order: the reference first, then the library's policies, then peers.
constexpr implementation implementations[] = {
    {"serial", "join = a() then b(); the reference for 'vs serial'"},
    {"forkjoin-jec", "boost::forkjoin::basic_thread_pool<sleep::jec> (the default thread_pool)"},
    {"forkjoin-legacy", "boost::forkjoin::basic_thread_pool<sleep::legacy>"},
    {"forkjoin-spin", "boost::forkjoin::basic_thread_pool<sleep::spin>"},
    {"tbb", "oneTBB task_arena + parallel_invoke / enqueue"},
    {"omp", "OpenMP parallel + single + task/taskwait (libgomp)"},
    {"rayon", "Rayon ThreadPool::install + rayon::join / spawn (child process rayon-bench)"},
};

bool is_implementation(std::string_view name)
{
    return std::any_of(std::begin(implementations), std::end(implementations),
                       [&](auto const& i) { return i.name == name; });
}

// Calls f(executor) with an executor of the named implementation.
template <class F>
bool with_executor(std::string_view impl, std::size_t threads, F&& f)
{
    auto run = [&]<class Ex>(std::type_identity<Ex>) {
        Ex ex(threads);
        f(ex);
        return true;
    };
    if (impl == "serial")
        return run(std::type_identity<serial_executor>{});
    namespace sleep = boost::forkjoin::sleep;
    if (impl == "forkjoin-jec")
        return run(std::type_identity<forkjoin_executor<sleep::jec>>{});
    if (impl == "forkjoin-legacy")
        return run(std::type_identity<forkjoin_executor<sleep::legacy>>{});
    if (impl == "forkjoin-spin")
        return run(std::type_identity<forkjoin_executor<sleep::spin>>{});
    if (impl == "tbb")
        return run(std::type_identity<tbb_executor>{});
    if (impl == "omp")
        return run(std::type_identity<omp_executor>{});
    return false;
}

// ---------------------------------------------------------------------------
// Child mode: forkjoin_bench --child IMPL KERNEL --threads N --reps R
//                            [--warmup W] [--param key=value]...
// The same argument shape as rayon-bench (minus IMPL).
// ---------------------------------------------------------------------------

int child_main(int argc, char** argv)
{
    if (argc < 4) {
        fmt::print(stderr, "forkjoin_bench --child IMPL KERNEL [--threads N] [--reps R] [--warmup W] [--param k=v]...\n");
        return 2;
    }
    std::string_view impl = argv[2];
    std::string_view kernel = argv[3];
    std::size_t threads = 1;
    int reps = 1, warmup = 1;
    params args;
    for (int i = 4; i + 1 < argc; i += 2) {
        std::string_view flag = argv[i];
        std::string value = argv[i + 1];
        if (flag == "--threads")
            threads = std::stoul(value);
        else if (flag == "--reps")
            reps = std::stoi(value);
        else if (flag == "--warmup")
            warmup = std::stoi(value);
        else if (flag == "--param" && value.find('=') != std::string::npos)
            args.set(value.substr(0, value.find('=')), value.substr(value.find('=') + 1));
        else {
            fmt::print(stderr, "forkjoin_bench --child: bad argument '{}'\n", flag);
            return 2;
        }
    }
    run_context ctx{args, warmup, reps};
    bool found_kernel = true;
    bool found_impl = with_executor(impl, threads, [&](auto& ex) { found_kernel = run_kernel(kernel, ex, ctx); });
    if (!found_impl || !found_kernel) {
        fmt::print(stderr, "forkjoin_bench --child: unknown {} '{}'\n", found_impl ? "kernel" : "implementation",
                   found_impl ? kernel : impl);
        return 2;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

struct options {
    bool quick = false;
    std::vector<std::string> workloads; // empty: all
    std::vector<std::string> impls;     // empty: all
    std::vector<std::size_t> threads;   // empty: 1, 2 and the core count
    std::optional<int> reps;
    std::string json, csv, plots;
    std::string rayon; // path of rayon-bench; empty: search
    double timeout_s = 0; // per child; 0: 300 (full) or 60 (quick)
    std::vector<std::pair<std::string, std::string>> overrides; // workload.key=value
};

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
        "  --set wl.key=value      override a workload parameter, e.g. --set fib.n=30\n"
        "  --json FILE             write all results, raw repetitions included, as JSON\n"
        "  --csv FILE              write the summary as CSV\n"
        "  --plots DIR             write one PNG per workload with gnuplot\n"
        "  --rayon PATH            the rayon-bench binary (default: searched, or\n"
        "                          $FORKJOIN_BENCH_RAYON)\n"
        "  --timeout S             seconds before a child run is killed (default 300,\n"
        "                          60 with --quick)\n"
        "  --list                  list workloads and implementations and exit\n");
}

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

[[noreturn]] void usage_error(std::string const& what)
{
    fmt::print(stderr, "forkjoin_bench: {}\n(try --help)\n", what);
    std::exit(2);
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
            o.workloads = split_list(value(i));
        else if (a == "--impls")
            o.impls = split_list(value(i));
        else if (a == "--threads") {
            for (auto const& t : split_list(value(i))) {
                auto n = std::strtoul(t.c_str(), nullptr, 10);
                if (n == 0)
                    usage_error(fmt::format("bad thread count '{}'", t));
                o.threads.push_back(n);
            }
        } else if (a == "--reps") {
            int n = std::atoi(value(i).c_str());
            if (n < 1)
                usage_error("--reps needs a positive number");
            o.reps = n;
        } else if (a == "--set") {
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
            o.timeout_s = std::atof(value(i).c_str());
        else if (a == "--help" || a == "-h") {
            print_help();
            std::exit(0);
        } else if (a == "--list") {
            fmt::print("workloads:\n");
            for (auto const& w : registry())
                fmt::print("  {:<16} {}\n", w.name, w.title);
            fmt::print("implementations:\n");
            for (auto const& i : implementations)
                fmt::print("  {:<16} {}\n", i.name, i.description);
            std::exit(0);
        } else
            usage_error(fmt::format("unknown option '{}'", a));
    }

    // Expand and check the selections.
    std::vector<std::string> impls;
    for (auto const& i : o.impls) {
        if (i == "forkjoin") {
            for (auto p : {"forkjoin-jec", "forkjoin-legacy", "forkjoin-spin"})
                impls.emplace_back(p);
        } else if (is_implementation(i))
            impls.push_back(i);
        else
            usage_error(fmt::format("unknown implementation '{}'", i));
    }
    o.impls = impls;
    for (auto const& w : o.workloads)
        if (std::none_of(registry().begin(), registry().end(), [&](auto const& r) { return r.name == w; }))
            usage_error(fmt::format("unknown workload '{}'", w));
    for (auto const& [w, kv] : o.overrides)
        if (std::none_of(registry().begin(), registry().end(), [&](auto const& r) { return r.name == w; }))
            usage_error(fmt::format("--set: unknown workload '{}'", w));
    if (o.threads.empty()) {
        o.threads = {1, 2};
        if (auto hw = std::thread::hardware_concurrency(); hw > 2)
            o.threads.push_back(hw);
    }
    if (o.timeout_s <= 0)
        o.timeout_s = o.quick ? 60 : 300;
    return o;
}

// ---------------------------------------------------------------------------
// The machine
// ---------------------------------------------------------------------------

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

struct machine_info {
    std::string cpu;
    unsigned cores;
    std::string os;
    std::string compiler;
    std::string libraries;
    std::string rayon;
    std::string load; // load average at start: other work skews timings
    double load_1min = 0;
    std::string env; // runtime-related environment variables that are set
    std::string date;
};

// ---------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------

struct child_output {
    std::vector<std::string> lines;
    int exit_code = -1; // -1: killed by a signal
    int signal = 0;
    bool timed_out = false;
    double seconds = 0;
};

child_output run_child(std::vector<std::string> const& args, double timeout_s)
{
    child_output out;
    int fd[2];
    if (::pipe2(fd, O_CLOEXEC) != 0)
        throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
    std::vector<char*> argv;
    for (auto const& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    auto start = wall_ns();
    pid_t pid = ::fork();
    if (pid < 0)
        throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
    if (pid == 0) {
        ::dup2(fd[1], STDOUT_FILENO);
        ::execv(argv[0], argv.data());
        fmt::print(stderr, "forkjoin_bench: cannot run {}: {}\n", argv[0], std::strerror(errno));
        ::_exit(127);
    }
    ::close(fd[1]);

    std::string buffer;
    auto deadline = start + std::uint64_t(timeout_s * 1e9);
    for (;;) {
        auto now = wall_ns();
        if (now >= deadline) {
            ::kill(pid, SIGKILL);
            out.timed_out = true;
            break;
        }
        pollfd p{fd[0], POLLIN, 0};
        int ms = int(std::min<std::uint64_t>((deadline - now) / 1'000'000 + 1, 1000));
        if (::poll(&p, 1, ms) < 0) {
            if (errno == EINTR)
                continue;
            throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
        }
        if (p.revents == 0)
            continue;
        char chunk[4096];
        auto n = ::read(fd[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // EOF: the child closed stdout, i.e. exited
        buffer.append(chunk, std::size_t(n));
    }
    ::close(fd[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    out.seconds = double(wall_ns() - start) / 1e9;
    if (WIFEXITED(status))
        out.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        out.signal = WTERMSIG(status);

    std::istringstream lines(buffer);
    for (std::string line; std::getline(lines, line);)
        out.lines.push_back(line);
    return out;
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

using sample = std::map<std::string, std::string, std::less<>>;

enum class run_state { ok, skipped, failed };

struct run_result {
    workload const* wl;
    std::string impl;
    std::size_t threads;
    run_state state = run_state::failed;
    std::string note;
    std::vector<sample> reps;
    double seconds = 0;
};

sample parse_fields(std::string_view line)
{
    sample s;
    std::istringstream in{std::string(line)};
    for (std::string kv; in >> kv;)
        if (auto eq = kv.find('='); eq != std::string::npos)
            s[kv.substr(0, eq)] = kv.substr(eq + 1);
    return s;
}

std::optional<double> field(sample const& s, std::string_view key)
{
    auto it = s.find(key);
    if (it == s.end())
        return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str())
        return std::nullopt;
    return v;
}

std::optional<double> metric_value(sample const& s, metric const& m)
{
    auto v = field(s, m.key);
    if (!v)
        return std::nullopt;
    if (!m.per.empty()) {
        auto d = field(s, m.per);
        if (!d || *d == 0)
            return std::nullopt;
        *v /= *d;
    }
    return *v * m.scale;
}

struct summary {
    double median, min, max;
    std::size_t n;
};

std::optional<summary> summarize(run_result const& r, metric const& m)
{
    std::vector<double> v;
    for (auto const& s : r.reps)
        if (auto x = metric_value(s, m))
            v.push_back(*x);
    if (v.empty())
        return std::nullopt;
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return summary{median(v), *lo, *hi, v.size()};
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

struct plan_item {
    workload const* wl;
    params args;
    std::string impl;
    std::size_t threads;
    int reps, warmup;
};

params workload_params(workload const& w, options const& o)
{
    params p;
    for (auto const& [k, v] : o.quick ? w.quick : w.full)
        p.set(std::string(k), std::string(v));
    for (auto const& [name, kv] : o.overrides)
        if (name == w.name)
            p.set(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
    return p;
}

std::string format_params(params const& p)
{
    std::string s;
    for (auto const& [k, v] : p.all())
        s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

run_result execute(plan_item const& item, std::string const& self, std::string const& rayon, double timeout_s)
{
    run_result r{item.wl, item.impl, item.threads, run_state::failed, {}, {}, 0.0};
    if (item.wl->forkjoin_only && !item.impl.starts_with("forkjoin-")) {
        r.state = run_state::skipped;
        r.note = fmt::format("Boost.ForkJoin only: {} has no fibers (nothing parks, no spawn_future)", item.impl);
        return r;
    }
    std::vector<std::string> args;
    if (item.impl == "rayon") {
        if (rayon.empty()) {
            r.state = run_state::skipped;
            r.note = "no rayon-bench binary (see the note at the start)";
            return r;
        }
        args = {rayon, std::string(item.wl->kernel)};
    } else {
        args = {self, "--child", item.impl, std::string(item.wl->kernel)};
    }
    for (auto const& a : {std::string("--threads"), std::to_string(item.threads), std::string("--reps"),
                          std::to_string(item.reps), std::string("--warmup"), std::to_string(item.warmup)})
        args.push_back(a);
    for (auto const& [k, v] : item.args.all()) {
        args.push_back("--param");
        args.push_back(k + "=" + v);
    }

    auto out = run_child(args, timeout_s);
    r.seconds = out.seconds;
    for (auto const& line : out.lines) {
        if (line.rfind("rep ", 0) == 0)
            r.reps.push_back(parse_fields(std::string_view(line).substr(4)));
        else if (line.rfind("skip ", 0) == 0) {
            r.state = run_state::skipped;
            r.note = line.substr(5);
        }
    }
    if (r.state == run_state::skipped)
        return r;
    // A run fails if it did not exit cleanly, even after reporting every
    // repetition: a pool that hangs or crashes on shutdown is a bug the
    // smoke test must catch. What it did report is still shown.
    if (out.timed_out)
        r.note = fmt::format("timed out after {:.0f} s ({} of {} reps done)", timeout_s, r.reps.size(), item.reps);
    else if (out.signal != 0)
        r.note = fmt::format("killed by signal {} ({})", out.signal, strsignal(out.signal));
    else if (out.exit_code != 0)
        r.note = fmt::format("exited with status {}", out.exit_code);
    else if (r.reps.size() != std::size_t(item.reps))
        r.note = fmt::format("only {} of {} reps reported", r.reps.size(), item.reps);
    r.state = r.note.empty() ? run_state::ok : run_state::failed;
    return r;
}

// ---------------------------------------------------------------------------
// Report: the table
// ---------------------------------------------------------------------------

std::string format_value(double v, int precision)
{
    return fmt::format("{:.{}f}", v, precision);
}

run_result const* find_result(std::vector<run_result> const& all, workload const* wl, std::string_view impl,
                              std::optional<std::size_t> threads)
{
    for (auto const& r : all)
        if (r.wl == wl && r.impl == impl && (!threads || r.threads == *threads))
            return &r;
    return nullptr;
}

std::string ratio(std::optional<summary> const& value, run_result const* reference, metric const& m)
{
    if (!value || !reference || reference->state != run_state::ok)
        return "-";
    auto ref = summarize(*reference, m);
    if (!ref || ref->median <= 0 || ref->median < m.noise_floor)
        return "-";
    return fmt::format("{:.2f}", value->median / ref->median);
}

void print_table(std::vector<workload const*> const& wls, std::vector<run_result> const& results,
                 std::map<std::string_view, params> const& used, options const& o)
{
    for (auto const* wl : wls) {
        fmt::print("\n== {} : {}\n", wl->name, wl->title);
        if (!wl->implemented()) {
            fmt::print("   reserved for a later change; not implemented yet\n");
            continue;
        }
        fmt::print("   params: {}{}\n", format_params(used.at(wl->name)),
                   o.quick ? fmt::format("   [--quick: {}]", wl->quick_note) : "");
        fmt::print("   metric: {} (median of the repetitions, min-max range); ratios = this / reference, "
                   "lower is better\n",
                   wl->primary.label);

        std::string head = fmt::format("   {:<16} {:>3} {:>10} {:>21} {:>9} {:>9}", "implementation", "thr",
                                       wl->primary.label, "min - max", "vs serial", "vs rayon");
        for (auto const& e : wl->extras)
            head += fmt::format(" {:>11}", e.label);
        fmt::print("{}\n   {}\n", head, std::string(head.size() - 3, '-'));

        auto const* serial = wl->serial_reference ? find_result(results, wl, "serial", std::nullopt) : nullptr;
        for (auto const& r : results) {
            if (r.wl != wl)
                continue;
            std::string thr = r.impl == "serial" ? "-" : std::to_string(r.threads);
            std::string line = fmt::format("   {:<16} {:>3} ", r.impl, thr);
            auto s = summarize(r, wl->primary);
            if (!s) {
                auto why = r.state == run_state::ok
                               ? fmt::format("the output has no '{}' field", wl->primary.key)
                               : r.note;
                fmt::print("{}{}: {}\n", line, r.state == run_state::skipped ? "n/a" : "FAILED", why);
                continue;
            }
            auto range = s->n > 1 ? fmt::format("{} - {}", format_value(s->min, wl->primary.precision),
                                                format_value(s->max, wl->primary.precision))
                                  : std::string("(1 rep)");
            auto const* rayon = find_result(results, wl, "rayon", r.threads);
            line += fmt::format("{:>10} {:>21} {:>9} {:>9}", format_value(s->median, wl->primary.precision), range,
                                r.impl == "serial" ? "1.00" : ratio(s, serial, wl->primary),
                                r.impl == "rayon" ? "1.00" : ratio(s, rayon, wl->primary));
            for (auto const& e : wl->extras) {
                auto x = summarize(r, e);
                line += fmt::format(" {:>11}", x ? format_value(x->median, e.precision) : "-");
            }
            if (r.state == run_state::failed)
                line += "  FAILED: " + r.note;
            fmt::print("{}\n", line);
        }

        // Every implementation runs the same algorithm on the same data; a
        // `check` field (fib's value, nbody's position sum) proves it.
        std::map<std::string, std::vector<std::string>> checks;
        for (auto const& r : results)
            if (r.wl == wl && r.state == run_state::ok)
                for (auto const& s : r.reps)
                    if (auto c = s.find("check"); c != s.end()) {
                        auto v = std::strtod(c->second.c_str(), nullptr);
                        auto& who = checks[fmt::format("{}", v)];
                        auto label = fmt::format("{}/{}", r.impl, r.threads);
                        if (std::find(who.begin(), who.end(), label) == who.end())
                            who.push_back(label);
                    }
        if (checks.size() == 1)
            fmt::print("   check: every implementation computed {}\n", checks.begin()->first);
        else if (checks.size() > 1) {
            fmt::print("   WARNING: implementations disagree on the result:\n");
            for (auto const& [v, who] : checks) {
                std::string names;
                for (auto const& w : who)
                    names += (names.empty() ? "" : ", ") + w;
                fmt::print("     {} from {}\n", v, names);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Report: JSON, CSV, plots
// ---------------------------------------------------------------------------

std::string json_string(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out += fmt::format("\\u{:04x}", int(c));
            else
                out += c;
        }
    }
    return out + "\"";
}

std::string json_number(double v)
{
    return std::isfinite(v) ? fmt::format("{}", v) : "null";
}

std::string state_name(run_state s)
{
    return s == run_state::ok ? "ok" : s == run_state::skipped ? "skipped" : "failed";
}

void write_json(std::string const& path, machine_info const& m, options const& o,
                std::vector<workload const*> const& wls, std::vector<run_result> const& results,
                std::map<std::string_view, params> const& used)
{
    std::ofstream f(path);
    if (!f)
        throw std::runtime_error("cannot write " + path);
    f << "{\n  \"machine\": {" << "\"cpu\": " << json_string(m.cpu) << ", \"cores\": " << m.cores
      << ", \"os\": " << json_string(m.os) << ", \"compiler\": " << json_string(m.compiler)
      << ", \"libraries\": " << json_string(m.libraries) << ", \"rayon\": " << json_string(m.rayon)
      << ", \"load_average\": " << json_string(m.load) << ", \"env\": " << json_string(m.env) << ", \"date\": " << json_string(m.date) << "},\n";
    f << "  \"mode\": " << json_string(o.quick ? "quick" : "full") << ",\n  \"workloads\": [\n";
    for (std::size_t i = 0; i < wls.size(); ++i) {
        auto const* wl = wls[i];
        f << "    {\"name\": " << json_string(wl->name) << ", \"title\": " << json_string(wl->title)
          << ", \"implemented\": " << (wl->implemented() ? "true" : "false");
        if (wl->implemented()) {
            f << ", \"params\": {";
            bool first = true;
            for (auto const& [k, v] : used.at(wl->name).all()) {
                f << (first ? "" : ", ") << json_string(k) << ": " << json_string(v);
                first = false;
            }
            f << "}";
            if (o.quick)
                f << ", \"quick_note\": " << json_string(wl->quick_note);
        }
        f << "}" << (i + 1 < wls.size() ? "," : "") << "\n";
    }
    f << "  ],\n  \"results\": [\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        auto const& r = results[i];
        f << "    {\"workload\": " << json_string(r.wl->name) << ", \"impl\": " << json_string(r.impl)
          << ", \"threads\": " << r.threads << ", \"status\": " << json_string(state_name(r.state))
          << ", \"note\": " << json_string(r.note) << ", \"metrics\": {";
        std::vector<metric> ms{r.wl->primary};
        ms.insert(ms.end(), r.wl->extras.begin(), r.wl->extras.end());
        bool first = true;
        for (auto const& m : ms) {
            if (auto s = summarize(r, m)) {
                f << (first ? "" : ", ") << json_string(m.label) << ": {\"median\": " << json_number(s->median)
                  << ", \"min\": " << json_number(s->min) << ", \"max\": " << json_number(s->max) << "}";
                first = false;
            }
        }
        f << "}, \"reps\": [";
        for (std::size_t j = 0; j < r.reps.size(); ++j) {
            f << (j ? ", " : "") << "{";
            bool first_field = true;
            for (auto const& [k, v] : r.reps[j]) {
                f << (first_field ? "" : ", ") << json_string(k) << ": ";
                char* end = nullptr;
                double d = std::strtod(v.c_str(), &end);
                if (end && *end == '\0' && !v.empty())
                    f << json_number(d);
                else
                    f << json_string(v);
                first_field = false;
            }
            f << "}";
        }
        f << "]}" << (i + 1 < results.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
}

std::string csv_field(std::string_view s)
{
    if (s.find_first_of(",\"\n") == std::string_view::npos)
        return std::string(s);
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void write_csv(std::string const& path, std::vector<run_result> const& results)
{
    std::ofstream f(path);
    if (!f)
        throw std::runtime_error("cannot write " + path);
    f << "workload,impl,threads,status,metric,median,min,max,reps,note\n";
    for (auto const& r : results) {
        std::vector<metric> ms{r.wl->primary};
        ms.insert(ms.end(), r.wl->extras.begin(), r.wl->extras.end());
        bool any = false;
        for (auto const& m : ms) {
            if (auto s = summarize(r, m)) {
                f << csv_field(r.wl->name) << ',' << r.impl << ',' << r.threads << ',' << state_name(r.state) << ','
                  << csv_field(m.label) << ',' << json_number(s->median) << ',' << json_number(s->min) << ','
                  << json_number(s->max) << ',' << s->n << ',' << csv_field(r.note) << '\n';
                any = true;
            }
        }
        if (!any)
            f << csv_field(r.wl->name) << ',' << r.impl << ',' << r.threads << ',' << state_name(r.state)
              << ",,,,,0," << csv_field(r.note) << '\n';
    }
}

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

// One PNG per workload: a cluster of bars per implementation, one bar per
// thread count, with the min-max range as an error bar.
void write_plots(std::string const& dir, std::vector<workload const*> const& wls,
                 std::vector<run_result> const& results, std::vector<std::size_t> const& threads, bool quick)
{
    if (!have_program("gnuplot")) {
        fmt::print(stderr, "note: gnuplot not found; --plots skipped\n");
        return;
    }
    fs::create_directories(dir);
    for (auto const* wl : wls) {
        if (!wl->implemented())
            continue;
        auto base = fs::path(dir) / std::string(wl->name);
        bool log_scale = false;
        {
            std::ofstream dat(base.string() + ".dat");
            dat << "# impl";
            for (auto t : threads)
                dat << " median_" << t << " min_" << t << " max_" << t;
            dat << '\n';
            bool any = false;
            double lo = 0, hi = 0; // smallest and largest positive median
            for (auto const& impl : implementations) {
                std::string row = std::string(impl.name);
                bool have = false;
                for (auto t : threads) {
                    // serial ran once; draw it at every thread count as a reference level
                    auto const* r = find_result(results, wl, impl.name,
                                                impl.name == "serial" ? std::nullopt : std::optional(t));
                    auto s = r ? summarize(*r, wl->primary) : std::nullopt;
                    row += s ? fmt::format(" {} {} {}", s->median, s->min, s->max) : " ? ? ?";
                    have = have || s.has_value();
                    if (s && s->median > 0) {
                        lo = lo == 0 ? s->median : std::min(lo, s->median);
                        hi = std::max(hi, s->median);
                    }
                }
                if (have) {
                    dat << row << '\n';
                    any = true;
                }
            }
            if (!any)
                continue;
            log_scale = lo > 0 && hi / lo > 30; // else the small bars vanish
        }
        // A gnuplot string in single quotes: a quote inside is written twice
        // (titles say "a scope's spawn").
        auto quoted = [](std::string_view text) {
            std::string out = "'";
            for (char c : text)
                out += c == '\'' ? std::string("''") : std::string(1, c);
            return out + "'";
        };
        std::ofstream gp(base.string() + ".gp");
        gp << "set terminal pngcairo size 1000,560 noenhanced font 'sans,10'\n"
           << "set output " << quoted(base.string() + ".png") << "\n"
           << "set title "
           << quoted(fmt::format("{}: {}{}", wl->name, wl->title, quick ? " [--quick sizes]" : "")) << "\n"
           << "set ylabel "
           << quoted(fmt::format("{}{} (median, bars: min-max; lower is better)", wl->primary.label,
                                 log_scale ? ", log scale" : ""))
           << "\n"
           << "set datafile missing '?'\nset style data histogram\n"
           << "set style histogram errorbars gap 1 lw 1\nset style fill solid 0.7 border -1\n"
           << "set grid ytics\nset key top left\nset xtics rotate by -20\n"
           << (log_scale ? "set logscale y\n" : "set yrange [0:*]\n")
           << "plot ";
        for (std::size_t i = 0; i < threads.size(); ++i) {
            auto c = 2 + 3 * i;
            gp << (i ? ", " : "") << "'" << base.string() << ".dat' using " << c << ":" << c + 1 << ":" << c + 2
               << (i == 0 ? ":xtic(1)" : "") << " title '" << threads[i] << (threads[i] == 1 ? " thread" : " threads")
               << "'";
        }
        gp << "\n";
        gp.close();
        auto cmd = fmt::format("gnuplot '{}.gp'", base.string());
        if (std::system(cmd.c_str()) != 0)
            fmt::print(stderr, "note: gnuplot failed for {}\n", wl->name);
    }
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------

std::string self_path()
{
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error("cannot find this executable via /proc/self/exe");
    return p.string();
}

// The rayon-bench binary, or "" (with the reason on stderr) when there is
// none: Rayon rows are then reported as n/a instead of failing the run.
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
               "      Build it in performance/rayon with `cargo build --release` (offline: add\n"
               "      `--offline --config debian-registry.toml`), run performance/run.sh, or pass\n"
               "      --rayon PATH.\n",
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
        }
        else
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

int driver_main(int argc, char** argv)
{
    options o = parse_options(argc, argv);
    std::string self = self_path();
    std::vector<fs::path> locks;
    std::string rayon;
    bool want_rayon = o.impls.empty() || std::count(o.impls.begin(), o.impls.end(), "rayon");
    if (want_rayon)
        rayon = find_rayon(o, self, locks);
    machine_info m = describe_machine(rayon, locks);
    if (!want_rayon)
        m.rayon = "not selected";

    // The selection, in registry order.
    std::vector<workload const*> wls;
    for (auto const& w : registry())
        if (o.workloads.empty() || std::count(o.workloads.begin(), o.workloads.end(), w.name))
            wls.push_back(&w);
    std::vector<std::string_view> impls;
    for (auto const& i : implementations)
        if (o.impls.empty() || std::count(o.impls.begin(), o.impls.end(), i.name))
            impls.push_back(i.name);

    std::map<std::string_view, params> used;
    std::vector<plan_item> plan;
    for (auto const* wl : wls) {
        if (!wl->implemented())
            continue;
        used[wl->name] = workload_params(*wl, o);
        int reps = o.reps.value_or(o.quick ? wl->reps_quick : wl->reps_full);
        // Thread count outer, implementation inner: the rows that are
        // compared with each other run close together in time.
        bool serial_done = false;
        for (auto t : o.threads)
            for (auto impl : impls) {
                if (impl == "serial") {
                    if (serial_done)
                        continue;
                    serial_done = true;
                }
                plan.push_back({wl, used[wl->name], std::string(impl), impl == "serial" ? 1 : t, reps, wl->warmup});
            }
    }

    fmt::print("Boost.ForkJoin benchmark, {}\n", m.date);
    fmt::print("machine:   {}, {} hardware threads, {}; load average {} at start\n", m.cpu, m.cores, m.os,
               m.load);
    fmt::print("compiler:  {}\n", m.compiler);
    fmt::print("peers:     {}\n", m.libraries);
    fmt::print("rayon:     {}\n", m.rayon);
    std::string threads_list;
    for (auto t : o.threads)
        threads_list += (threads_list.empty() ? "" : ",") + std::to_string(t);
    fmt::print("mode:      {}; threads {}; every run is a fresh process: warm-up, then the repetitions\n",
               o.quick ? "--quick (smoke test: fewer repetitions, reduced sizes where labelled)" : "full",
               threads_list);
    fmt::print("env:       {}\n", m.env.empty() ? std::string("no OMP_/GOMP_/KMP_/TBB_/RAYON_/FORKJOIN_ variables set") : m.env);
    if (m.load_1min >= 0.5 * m.cores)
        fmt::print("WARNING:   the machine was busy when the run started (load average {:.2f} on {} hardware\n"
                   "           threads): other processes compete for the cores, so expect noisy timings and\n"
                   "           cpu/wall below the thread count.\n",
                   m.load_1min, m.cores);
    std::fflush(stdout);

    bool tty = ::isatty(STDERR_FILENO);
    std::vector<run_result> results;
    auto t_start = wall_ns();
    for (std::size_t i = 0; i < plan.size(); ++i) {
        auto const& item = plan[i];
        fmt::print(stderr, "{}[{:>3}/{}] {:<16} {:<16} threads={:<3} reps={} ... ", tty ? "\r\033[K" : "", i + 1,
                   plan.size(), item.wl->name, item.impl, item.threads, item.reps);
        std::fflush(stderr);
        auto r = execute(item, self, rayon, o.timeout_s);
        fmt::print(stderr, "{} {:.1f} s{}", r.state == run_state::ok ? "ok" : state_name(r.state), r.seconds,
                   tty ? "" : "\n");
        std::fflush(stderr);
        results.push_back(std::move(r));
    }
    fmt::print(stderr, "{}done: {} runs in {:.1f} s\n", tty ? "\r\033[K" : "", plan.size(),
               double(wall_ns() - t_start) / 1e9);

    print_table(wls, results, used, o);
    fmt::print("\n{} runs in {:.1f} s\n", plan.size(), double(wall_ns() - t_start) / 1e9);

    if (!o.json.empty())
        write_json(o.json, m, o, wls, results, used);
    if (!o.csv.empty())
        write_csv(o.csv, results);
    if (!o.plots.empty())
        write_plots(o.plots, wls, results, o.threads, o.quick);

    bool failed = std::any_of(results.begin(), results.end(), [](auto const& r) { return r.state == run_state::failed; });
    return failed ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        if (argc > 1 && std::string_view(argv[1]) == "--child")
            return child_main(argc, argv);
        return driver_main(argc, argv);
    } catch (std::exception const& e) {
        fmt::print(stderr, "forkjoin_bench: {}\n", e.what());
        return 1;
    }
}
