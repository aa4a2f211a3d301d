// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The parallel algorithms against their std:: counterparts: random inputs of
// every awkward size, std's tie rules, order kept by the reductions and
// scans, exceptions, nesting, the global pool, every sleep policy. Results
// computed on pool threads are checked on the test's thread (Boost.Test is
// not thread-safe).

#define BOOST_TEST_MODULE algorithm
#include <boost/test/unit_test.hpp>

#include "policies.hpp"

#include <boost/forkjoin/algorithm.hpp>
#include <boost/forkjoin/future.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <ranges>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace fj = boost::forkjoin;

namespace {

// Sizes that end on every boundary the splitter, the lanes of the fold and
// the scan's blocks might get wrong; the largest is over a million (a tenth
// of that under the sanitizers, which slow each element thirtyfold).
std::vector<std::size_t> sizes()
{
    std::vector<std::size_t> s = {0, 1, 2, 3, 7, 16, 31, 64, 65, 1000, 1001, 16384, 16385, 65537};
    s.push_back(BOOST_FORKJOIN_TEST_SANITIZED ? 100'003 : 1'048'583);
    return s;
}

std::vector<long> random_values(std::size_t n, unsigned seed, long range)
{
    std::mt19937_64 rng(seed);
    std::vector<long> v(n);
    for (auto& x : v)
        x = static_cast<long>(rng() % static_cast<unsigned long>(range));
    return v;
}

constexpr std::array<std::size_t, 3> thread_counts = {1, 2, 4};

// The things compared, one bool per check, filled on a pool thread.
struct checks {
    std::vector<std::pair<std::string, bool>> items;
    void operator()(std::string what, bool ok) { items.emplace_back(std::move(what), ok); }
    void report(std::string const& where) const
    {
        for (auto const& [what, ok] : items)
            BOOST_TEST(ok, where << ": " << what);
    }
};

void compare_everything(std::vector<long> const& v, checks& check)
{
    std::size_t const n = v.size();
    auto const first = v.begin(), last = v.end();
    auto const is_odd = [](long x) { return x % 2 != 0; };

    check("reduce()", fj::reduce(first, last) == std::reduce(first, last));
    check("reduce(init)", fj::reduce(first, last, 7L) == std::reduce(first, last, 7L));
    check("reduce(init, op)", fj::reduce(first, last, 1L, std::bit_xor<>()) == std::reduce(first, last, 1L, std::bit_xor<>()));
    check("reduce(range)", fj::reduce(v) == std::reduce(first, last));
    check("reduce(range, init, op)",
          fj::reduce(v, 0L, [](long a, long b) { return a + b; }) == std::accumulate(first, last, 0L));
    check("transform_reduce unary",
          fj::transform_reduce(first, last, 0L, std::plus<>(), [](long x) { return x * x; }) ==
              std::transform_reduce(first, last, 0L, std::plus<>(), [](long x) { return x * x; }));
    check("transform_reduce inner product",
          fj::transform_reduce(first, last, first, 3L) == std::transform_reduce(first, last, first, 3L));
    check("transform_reduce binary",
          fj::transform_reduce(first, last, first, 0L, std::plus<>(), std::minus<>()) == 0);
    check("count", fj::count(first, last, 3L) == std::count(first, last, 3L));
    check("count(range)", fj::count(v, 3L) == std::count(first, last, 3L));
    check("count_if", fj::count_if(first, last, is_odd) == std::count_if(first, last, is_odd));

    std::vector<long> out(n), expected(n);
    fj::inclusive_scan(first, last, out.begin());
    std::inclusive_scan(first, last, expected.begin());
    check("inclusive_scan", out == expected);
    fj::inclusive_scan(v, out.begin(), std::plus<>(), 5L);
    std::inclusive_scan(first, last, expected.begin(), std::plus<>(), 5L);
    check("inclusive_scan(range, op, init)", out == expected);
    fj::exclusive_scan(first, last, out.begin(), 9L);
    std::exclusive_scan(first, last, expected.begin(), 9L);
    check("exclusive_scan", out == expected);
    std::vector<long> in_place = v;
    fj::exclusive_scan(in_place, in_place.begin(), 0L, std::bit_xor<>());
    std::exclusive_scan(first, last, expected.begin(), 0L, std::bit_xor<>());
    check("exclusive_scan in place", in_place == expected);
    in_place = v;
    fj::inclusive_scan(in_place.begin(), in_place.end(), in_place.begin());
    std::inclusive_scan(first, last, expected.begin());
    check("inclusive_scan in place", in_place == expected);

    check("find", fj::find(first, last, 5L) == std::find(first, last, 5L));
    check("find(range)", fj::find(v, 5L) == std::find(first, last, 5L));
    check("find absent", fj::find(first, last, -1L) == last);
    check("find_if", fj::find_if(first, last, is_odd) == std::find_if(first, last, is_odd));
    check("any_of", fj::any_of(first, last, is_odd) == std::any_of(first, last, is_odd));
    check("all_of", fj::all_of(v, is_odd) == std::all_of(first, last, is_odd));
    check("none_of", fj::none_of(first, last, is_odd) == std::none_of(first, last, is_odd));
    check("min_element", fj::min_element(first, last) == std::min_element(first, last));
    check("max_element", fj::max_element(v) == std::max_element(first, last));
    check("max_element(comp)",
          fj::max_element(first, last, std::greater<>()) == std::max_element(first, last, std::greater<>()));
    check("minmax_element", fj::minmax_element(first, last) == std::minmax_element(first, last));

    fj::transform(first, last, out.begin(), [](long x) { return 3 * x + 1; });
    std::transform(first, last, expected.begin(), [](long x) { return 3 * x + 1; });
    check("transform unary", out == expected);
    check("transform returns the output's end",
          fj::transform(v, v, out.begin(), std::plus<>()) == out.end());
    std::transform(first, last, first, expected.begin(), std::plus<>());
    check("transform binary (range forms)", out == expected);
    fj::fill(out, 42L);
    check("fill", std::all_of(out.begin(), out.end(), [](long x) { return x == 42; }));
    check("copy returns the output's end", fj::copy(first, last, out.begin()) == out.end());
    check("copy", out == v);
    fj::for_each(out, [](long& x) { x = -x; });
    check("for_each", std::equal(out.begin(), out.end(), first, [](long a, long b) { return a == -b; }));
    check("for_each_n returns first + n", fj::for_each_n(out.begin(), n / 2, [](long& x) { x = 0; }) ==
                                              out.begin() + static_cast<long>(n / 2));
    check("for_each_n", std::count(out.begin(), out.end(), 0L) >= static_cast<long>(n / 2));
}

} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(every_algorithm_matches_std_on_random_inputs, Policy, test::algorithm_pool_kinds)
{
    for (std::size_t threads : thread_counts) {
        test::pool<Policy> pool(test::threads(threads));
        for (std::size_t n : sizes()) {
            // A small range of values: ties, repeated matches and zeros.
            for (long range : {4L, 1000000L}) {
                auto const v = random_values(n, static_cast<unsigned>(n * 31 + threads), range);
                checks check;
                pool.install([&] { compare_everything(v, check); });
                check.report("threads " + std::to_string(threads) + ", n " + std::to_string(n) + ", values < " +
                             std::to_string(range));
            }
        }
    }
}

namespace {

// A 2x2 matrix product modulo 2^64: associative, not commutative.
using matrix = std::array<std::uint64_t, 4>;
matrix multiply(matrix const& a, matrix const& b)
{
    return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3]};
}

} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(reductions_and_scans_keep_the_order_of_the_elements, Policy, test::algorithm_policies)
{
    test::pool<Policy> pool(test::threads(4));
    std::size_t const n = 200'001;
    std::vector<matrix> matrices(n);
    std::mt19937_64 rng(5);
    for (auto& m : matrices)
        m = {rng(), rng(), rng(), rng()};
    std::vector<std::string> words(5'001);
    for (std::size_t i = 0; i < words.size(); ++i)
        words[i] = std::to_string(i) + ",";

    matrix const identity = {1, 0, 0, 1};
    auto const mul = [](matrix const& a, matrix const& b) { return multiply(a, b); };
    matrix const serial_product = std::accumulate(matrices.begin(), matrices.end(), identity, mul);
    std::string const serial_text = std::accumulate(words.begin(), words.end(), std::string("<"));
    std::vector<matrix> serial_scan(n);
    std::inclusive_scan(matrices.begin(), matrices.end(), serial_scan.begin(), mul);
    std::vector<std::string> serial_prefixes(words.size());
    std::exclusive_scan(words.begin(), words.end(), serial_prefixes.begin(), std::string(), std::plus<>());

    std::vector<matrix> scan(n);
    std::vector<std::string> prefixes(words.size());
    auto const [product, text, transformed] = pool.install([&] {
        fj::inclusive_scan(matrices, scan.begin(), mul);
        fj::exclusive_scan(words.begin(), words.end(), prefixes.begin(), std::string(), std::plus<>());
        return std::tuple(fj::reduce(matrices, identity, mul), fj::reduce(words, std::string("<"), std::plus<>()),
                          fj::transform_reduce(words.begin(), words.end(), std::string(), std::plus<>(),
                                               [](std::string const& w) { return w + w; }));
    });
    BOOST_TEST((product == serial_product));
    BOOST_TEST(text == serial_text);
    std::string doubled;
    for (auto const& w : words)
        doubled += w + w;
    BOOST_TEST(transformed == doubled);
    BOOST_TEST((scan == serial_scan));
    BOOST_TEST((prefixes == serial_prefixes));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ties_follow_std, Policy, test::algorithm_policies)
{
    test::pool<Policy> pool(test::threads(4));
    // Values equal on their key, told apart by their position.
    struct item {
        int key;
        std::size_t position;
    };
    std::size_t const n = 300'007;
    std::vector<item> items(n);
    for (std::size_t i = 0; i < n; ++i)
        items[i] = {static_cast<int>(i % 3), i};
    auto const by_key = [](item const& a, item const& b) { return a.key < b.key; };
    auto const [least, greatest, both, match] = pool.install([&] {
        return std::tuple(fj::min_element(items, by_key), fj::max_element(items.begin(), items.end(), by_key),
                          fj::minmax_element(items, by_key),
                          fj::find_if(items, [](item const& x) { return x.key == 2 && x.position > 1000; }));
    });
    BOOST_TEST(least->position == std::min_element(items.begin(), items.end(), by_key)->position);
    BOOST_TEST(greatest->position == std::max_element(items.begin(), items.end(), by_key)->position);
    auto const [std_least, std_greatest] = std::minmax_element(items.begin(), items.end(), by_key);
    BOOST_TEST(both.first->position == std_least->position);   // the first smallest
    BOOST_TEST(both.second->position == std_greatest->position); // the last largest
    BOOST_TEST(both.second->position == n - 2);
    BOOST_TEST(match->position == 1001);
}

BOOST_AUTO_TEST_CASE(range_forms_take_iota_and_return_dangling_for_temporaries)
{
    long const n = 1'000'000;
    BOOST_TEST(fj::reduce(std::views::iota(0L, n)) == n * (n - 1) / 2);
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
    fj::for_each(std::views::iota(0L, n), [&](long i) { hits[static_cast<std::size_t>(i)].fetch_add(1); });
    BOOST_TEST(std::all_of(hits.begin(), hits.end(), [](auto const& h) { return h.load() == 1; }));
    BOOST_TEST(*fj::find_if(std::views::iota(0, 100), [](int i) { return i * i > 50; }) == 8);
    static_assert(std::is_same_v<decltype(fj::find(std::vector<int>{1, 2}, 2)), std::ranges::dangling>);
    static_assert(std::is_same_v<decltype(fj::min_element(std::span<int>())), std::span<int>::iterator>);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_grain_of_the_whole_range_runs_it_as_one_piece, Policy, test::algorithm_policies)
{
    test::pool<Policy> pool(test::threads(4));
    std::size_t const n = 100'000;
    std::vector<std::size_t> where(n);
    auto const ran_on_one_thread = pool.install([&] {
        fj::for_each(fj::grain{n}, std::views::iota(std::size_t{0}, n),
                     [&](std::size_t i) { where[i] = *fj::current_thread_index(); });
        return std::all_of(where.begin(), where.end(), [&](std::size_t w) { return w == where[0]; });
    });
    BOOST_TEST(ran_on_one_thread);
    // grain{0} is grain{1}; a grain larger than the range is one piece too.
    std::vector<long> v(1000, 1);
    BOOST_TEST(pool.install([&] { return fj::reduce(fj::grain{0}, v); }) == 1000);
    BOOST_TEST(pool.install([&] { return fj::count(fj::grain{1'000'000}, v.begin(), v.end(), 1L); }) == 1000);
}

// The splitter cuts a range only where a part of it is stolen; a piece it
// no longer cuts is cut between two of its chunks when another worker runs
// dry (detail/algorithm/splitter.hpp, piece_chunks). Here the other worker
// is kept busy until the loop's thread starts its last piece, then goes
// idle: elements of that piece must then run on the other worker too.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_running_piece_is_cut_for_a_worker_that_ran_dry, Policy, test::algorithm_pool_kinds)
{
    test::pool<Policy> pool(test::threads(2));
    // With two threads and nothing stolen, the loop's thread runs the
    // pieces [0, 16), [16, 32), [32, 48) and [48, 64), in that order.
    constexpr std::size_t n = 64, last_piece = 48;
    std::vector<std::size_t> where(n, n);
    std::atomic<bool> last_piece_started{false};
    pool.install([&] {
        // b, pushed first, is the one job the idle worker finds to steal;
        // it holds that worker until the last piece starts.
        fj::join(
            [&] {
                fj::for_each(std::views::iota(std::size_t{0}, n), [&](std::size_t i) {
                    where[i] = *fj::current_thread_index();
                    if (i >= last_piece)
                        last_piece_started.store(true);
                    // Time for the other worker to go idle and to steal.
                    std::this_thread::sleep_for(std::chrono::milliseconds(3));
                });
            },
            [&] {
                while (!last_piece_started.load())
                    std::this_thread::yield();
            });
    });
    BOOST_TEST(std::none_of(where.begin(), where.end(), [&](std::size_t w) { return w == n; }));
    BOOST_TEST(std::any_of(where.begin() + last_piece, where.end(), [&](std::size_t w) { return w != where[0]; }));
}

namespace {

struct element_error : std::runtime_error {
    element_error() : std::runtime_error("element") {}
};

// Keeps worker 1 of a pool of two busy until released, so that worker 0
// runs every piece itself, deterministically: then an exception in the
// first piece must leave every other piece unstarted.
template <class Pool>
class occupied_second_worker {
public:
    explicit occupied_second_worker(Pool& pool)
    {
        pool.spawn([this] {
            started_.store(true);
            while (!released_.load())
                std::this_thread::yield();
            done_.store(true);
        });
        while (!started_.load())
            std::this_thread::yield();
    }
    ~occupied_second_worker()
    {
        released_.store(true);
        while (!done_.load())
            std::this_thread::yield();
    }

private:
    std::atomic<bool> started_{false}, released_{false}, done_{false};
};

} // namespace

// A scan's block waits a little for what precedes it, then leaves itself to
// whoever brings that (detail/algorithm/chained_scan.hpp). Waiting for ever
// would deadlock here: with worker 1 busy, the operation, at an element of
// block 0, runs the pool's other claimant on worker 0's own stack (a wait
// inside the pool can do that), which claims every later block while block
// 0 sits unfinished below it. Then an operation that runs parallel work on
// every thousandth element.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_scan_whose_operation_works_inside_the_pool_completes, Policy, test::algorithm_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::size_t const n = 300'007; // 17 blocks of longs at two threads, the last one short
    std::vector<long> const v = random_values(n, 17, 1000);
    std::vector<long> expected(n), out(n);
    std::inclusive_scan(v.begin(), v.end(), expected.begin());
    {
        occupied_second_worker<test::pool<Policy>> busy(pool);
        std::size_t ran_inside = 0;
        pool.install([&] {
            fj::inclusive_scan(v.begin(), v.end(), out.begin(), [&](long a, long const& b) {
                if (&b == &v[100])
                    while (fj::yield_local() == fj::yield_result::executed)
                        ++ran_inside;
                return a + b;
            });
        });
        BOOST_TEST(ran_inside == 1u); // the other claimant, which found every block claimed when it ended
        BOOST_TEST((out == expected));
    }
    std::vector<long> const small(5000, 1);
    std::atomic<long> nested_sums{0};
    pool.install([&] {
        fj::inclusive_scan(v.begin(), v.end(), out.begin(), [&](long a, long const& b) {
            if (b == 7)
                nested_sums.fetch_add(fj::reduce(small.begin(), small.end(), 0L), std::memory_order_relaxed);
            return a + b;
        });
    });
    BOOST_TEST((out == expected));
    BOOST_TEST(nested_sums.load() > 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(an_exception_reaches_the_caller_and_stops_the_pieces_not_started, Policy,
                              test::algorithm_policies)
{
    std::size_t const n = 64 * 1024;
    std::vector<long> v(n, 1);
    test::pool<Policy> pool(test::threads(2));
    std::atomic<std::size_t> calls{0};
    auto const throw_at_0 = [&](long const& x) {
        calls.fetch_add(1);
        if (&x == v.data())
            throw element_error();
    };
    {
        // Worker 1 busy: worker 0 cuts 64 pieces and the first one throws.
        occupied_second_worker<test::pool<Policy>> busy(pool);
        BOOST_CHECK_THROW(pool.install([&] { fj::for_each(fj::grain{1024}, v, throw_at_0); }), element_error);
        BOOST_TEST(calls.load() == 1u);
    }
    // Both workers free: every algorithm passes its element function's,
    // operation's or comparator's exception on, and the pool still works.
    // The functions throw on the value 2, which stands at many places: a
    // reduction may never pass a given element to its operation (the first
    // element of a piece starts the piece's fold).
    std::vector<long> w(n, 1);
    for (std::size_t i = 999; i < n; i += 1000)
        w[i] = 2;
    auto const at_half = [](long const& x) { return x == 2; };
    BOOST_CHECK_THROW(pool.install([&] { fj::for_each(v, throw_at_0); }), element_error);
    BOOST_CHECK_THROW(fj::reduce(w.begin(), w.end(), 0L,
                                 [&](long a, long const& b) {
                                     if (at_half(b))
                                         throw element_error();
                                     return a + b;
                                 }),
                      element_error);
    std::vector<long> out(n);
    BOOST_CHECK_THROW(pool.install([&] {
                          fj::inclusive_scan(w.begin(), w.end(), out.begin(), [&](long a, long const& b) {
                              if (at_half(b))
                                  throw element_error();
                              return a + b;
                          });
                      }),
                      element_error);
    BOOST_CHECK_THROW(pool.install([&] {
                          return fj::find_if(w, [&](long const& x) -> bool {
                              if (at_half(x))
                                  throw element_error();
                              return false;
                          });
                      }),
                      element_error);
    BOOST_CHECK_THROW(pool.install([&] {
                          return fj::min_element(w, [&](long const& a, long const& b) {
                              if (at_half(a) || at_half(b))
                                  throw element_error();
                              return a < b;
                          });
                      }),
                      element_error);
    BOOST_CHECK_THROW(pool.install([&] {
                          return fj::transform(w, out.begin(), [&](long const& x) {
                              if (at_half(x))
                                  throw element_error();
                              return x;
                          });
                      }),
                      element_error);
    BOOST_TEST(pool.install([&] { return fj::reduce(v); }) == static_cast<long>(n));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(find_if_searches_blocks_in_index_order_and_stops_after_a_match, Policy,
                              test::algorithm_policies)
{
    std::size_t const n = 4'000'000;
    std::vector<int> v(n, 0);
    v[10] = 1;
    v[3'000'000] = 1;
    auto const counted_search = [&](auto& pool, std::atomic<std::size_t>& tested) {
        return pool.install([&] {
            return fj::find_if(v, [&](int x) {
                tested.fetch_add(1, std::memory_order_relaxed);
                return x == 1;
            });
        });
    };
    {
        // One thread searching (worker 1 busy): the blocks go in index
        // order, and the search ends at the match, as a serial search would.
        test::pool<Policy> pool(test::threads(2));
        occupied_second_worker<test::pool<Policy>> busy(pool);
        std::atomic<std::size_t> tested{0};
        BOOST_TEST(static_cast<std::size_t>(counted_search(pool, tested) - v.begin()) == 10u);
        BOOST_TEST(tested.load() == 11u);
    }
    for (std::size_t threads : thread_counts) {
        // Every thread searching: each stops once it sees the match, within
        // a block (16 Ki elements) when the threads run at one speed. The
        // bound checked is looser, so that a thread descheduled on a busy
        // machine cannot fail it: the search did not go on to the end.
        test::pool<Policy> pool(test::threads(threads));
        std::atomic<std::size_t> tested{0};
        BOOST_TEST(static_cast<std::size_t>(counted_search(pool, tested) - v.begin()) == 10u);
        BOOST_TEST(tested.load() < n / 2, tested.load() << " tested, threads " << threads);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(algorithms_nest_and_run_inside_scopes_spawns_and_futures, Policy, test::algorithm_policies)
{
    test::pool<Policy> pool(test::threads(3));
    std::size_t const rows = 64, columns = 10'000;
    std::vector<std::vector<long>> table(rows);
    for (std::size_t r = 0; r < rows; ++r)
        table[r] = random_values(columns, static_cast<unsigned>(r), 1000);
    std::vector<long> row_sums(rows);
    auto const expected_sum = [&](std::size_t r) { return std::accumulate(table[r].begin(), table[r].end(), 0L); };

    // An algorithm inside another's element function.
    pool.install([&] {
        fj::for_each(std::views::iota(std::size_t{0}, rows),
                     [&](std::size_t r) { row_sums[r] = fj::reduce(table[r]); });
    });
    bool nested_ok = true;
    for (std::size_t r = 0; r < rows; ++r)
        nested_ok = nested_ok && row_sums[r] == expected_sum(r);
    BOOST_TEST(nested_ok);

    // Inside a scope's spawns.
    std::vector<long> maxima(rows);
    pool.scope([&](auto& s) {
        for (std::size_t r = 0; r < rows; ++r)
            s.spawn([&, r](auto&) { maxima[r] = *fj::max_element(table[r]); });
    });
    bool scope_ok = true;
    for (std::size_t r = 0; r < rows; ++r)
        scope_ok = scope_ok && maxima[r] == *std::max_element(table[r].begin(), table[r].end());
    BOOST_TEST(scope_ok);

    // Inside a future's task, which awaits another future meanwhile.
    auto counted = pool.spawn_future([&] {
        auto inner = pool.spawn_future([&] { return fj::count_if(table[0], [](long x) { return x < 500; }); });
        std::vector<long> scanned(columns);
        fj::inclusive_scan(table[1], scanned.begin());
        return inner.get() + scanned.back();
    });
    BOOST_TEST(counted.get() == std::count_if(table[0].begin(), table[0].end(), [](long x) { return x < 500; }) +
                                    expected_sum(1));
}

BOOST_AUTO_TEST_CASE(outside_every_pool_the_global_pool_runs_them)
{
    std::vector<int> v(200'000, 1);
    std::atomic<bool> on_a_worker{true};
    fj::for_each(v, [&](int) {
        if (!fj::current_thread_index())
            on_a_worker.store(false);
    });
    BOOST_TEST(on_a_worker.load());
    BOOST_TEST(fj::reduce(v) == 200'000);
}
