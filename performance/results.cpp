// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "results.hpp"

#include <boost/forkjoin/policy_benchmark.hpp>

#include <cstdlib>
#include <sstream>

namespace forkjoin_bench {

std::string state_name(run_state s)
{
    return s == run_state::ok ? "ok" : s == run_state::skipped ? "skipped" : "failed";
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

run_result const* find_result(std::vector<run_result> const& all, workload const* wl, std::string_view impl,
                              std::optional<std::size_t> threads)
{
    for (auto const& r : all)
        if (r.wl == wl && r.impl == impl && (!threads || r.threads == *threads))
            return &r;
    return nullptr;
}

} // namespace forkjoin_bench
