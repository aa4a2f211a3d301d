// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "results.hpp"

#include <boost/forkjoin/policy_benchmark.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace forkjoin_bench {

std::string state_name(run_state s)
{
    return s == run_state::ok        ? "ok"
           : s == run_state::skipped ? "skipped"
           : s == run_state::wrong   ? "wrong result"
                                     : "failed";
}

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

std::optional<summary> summarize(run_result const& r, metric const& m)
{
    std::vector<double> v;
    for (auto const& s : r.reps)
        if (auto x = metric_value(s, m))
            v.push_back(*x);
    if (v.empty())
        return std::nullopt;
    // The library's bake-off statistics, so that both report the same median.
    auto const s = boost::forkjoin::benchmark_cell::summarize(v);
    return summary{s.median, s.min, s.max, v.size()};
}

std::string check_key(std::string_view text)
{
    auto const digits = text.substr(!text.empty() && text[0] == '-' ? 1 : 0);
    if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::string(text);
    std::string const s(text);
    char* end = nullptr;
    double const v = std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size())
        return fmt::format("{}", v); // shortest round trip: one text per double
    return s;
}

std::map<workload const*, check_reference> check_results(std::vector<run_result>& results, used_params const& used)
{
    std::map<workload const*, check_reference> refs;
    for (auto& r : results) {
        std::vector<std::string> seen;
        for (auto const& s : r.reps)
            if (auto c = s.find("check"); c != s.end())
                if (auto k = check_key(c->second); std::find(seen.begin(), seen.end(), k) == seen.end())
                    seen.push_back(k);
        r.check.clear();
        for (auto const& k : seen)
            r.check += (r.check.empty() ? "" : " ") + k;
        if (r.state == run_state::ok && !r.check.empty())
            refs[r.wl]; // this workload has checks to judge
    }
    for (auto& [wl, ref] : refs) {
        // The runs that completed and printed a check; a run whose
        // repetitions disagree (a space in its check) votes for nothing.
        std::vector<run_result*> runs;
        for (auto& r : results)
            if (r.wl == wl && r.state == run_state::ok && !r.check.empty())
                runs.push_back(&r);
        auto const consistent = [](run_result const* r) { return r->check.find(' ') == std::string::npos; };
        if (wl->expected_check) {
            ref = {check_key(wl->expected_check(used.at(wl->name))), "the known value"};
        } else if (auto s = std::find_if(runs.begin(), runs.end(),
                                         [&](auto* r) { return r->impl == "serial" && consistent(r); });
                   s != runs.end()) {
            ref = {(*s)->check, "the serial run's"};
        } else {
            std::map<std::string, std::size_t> votes;
            for (auto const* r : runs)
                if (consistent(r))
                    ++votes[r->check];
            std::size_t best = 0, ties = 0;
            for (auto const& [v, n] : votes) {
                if (n > best) {
                    best = n;
                    ties = 0;
                    ref = {v, votes.size() == 1 ? "every run's" : fmt::format("that of {} of {} runs", n, runs.size())};
                } else if (n == best)
                    ++ties;
            }
            if (best == 0 || ties > 0)
                ref = {"", "no serial run, and no result more runs computed than any other"};
        }
        for (auto* r : runs)
            if (r->check != ref.value) {
                r->state = run_state::wrong;
                r->note = ref.value.empty()
                              ? fmt::format("computed {}; the runs disagree and none is known to be right", r->check)
                              : fmt::format("computed {}, not {} ({})", r->check, ref.value, ref.source);
            }
    }
    return refs;
}

run_result const* find_result(std::vector<run_result> const& all, workload const* wl, std::string_view impl,
                              std::optional<std::size_t> threads)
{
    for (auto const& r : all)
        if (r.wl == wl && r.impl == impl && (!threads || r.threads == *threads))
            return &r;
    return nullptr;
}

} // namespace forkjoin_bench
