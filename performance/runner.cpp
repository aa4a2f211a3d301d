// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "runner.hpp"

#include "implementations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace forkjoin_bench {

namespace {

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
    // Clamped before the conversion: a double past 2^64 (or a NaN) converted
    // to an integer is undefined behaviour, in practice a deadline in the
    // past that kills every child at once. parse_options caps --timeout far
    // below that; 1e18 ns (31 years) keeps start + budget in range anyway.
    double const budget_ns = timeout_s * 1e9;
    auto deadline = start + (budget_ns > 0 ? std::uint64_t(std::min(budget_ns, 1e18)) : 0);
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

std::string join_names(std::vector<std::string> const& names)
{
    std::string s;
    for (auto const& n : names)
        s += (s.empty() ? "" : ",") + n;
    return s;
}

// Runs one item; one result per implementation of the item.
std::vector<run_result> execute(plan_item const& item, std::string const& self, std::string const& rayon,
                                double timeout_s)
{
    std::vector<run_result> results;
    for (auto const& impl : item.impls)
        results.push_back({item.wl, impl, item.threads, run_state::failed, {}, {}, 0.0});
    auto const find = [&](std::string_view impl) -> run_result* {
        for (auto& r : results)
            if (r.impl == impl)
                return &r;
        return nullptr;
    };

    std::string const& impl = item.impls.front();
    // The lazy rows run the library-only workloads too: their joins differ.
    bool const lazy_row = impl == "forkjoin-lazy" || impl == "forkjoin-lazy-slot";
    if (!item.wl->forkjoin_only.empty() && !is_forkjoin(impl) && !lazy_row) {
        results[0].state = run_state::skipped;
        results[0].note =
            impl == "forkjoin-main" || impl == "forkjoin-slot"
                ? std::string("measured on the policy rows: this workload runs inside the pool either way")
                : fmt::format("Boost.ForkJoin only: {}", item.wl->forkjoin_only);
        return results;
    }
    if (impl == "std-par" && !is_algorithm_kernel(item.wl->kernel)) {
        results[0].state = run_state::skipped;
        results[0].note = std::string(not_an_algorithm);
        return results;
    }
    std::vector<std::string> args;
    if (impl == "rayon") {
        if (rayon.empty()) {
            results[0].state = run_state::skipped;
            results[0].note = "no rayon-bench binary (see the note at the start)";
            return results;
        }
        args = {rayon, std::string(item.wl->kernel)};
    } else {
        args = {self, "--child", join_names(item.impls), std::string(item.wl->kernel)};
    }
    for (auto const& a : {std::string("--threads"), std::to_string(item.threads), std::string("--reps"),
                          std::to_string(item.reps), std::string("--warmup"), std::to_string(item.warmup)})
        args.push_back(a);
    for (auto const& [k, v] : item.args.all()) {
        args.push_back("--param");
        args.push_back(k + "=" + v);
    }

    // The library's policies share the child: each gets the timeout.
    double const timeout = timeout_s * double(item.impls.size());
    auto out = run_child(args, timeout);
    // Lines belong to the implementation named by the last `impl NAME` line
    // (a child running one implementation prints none).
    run_result* current = &results[0];
    for (auto const& line : out.lines) {
        if (line.rfind("impl ", 0) == 0) {
            if (run_result* r = find(std::string_view(line).substr(5)))
                current = r;
        } else if (line.rfind("rep ", 0) == 0) {
            current->reps.push_back(parse_fields(std::string_view(line).substr(4)));
        } else if (line.rfind("skip ", 0) == 0) {
            current->state = run_state::skipped;
            current->note = line.substr(5);
        } else if (line.rfind("pool ", 0) == 0) {
            // The harness's pool_stats deltas of one repetition, added to its
            // fields as pool_<counter>.
            sample fields = parse_fields(std::string_view(line).substr(5));
            run_result* r = find(fields["impl"]);
            auto const rep = field(fields, "rep");
            if (r != nullptr && rep && *rep >= 0 && std::size_t(*rep) < r->reps.size())
                for (auto const& [k, v] : fields)
                    if (k != "impl" && k != "rep")
                        r->reps[std::size_t(*rep)]["pool_" + k] = v;
        }
    }
    for (auto& r : results) {
        r.seconds = out.seconds;
        if (r.state == run_state::skipped)
            continue;
        // A run fails if it did not exit cleanly, even after reporting every
        // repetition: a pool that hangs or crashes on shutdown is a bug the
        // smoke test must catch. What it did report is still shown.
        if (out.timed_out)
            r.note = fmt::format("timed out after {:.0f} s ({} of {} reps done)", timeout, r.reps.size(), item.reps);
        else if (out.signal != 0)
            r.note = fmt::format("killed by signal {} ({})", out.signal, strsignal(out.signal));
        else if (out.exit_code != 0)
            r.note = fmt::format("exited with status {}", out.exit_code);
        else if (r.reps.size() != std::size_t(item.reps))
            r.note = fmt::format("only {} of {} reps reported", r.reps.size(), item.reps);
        r.state = r.note.empty() ? run_state::ok : run_state::failed;
    }
    return results;
}

} // namespace

