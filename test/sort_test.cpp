// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// fj::sort and fj::stable_sort against std::sort and std::stable_sort: random
// inputs of every size class (empty to past the parallel partition's and the
// merge's thresholds), the patterns pdqsort treats specially, comparators,
// stability, move-only and non-trivial values, a throwing comparator, the
// stable sort's fallback without a buffer, nesting, and every sleep policy
// on pools of 1, 2 and 4 threads. Comparators run on pool threads, so they
// only record; every check is made here, on the main thread.

#define BOOST_TEST_MODULE sort
#include <boost/test/unit_test.hpp>

#include "policies.hpp"
#include "watchdog.hpp"

#include <boost/forkjoin/algorithm/sort.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fj = boost::forkjoin;

namespace {

// Sizes: the trivial ones, around the insertion sort's leaf (24), the sort
// leaf (2048), the parallel partition's smallest range (32768), and one
// past a million, where every level of parallelism is in play. Under the
// sanitizers, which run ten times slower, the large size is a quarter
// (still past every threshold), to stay within test/run.sh's time limit.
std::vector<std::size_t> const sizes = {0, 1, 2, 3, 7, 23, 24, 25, 100, 1001, 2048, 2049, 40'000, 100'003};
// Under the sanitizers (ten times slower) the sizes shrink, and stay above
// the sizes at which the sorts split their work.
std::size_t const large_size = BOOST_FORKJOIN_TEST_SANITIZED ? 200'001 : 1'200'001;
std::size_t const medium_size = BOOST_FORKJOIN_TEST_SANITIZED ? 60'000 : 300'000;

std::vector<int> random_ints(std::size_t n, int distinct, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(0, distinct - 1);
    std::vector<int> v(n);
    for (int& x : v)
        x = dist(rng);
    return v;
}

// The inputs pdqsort treats specially, and some it must not be fooled by.
std::vector<std::pair<char const*, std::vector<int>>> patterns(std::size_t n)
{
    std::vector<std::pair<char const*, std::vector<int>>> out;
    auto add = [&](char const* name, auto f) {
        std::vector<int> v(n);
        for (std::size_t i = 0; i < n; ++i)
            v[i] = f(static_cast<int>(i), static_cast<int>(n));
        out.emplace_back(name, std::move(v));
    };
    add("sorted", [](int i, int) { return i; });
    add("reversed", [](int i, int n) { return n - i; });
    add("all equal", [](int, int) { return 7; });
    add("organ pipe", [](int i, int n) { return i < n / 2 ? i : n - i; });
    add("few distinct", [](int i, int) { return (i % 1000) * 7919 % 5; });
    add("sawtooth", [](int i, int) { return i % 1000; });
    add("sorted, then one out of place", [](int i, int n) { return i == n / 3 ? -1 : i; });
    add("reversed halves", [](int i, int n) { return i < n / 2 ? n / 2 - i : n - i; });
    return out;
}

struct keyed {
    int key;
    int index; // where it started: equal keys must keep this order under stable_sort
    auto operator<=>(keyed const&) const = default;
};

auto const by_key = [](keyed const& a, keyed const& b) { return a.key < b.key; };

std::vector<keyed> random_keyed(std::size_t n, int distinct, unsigned seed)
{
    std::vector<int> const keys = random_ints(n, distinct, seed);
    std::vector<keyed> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = {keys[i], static_cast<int>(i)};
    return v;
}

struct comparator_error : std::runtime_error {
    comparator_error() : std::runtime_error("comparator") {}
};

// A comparator that throws on its `throw_at`-th call, from whatever thread
// makes it.
struct throwing_less {
    std::shared_ptr<std::atomic<long>> calls = std::make_shared<std::atomic<long>>(0);
    long throw_at;

