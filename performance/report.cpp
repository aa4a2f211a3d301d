// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "report.hpp"

#include "implementations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace fs = std::filesystem;

namespace forkjoin_bench {

namespace {

std::string format_params(params const& p)
{
    std::string s;
    for (auto const& [k, v] : p.all())
        s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

std::string format_value(double v, int precision)
{
    return fmt::format("{:.{}f}", v, precision);
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

// An integer as JSON writes one: -?(0|[1-9][0-9]*).
bool is_json_integer(std::string_view s)
{
    if (!s.empty() && s[0] == '-')
        s.remove_prefix(1);
    return !s.empty() && (s == "0" || s[0] != '0') &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
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

} // namespace

void print_header(machine_info const& m, options const& o)
{
    fmt::print("Boost.ForkJoin benchmark, {}\n", m.date);
    fmt::print("machine:   {}, {} hardware threads, {}; load average {} at start\n", m.cpu, m.cores, m.os,
               m.load);
    fmt::print("compiler:  {}\n", m.compiler);
    fmt::print("peers:     {}\n", m.libraries);
    fmt::print("rayon:     {}\n", m.rayon);
    std::string threads_list;
    for (auto t : o.threads)
        threads_list += fmt::format("{}{}", threads_list.empty() ? "" : ",", t);
    fmt::print("mode:      {}; threads {}; every run is a fresh process: warm-up, then the repetitions;\n"
               "           the library's policies share one, interleaved, a fresh pool per repetition\n",
               o.quick ? "--quick (smoke test: fewer repetitions, reduced sizes where labelled)" : "full",
               threads_list);
    if (o.rounds > 1)
        fmt::print("rounds:    {}: the whole plan ran {} times over; each median is over the repetitions of all\n"
                   "           rounds, so that a drift in the machine's speed falls on every row alike\n",
                   o.rounds, o.rounds);
    fmt::print("env:       {}\n",
               m.env.empty() ? std::string("no OMP_/GOMP_/KMP_/TBB_/RAYON_/FORKJOIN_ variables set") : m.env);
    if (m.load_1min >= 0.5 * m.cores)
        fmt::print("WARNING:   the machine was busy when the run started (load average {:.2f} on {} hardware\n"
                   "           threads): other processes compete for the cores, so expect noisy timings and\n"
                   "           cpu/wall below the thread count.\n",
                   m.load_1min, m.cores);
    std::fflush(stdout);
}

void print_tables(std::vector<workload const*> const& wls, std::vector<run_result> const& results,
                  used_params const& used, check_references const& checks, options const& o)
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

        // As wide as the longest name of the table (forkjoin-lazy-slot), so
        // that every row's columns line up under the header.
        std::size_t name_width = std::string_view("implementation").size();
        for (auto const& r : results)
            if (r.wl == wl)
                name_width = std::max(name_width, r.impl.size());
        std::string head = fmt::format("   {:<{}} {:>3} {:>10} {:>21} {:>9} {:>9}", "implementation", name_width,
                                       "thr", wl->primary.label, "min - max", "vs serial", "vs rayon");
        for (auto const& e : wl->extras)
            head += fmt::format(" {:>11}", e.label);
        fmt::print("{}\n   {}\n", head, std::string(head.size() - 3, '-'));

        auto const* serial = wl->serial_reference ? find_result(results, wl, "serial", std::nullopt) : nullptr;
        for (auto const& r : results) {
            if (r.wl != wl)
                continue;
            std::string thr = r.impl == "serial" ? "-" : std::to_string(r.threads);
            std::string line = fmt::format("   {:<{}} {:>3} ", r.impl, name_width, thr);
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
            else if (r.state == run_state::wrong)
                line += "  WRONG RESULT: " + r.note;
            fmt::print("{}\n", line);
        }

        // Every implementation runs the same algorithm on the same data; a
        // `check` field (fib's value, nbody's position sum) proves it, and
        // check_results has failed the runs that computed something else.
        auto const ref = checks.find(wl);
        if (ref == checks.end())
            continue;
        std::map<std::string, std::vector<std::string>> computed;
        bool wrong = false;
        for (auto const& r : results)
            if (r.wl == wl && (r.state == run_state::ok || r.state == run_state::wrong) && !r.check.empty()) {
                computed[r.check].push_back(fmt::format("{}/{}", r.impl, r.threads));
                wrong = wrong || r.state == run_state::wrong;
            }
        if (!wrong) {
            fmt::print("   check: every implementation computed {}{}\n", ref->second.value,
                       wl->expected_check ? ", the known value" : "");
            continue;
        }
        fmt::print("   WRONG RESULT: {}:\n", computed.size() > 1 ? "implementations disagree on the result"
                                                                  : "every implementation computed the same");
        for (auto const& [v, who] : computed) {
            std::string names;
            for (auto const& w : who)
                names += (names.empty() ? "" : ", ") + w;
            fmt::print("     {} from {}{}\n", v, names,
                       ref->second.value.empty() || v == ref->second.value ? "" : "  (wrong)");
        }
        if (ref->second.value.empty())
            fmt::print("     right: unknown ({})\n", ref->second.source);
        else
            fmt::print("     right: {} ({})\n", ref->second.value, ref->second.source);
    }
}

void write_json(std::string const& path, machine_info const& machine, options const& o,
                std::vector<workload const*> const& wls, std::vector<run_result> const& results,
                used_params const& used, check_references const& checks)
{
    std::ofstream f(path);
    if (!f)
        throw std::runtime_error("cannot write " + path);
    f << "{\n  \"machine\": {" << "\"cpu\": " << json_string(machine.cpu) << ", \"cores\": " << machine.cores
      << ", \"os\": " << json_string(machine.os) << ", \"compiler\": " << json_string(machine.compiler)
      << ", \"libraries\": " << json_string(machine.libraries) << ", \"rayon\": " << json_string(machine.rayon)
      << ", \"load_average\": " << json_string(machine.load) << ", \"env\": " << json_string(machine.env) << ", \"date\": " << json_string(machine.date) << "},\n";
    f << "  \"mode\": " << json_string(o.quick ? "quick" : "full") << ",\n  \"rounds\": " << o.rounds
      << ",\n  \"workloads\": [\n";
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
            // The result every run should have computed, as text: a check
            // may be a 64-bit integer, which a JSON reader's double rounds.
            if (auto ref = checks.find(wl); ref != checks.end())
                f << ", \"check\": {\"expected\": "
                  << (ref->second.value.empty() ? std::string("null") : json_string(ref->second.value))
                  << ", \"from\": " << json_string(ref->second.source) << "}";
        }
        f << "}" << (i + 1 < wls.size() ? "," : "") << "\n";
    }
    f << "  ],\n  \"results\": [\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        auto const& r = results[i];
        f << "    {\"workload\": " << json_string(r.wl->name) << ", \"impl\": " << json_string(r.impl)
          << ", \"threads\": " << r.threads << ", \"status\": " << json_string(state_name(r.state))
          << ", \"note\": " << json_string(r.note) << ", \"check\": " << json_string(r.check)
          << ", \"metrics\": {";
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
                // An integer as printed, every digit (frame-loop's check is
                // a 64-bit XOR; through a double it lost its low bits),
                // another number as the shortest text of its double.
                char* end = nullptr;
                double d = std::strtod(v.c_str(), &end);
                if (is_json_integer(v))
                    f << v;
                else if (end && *end == '\0' && !v.empty())
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

void write_csv(std::string const& path, std::vector<run_result> const& results)
{
    std::ofstream f(path);
    if (!f)
        throw std::runtime_error("cannot write " + path);
    f << "workload,impl,threads,status,metric,median,min,max,reps,note,check\n";
    for (auto const& r : results) {
        std::vector<metric> ms{r.wl->primary};
        ms.insert(ms.end(), r.wl->extras.begin(), r.wl->extras.end());
        bool any = false;
        for (auto const& m : ms) {
            if (auto s = summarize(r, m)) {
                f << csv_field(r.wl->name) << ',' << r.impl << ',' << r.threads << ',' << state_name(r.state) << ','
                  << csv_field(m.label) << ',' << json_number(s->median) << ',' << json_number(s->min) << ','
                  << json_number(s->max) << ',' << s->n << ',' << csv_field(r.note) << ',' << csv_field(r.check)
                  << '\n';
                any = true;
            }
        }
        if (!any)
            f << csv_field(r.wl->name) << ',' << r.impl << ',' << r.threads << ',' << state_name(r.state)
              << ",,,,,0," << csv_field(r.note) << ',' << csv_field(r.check) << '\n';
    }
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

} // namespace forkjoin_bench