params workload_params(workload const& wl, options const& o)
{
    params p;
    for (auto const& [k, v] : o.quick ? wl.quick : wl.full)
        p.set(std::string(k), std::string(v));
    for (auto const& [name, kv] : o.overrides)
        if (name == wl.name)
            p.set(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
    return p;
}

std::vector<plan_item> build_plan(options const& o, std::vector<workload const*> const& wls,
                                  std::vector<std::string_view> const& impls,
                                  std::map<std::string_view, params> const& used)
{
    std::vector<plan_item> plan;
    for (auto const* wl : wls) {
        if (!wl->implemented())
            continue;
        int reps = o.reps.value_or(o.quick ? wl->reps_quick : wl->reps_full);
        bool serial_done = false;
        for (auto t : o.threads) {
            bool forkjoin_done = false;
            for (auto impl : impls) {
                if (impl == "serial") {
                    if (serial_done)
                        continue;
                    serial_done = true;
                }
                plan_item item{wl, used.at(wl->name), {std::string(impl)}, impl == "serial" ? 1 : t, reps, wl->warmup};
                if (is_forkjoin(impl)) {
                    if (forkjoin_done)
                        continue;
                    forkjoin_done = true;
                    item.impls.clear();
                    for (auto other : impls)
                        if (is_forkjoin(other))
                            item.impls.emplace_back(other);
                }
                plan.push_back(std::move(item));
            }
        }
    }
    return plan;
}

std::vector<run_result> run_plan(std::vector<plan_item> const& plan, std::string const& self, std::string const& rayon,
                                 double timeout_s, int rounds)
{
    bool const tty = ::isatty(STDERR_FILENO);
    std::vector<run_result> results;
    auto const t_start = wall_ns();
    // The progress lines' name columns, as wide as the plan's longest
    // names (increment-all-inside, forkjoin-lazy-slot), as in the tables.
    auto const label_of = [](plan_item const& item) {
        return item.impls.size() > 1 ? fmt::format("forkjoin x{}", item.impls.size()) : item.impls.front();
    };
    std::size_t workload_width = 0, label_width = 0;
    for (auto const& item : plan) {
        workload_width = std::max(workload_width, item.wl->name.size());
        label_width = std::max(label_width, label_of(item).size());
    }
    for (int round = 0; round < rounds; ++round) {
        std::size_t next = 0; // the first result of the current item
        for (std::size_t i = 0; i < plan.size(); ++i) {
            auto const& item = plan[i];
            std::string const of_rounds = rounds > 1 ? fmt::format(" round {}/{}", round + 1, rounds) : "";
            fmt::print(stderr, "{}[{:>3}/{}]{} {:<{}} {:<{}} threads={:<3} reps={} ... ", tty ? "\r\033[K" : "",
                       i + 1, plan.size(), of_rounds, item.wl->name, workload_width, label_of(item), label_width,
                       item.threads, item.reps);
            std::fflush(stderr);
            auto rs = execute(item, self, rayon, timeout_s);
            auto const bad =
                std::find_if(rs.begin(), rs.end(), [](auto const& r) { return r.state != run_state::ok; });
            fmt::print(stderr, "{} {:.1f} s{}", bad == rs.end() ? "ok" : state_name(bad->state), rs.front().seconds,
                       tty ? "" : "\n");
            std::fflush(stderr);
            if (round == 0) {
                for (auto& r : rs)
                    results.push_back(std::move(r));
                continue;
            }
            // A later round adds its repetitions to the first round's
            // result; a row that failed or was skipped in any round keeps
            // that state and its note.
            for (std::size_t k = 0; k < rs.size(); ++k) {
                run_result& r = results[next + k];
                r.seconds += rs[k].seconds;
                r.reps.insert(r.reps.end(), std::make_move_iterator(rs[k].reps.begin()),
                              std::make_move_iterator(rs[k].reps.end()));
                if (r.state == run_state::ok && rs[k].state != run_state::ok) {
                    r.state = rs[k].state;
                    r.note = fmt::format("round {}: {}", round + 1, rs[k].note);
                }
            }
            next += rs.size();
        }
    }
    fmt::print(stderr, "{}done: {} child processes in {:.1f} s\n", tty ? "\r\033[K" : "", plan.size() * rounds,
               double(wall_ns() - t_start) / 1e9);
    return results;
}

} // namespace forkjoin_bench