    template <class T>
    bool operator()(T const& a, T const& b) const
    {
        if (calls->fetch_add(1, std::memory_order_relaxed) + 1 == throw_at)
            throw comparator_error();
        return a < b;
    }
};

// A value that counts the live objects of its type: a buffer that leaks or
// destroys twice shows up in the count.
struct counted {
    static inline std::atomic<long> live{0};
    std::string text; // non-trivial, and its moved-from state is observable

    explicit counted(std::string s) : text(std::move(s)) { ++live; }
    counted(counted const& other) : text(other.text) { ++live; }
    counted(counted&& other) noexcept : text(std::move(other.text)) { ++live; }
    counted& operator=(counted const&) = default;
    counted& operator=(counted&&) noexcept = default;
    ~counted() { --live; }
    bool operator<(counted const& other) const { return text < other.text; }
};

// What the stable sort's fallback gets: no buffer.
struct failing_allocation {
    void* operator()(std::size_t, std::align_val_t) const noexcept { return nullptr; }
};

// Both sorts of v's copies on `pool`, checked against std::.
template <class Pool, class T, class Comp = std::less<>>
void check_both(Pool& pool, std::vector<T> const& input, Comp comp = {})
{
    std::vector<T> expected = input;
    std::stable_sort(expected.begin(), expected.end(), comp);
    std::vector<T> unstable = input, stable = input;
    pool.install([&] {
        fj::sort(unstable.begin(), unstable.end(), comp);
        fj::stable_sort(stable.begin(), stable.end(), comp);
    });
    BOOST_TEST(std::is_sorted(unstable.begin(), unstable.end(), comp));
    std::vector<T> unstable_as_stable = unstable; // same multiset: sorts to the same elements
    std::vector<T> expected_multiset = input;
    std::sort(unstable_as_stable.begin(), unstable_as_stable.end());
    std::sort(expected_multiset.begin(), expected_multiset.end());
    BOOST_TEST((unstable_as_stable == expected_multiset));
    BOOST_TEST((stable == expected));
}

template <class It>
concept can_sort = requires(It i) { fj::sort(i, i); };
template <class It>
concept can_stable_sort = requires(It i) { fj::stable_sort(i, i); };
template <class R>
concept can_sort_range = requires(R r) { fj::sort(r); };

static_assert(can_sort<std::vector<int>::iterator>);
static_assert(can_sort<int*>);
static_assert(can_sort<std::deque<int>::iterator>);
static_assert(!can_sort<std::list<int>::iterator>);            // not random access
static_assert(!can_sort<std::vector<int>::const_iterator>);    // not permutable
static_assert(!can_stable_sort<std::list<int>::iterator>);
static_assert(can_sort_range<std::vector<int>&>);
static_assert(can_sort_range<std::span<int>>);
static_assert(!can_sort_range<std::list<int>&>);
static_assert(!can_sort_range<std::vector<int> const&>);
static_assert(std::is_void_v<decltype(fj::sort(std::declval<std::vector<int>&>()))>);

} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(random_ints_match_std_on_every_pool, Policy, test::algorithm_pool_kinds)
{
    test::watchdog const hang_guard("random_ints_match_std_on_every_pool");
    for (std::size_t threads : {1u, 2u, 4u}) {
        test::pool<Policy> pool(test::threads(threads));
        unsigned seed = 1;
        for (std::size_t n : sizes) {
            BOOST_TEST_CONTEXT("threads " << threads << ", n " << n)
            {
                check_both(pool, random_ints(n, 1 << 30, seed++));
                check_both(pool, random_ints(n, 16, seed++)); // many equal keys
            }
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(over_a_million_elements, Policy, test::algorithm_policies)
{
    test::watchdog const hang_guard("over_a_million_elements");
    for (std::size_t threads : {1u, 2u, 4u}) {
        BOOST_TEST_CONTEXT("threads " << threads)
        {
            test::pool<Policy> pool(test::threads(threads));
            check_both(pool, random_ints(large_size, 1 << 30, 7));
        }
    }
}

BOOST_AUTO_TEST_CASE(patterns_match_std)
{
    test::pool<fj::sleep::jec> pool(test::threads(2));
    for (std::size_t n : {std::size_t(100), std::size_t(3000), medium_size}) {
        for (auto const& [name, input] : patterns(n)) {
            BOOST_TEST_CONTEXT(name << ", n " << n)
            {
                check_both(pool, input);
                check_both(pool, input, std::greater<>{});
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(large_patterns_at_four_threads)
{
    test::pool<fj::sleep::jec> pool(test::threads(4));
    for (auto const& [name, input] : patterns(large_size)) {
        BOOST_TEST_CONTEXT(name)
        {
            check_both(pool, input);
        }
    }
}

// The branchless small sort that integers under a plain order get for
// ranges of up to 48 elements (pdqsort.hpp): every permutation of eight
// distinct values and every sequence of up to nine over three values (every
// pattern of equal keys) at the sizes where its networks start, then
// random ranges of every size up to 200, across each of its thresholds (8,
// 16, 32, 48) and into the partitions above them, for several integer types
// and every comparator it takes, on a pointer range and on a deque's.
template <class T, class Comp>
void check_small_integer_sorts(Comp comp, unsigned seed)
{
    auto check = [&](std::vector<T> const& input) {
        std::vector<T> expected = input;
        std::sort(expected.begin(), expected.end(), comp);
        std::vector<T> sorted = input;
        fj::sort(sorted.begin(), sorted.end(), comp);
        std::deque<T> in_deque(input.begin(), input.end());
        fj::sort(in_deque.begin(), in_deque.end(), comp);
        bool const vector_ok = sorted == expected;
        bool const deque_ok = std::equal(in_deque.begin(), in_deque.end(), expected.begin(), expected.end());
        if (!vector_ok || !deque_ok)
            BOOST_ERROR("wrong order for an input of " << input.size() << " elements");
        return vector_ok && deque_ok;
    };
    std::mt19937 rng(seed);
    for (std::size_t n = 0; n <= 200; ++n) {
        for (int distinct : {2, 5, 100, 1 << 20}) {
            for (int round = 0; round < 20; ++round) {
                std::vector<T> v(n);
                for (T& x : v)
                    x = static_cast<T>(std::uniform_int_distribution<int>(0, distinct - 1)(rng));
                if (!check(v))
                    return;
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(small_ranges_of_integers)
{
    std::vector<int> const identity = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<int> permutation = identity;
    do {
        std::vector<int> v = permutation;
        fj::sort(v.begin(), v.end());
        if (v != identity) {
            BOOST_ERROR("permutation of 8 sorted wrongly");
            break;
        }
    } while (std::next_permutation(permutation.begin(), permutation.end()));
    for (std::size_t n = 0; n <= 9; ++n) {
        std::size_t combinations = 1;
        for (std::size_t i = 0; i < n; ++i)
            combinations *= 3;
        for (std::size_t code = 0; code < combinations; ++code) {
            std::vector<int> v(n);
            std::size_t rest = code;
            for (int& x : v) {
                x = static_cast<int>(rest % 3);
                rest /= 3;
            }
            std::vector<int> expected = v;
            std::sort(expected.begin(), expected.end(), std::greater<>{});
            fj::sort(v.begin(), v.end(), std::greater<>{});
            if (v != expected) {
                BOOST_ERROR("sequence " << code << " of " << n << " over three values sorted wrongly");
                return;
            }
        }
    }
    check_small_integer_sorts<int>(std::less<>{}, 1);
    check_small_integer_sorts<int>(std::greater<int>{}, 2);
    check_small_integer_sorts<unsigned char>(std::ranges::less{}, 3);
    check_small_integer_sorts<std::int64_t>(std::ranges::greater{}, 4);
    check_small_integer_sorts<unsigned>(std::less<unsigned>{}, 5);
    check_small_integer_sorts<short>(std::greater<>{}, 6);
}

BOOST_AUTO_TEST_CASE(custom_comparators)
{
    test::pool<fj::sleep::jec> pool(test::threads(2));
    for (std::size_t n : {50u, 5000u, 200'000u}) {
        BOOST_TEST_CONTEXT("n " << n)
        {
            check_both(pool, random_ints(n, 1000, 3), std::greater<>{});
            check_both(pool, random_ints(n, 1000, 4), std::ranges::greater{});
            check_both(pool, random_ints(n, 1000, 5), [](int a, int b) { return a % 100 < b % 100; });
            check_both(pool, random_keyed(n, 50, 6), by_key);
            std::vector<double> doubles(n);
            std::mt19937 rng(8);
            for (double& d : doubles)
                d = std::uniform_real_distribution<double>(-1, 1)(rng);
            check_both(pool, doubles);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(stable_sort_keeps_the_order_of_equal_keys, Policy, test::algorithm_policies)
{
    for (std::size_t threads : {1u, 2u, 4u}) {
        test::pool<Policy> pool(test::threads(threads));
        for (std::size_t n : {30u, 3000u, 300'000u}) {
            for (int distinct : {1, 10, 1000}) {
                BOOST_TEST_CONTEXT("threads " << threads << ", n " << n << ", distinct keys " << distinct)
                {
                    std::vector<keyed> v = random_keyed(n, distinct, static_cast<unsigned>(n + distinct));
                    std::vector<keyed> expected = v;
                    std::stable_sort(expected.begin(), expected.end(), by_key);
                    pool.install([&] { fj::stable_sort(v, by_key); });
                    BOOST_TEST((v == expected));
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(move_only_values)
{
    test::pool<fj::sleep::jec> pool(test::threads(2));
    for (std::size_t n : {20u, 2000u, 100'000u}) {
        std::vector<int> const values = random_ints(n, 1 << 20, 9);
        std::vector<std::unique_ptr<int>> v;
        for (int x : values)
            v.push_back(std::make_unique<int>(x));
        std::vector<int*> addresses;
        for (auto const& p : v)
            addresses.push_back(p.get());
        auto const deref_less = [](std::unique_ptr<int> const& a, std::unique_ptr<int> const& b) { return *a < *b; };
        pool.install([&] { fj::sort(v, deref_less); });
        BOOST_TEST(std::is_sorted(v.begin(), v.end(), deref_less));
        std::vector<int*> after;
        for (auto const& p : v)
            after.push_back(p.get());
        std::sort(addresses.begin(), addresses.end());
        std::sort(after.begin(), after.end());
        BOOST_TEST((after == addresses)); // every pointer still owned once

        pool.install([&] { fj::stable_sort(v, deref_less); }); // move-only stable sort too
        BOOST_TEST(std::is_sorted(v.begin(), v.end(), deref_less));
    }
}

BOOST_AUTO_TEST_CASE(strings)
{
    test::pool<fj::sleep::legacy> pool(test::threads(2));
    for (std::size_t n : {10u, 3000u, 100'000u}) {
        std::vector<std::string> v;
        for (int x : random_ints(n, 5000, 10))
            v.push_back("a fairly long string, so no short-string buffer: " + std::to_string(x));
        check_both(pool, v);
    }
}

BOOST_AUTO_TEST_CASE(every_form_of_the_call)
{
    std::vector<int> const input = random_ints(50'000, 1 << 30, 11);
    std::vector<int> expected = input;
    std::sort(expected.begin(), expected.end());
    std::vector<int> reversed = expected;
    std::reverse(reversed.begin(), reversed.end());

    test::pool<fj::sleep::spin> pool(test::threads(2));
    auto check = [&](auto sort_a_copy, std::vector<int> const& want) {
        std::vector<int> v = input;
        pool.install([&] { sort_a_copy(v); });
        BOOST_TEST((v == want));
    };
    check([](auto& v) { fj::sort(v.begin(), v.end()); }, expected);
    check([](auto& v) { fj::sort(v.begin(), v.end(), std::greater<>{}); }, reversed);
    check([](auto& v) { fj::sort(v); }, expected);
    check([](auto& v) { fj::sort(std::span<int>(v), std::greater<>{}); }, reversed);
    check([](auto& v) { fj::sort(fj::grain{10'000}, v.begin(), v.end()); }, expected);
    check([](auto& v) { fj::sort(fj::grain{1}, v.begin(), v.end(), std::greater<>{}); }, reversed);
    check([](auto& v) { fj::sort(fj::grain{0}, v); }, expected);
    check([](auto& v) { fj::sort(fj::grain{1'000'000}, v, std::greater<>{}); }, reversed);
    check([](auto& v) { fj::stable_sort(v.begin(), v.end()); }, expected);
    check([](auto& v) { fj::stable_sort(v.begin(), v.end(), std::greater<>{}); }, reversed);
    check([](auto& v) { fj::stable_sort(v); }, expected);
    check([](auto& v) { fj::stable_sort(std::span<int>(v), std::greater<>{}); }, reversed);
    check([](auto& v) { fj::stable_sort(fj::grain{10'000}, v.begin(), v.end()); }, expected);
    check([](auto& v) { fj::stable_sort(fj::grain{1}, v.begin(), v.end(), std::greater<>{}); }, reversed);
    check([](auto& v) { fj::stable_sort(fj::grain{0}, v); }, expected);
    check([](auto& v) { fj::stable_sort(fj::grain{1'000'000}, v, std::greater<>{}); }, reversed);

    std::deque<int> d(input.begin(), input.end()); // random access, not contiguous
    pool.install([&] { fj::sort(d); });
    BOOST_TEST(std::equal(d.begin(), d.end(), expected.begin(), expected.end()));
}

BOOST_AUTO_TEST_CASE(outside_every_pool_uses_the_global_pool)
{
    BOOST_TEST(!fj::current_thread_index());
    std::vector<int> v = random_ints(200'000, 1 << 30, 12);
    std::vector<int> w = v;
    std::vector<int> expected = v;
    std::sort(expected.begin(), expected.end());
    fj::sort(v);
    fj::stable_sort(w);
    BOOST_TEST((v == expected));
    BOOST_TEST((w == expected));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nested_in_a_join, Policy, test::algorithm_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::vector<int> a = random_ints(300'000, 1 << 30, 13);
    std::vector<keyed> b = random_keyed(300'000, 100, 14);
    std::vector<int> expected_a = a;
    std::sort(expected_a.begin(), expected_a.end());
    std::vector<keyed> expected_b = b;
    std::stable_sort(expected_b.begin(), expected_b.end(), by_key);
    pool.install([&] { fj::join([&] { fj::sort(a); }, [&] { fj::stable_sort(b, by_key); }); });
    BOOST_TEST((a == expected_a));
    BOOST_TEST((b == expected_b));
}

// The comparator throws on its k-th call, for k early, in the middle and
// late: the exception reaches the caller, every element is still there
// once, nothing leaks (counted), and the pool sorts again afterwards.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_throwing_comparator, Policy, test::algorithm_policies)
{
    test::watchdog const hang_guard("a_throwing_comparator");
    test::pool<Policy> pool(test::threads(2));
    for (std::size_t n : {20u, 5000u, 200'000u}) {
        std::vector<int> const input = random_ints(n, 1 << 30, static_cast<unsigned>(n));
        std::vector<int> sorted_input = input;
        std::sort(sorted_input.begin(), sorted_input.end());
        for (long throw_at : {1L, static_cast<long>(n), static_cast<long>(n) * 3}) {
            BOOST_TEST_CONTEXT("n " << n << ", throw at call " << throw_at)
            {
                auto same_elements = [&](std::vector<int> v) {
                    std::sort(v.begin(), v.end());
                    return v == sorted_input;
                };
                std::vector<int> v = input;
                BOOST_CHECK_THROW(pool.install([&] { fj::sort(v, throwing_less{.throw_at = throw_at}); }),
                                  comparator_error);
                BOOST_TEST(same_elements(v));
                v = input;
                BOOST_CHECK_THROW(pool.install([&] { fj::stable_sort(v, throwing_less{.throw_at = throw_at}); }),
                                  comparator_error);
                BOOST_TEST(same_elements(v));
                v = input;
                BOOST_CHECK_THROW(pool.install([&] {
                    throwing_less comp{.throw_at = throw_at};
                    fj::detail::stable_sort(v.begin(), v.end(), comp, fj::grain{}, failing_allocation{});
                }),
                                  comparator_error);
                BOOST_TEST(same_elements(v));

                std::vector<counted> c;
                for (int x : input)
                    c.emplace_back(std::to_string(x) + " and some text past the short-string buffer");
                long const live_before = counted::live.load();
                BOOST_CHECK_THROW(pool.install([&] { fj::stable_sort(c, throwing_less{.throw_at = throw_at}); }),
                                  comparator_error);
                BOOST_TEST(counted::live.load() == live_before);
                std::vector<int> numbers;
                for (counted const& e : c)
                    numbers.push_back(std::stoi(e.text));
                BOOST_TEST(same_elements(numbers));
            }
        }
        // The pool is fine.
        std::vector<int> v = input;
        pool.install([&] { fj::sort(v); });
        BOOST_TEST((v == sorted_input));
    }
}

// No buffer: the stable sort merges in place, through the same entry point
// with an allocation that fails (fj::stable_sort gets its buffer from
// ::operator new(std::nothrow); this passes a function that returns null).
BOOST_AUTO_TEST_CASE_TEMPLATE(stable_sort_without_a_buffer, Policy, test::algorithm_policies)
{
    for (std::size_t threads : {1u, 2u, 4u}) {
        test::pool<Policy> pool(test::threads(threads));
        for (std::size_t n : {0u, 1u, 30u, 3000u, 300'003u}) {
            BOOST_TEST_CONTEXT("threads " << threads << ", n " << n)
            {
                std::vector<keyed> v = random_keyed(n, 20, 15);
                std::vector<keyed> expected = v;
                std::stable_sort(expected.begin(), expected.end(), by_key);
                pool.install([&] {
                    auto comp = by_key;
                    fj::detail::stable_sort(v.begin(), v.end(), comp, fj::grain{}, failing_allocation{});
                });
                BOOST_TEST((v == expected));
            }
        }
    }
}

// A value type whose move may throw is sorted in place too (no buffer to
// half-fill); and the buffer's elements are all destroyed.
BOOST_AUTO_TEST_CASE(buffer_lifetimes)
{
    struct throwing_move {
        int key;
        throwing_move(int k) : key(k) {}
        throwing_move(throwing_move&& o) noexcept(false) : key(o.key) {}
        throwing_move& operator=(throwing_move&& o) noexcept(false)
        {
            key = o.key;
            return *this;
        }
        bool operator<(throwing_move const& o) const { return key < o.key; }
    };
    test::pool<fj::sleep::jec> pool(test::threads(2));
    std::vector<int> const input = random_ints(100'000, 1000, 16);
    std::vector<throwing_move> t(input.begin(), input.end());
    pool.install([&] { fj::stable_sort(t); });
    BOOST_TEST(std::is_sorted(t.begin(), t.end()));

    long const live_before = counted::live.load();
    {
        std::vector<counted> c;
        for (int x : input)
            c.emplace_back(std::to_string(x));
        pool.install([&] { fj::stable_sort(c); });
        BOOST_TEST(std::is_sorted(c.begin(), c.end()));
        BOOST_TEST(counted::live.load() == live_before + static_cast<long>(input.size()));
    }
    BOOST_TEST(counted::live.load() == live_before);
}
