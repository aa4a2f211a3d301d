// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_WHEN_ANY_HPP
#define BOOST_FORKJOIN_WHEN_ANY_HPP

// when_any: the first of several futures to be done.
//
//     auto first = fj::when_any(pool.spawn_future(ask_a), pool.spawn_future(ask_b));
//     auto [index, answer] = fj::await(first);
//
// The result is a future, ready as soon as one input is done: its value is
// that input's index and value (when_any_result); if that input failed, its
// get() rethrows that input's exception. The other inputs, the losers, are
// cancelled then (future::cancel: a task not started never runs, a parked
// one resumes with future_cancelled) and their results are dropped.
// Cancelling or dropping the when_any future cancels every input.
//
// How: one watcher task per input, on a fiber of the current pool (the
// global pool from outside every pool), owns that input and parks on it; the
// first watcher whose input is done claims the result with one atomic
// exchange and completes an inner promise; the when_any task parks on that
// promise's future. When it returns, it drops the watchers' futures, which
// cancels the watchers still parked; each one's input, destroyed as its
// watcher unwinds, is cancelled in turn. No thread blocks at any point.

#include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace boost::forkjoin {

template <class T>
struct when_any_result {
    std::size_t index;                    // which input was done first
    detail::value_or_monostate<T> value;  // its value (std::monostate for void)
};

namespace detail {

template <class T>
struct when_any_race {
    std::atomic<bool> decided{false};
    promise<when_any_result<T>> outcome;
};

// The watcher of input `index`: waits for it, and if it is done first,
// hands its value or exception to the race's promise.
template <class T>
future<void> watch(registry_base& registry, std::shared_ptr<when_any_race<T>> race, future<T> input,
                   std::size_t index)
{
    return spawn_future(
        registry,
        [race = std::move(race), input = std::move(input), index]() mutable {
            input.wait(); // throws future_cancelled if this watcher is cancelled
            // Relaxed: the flag only elects one writer of the promise, whose
            // completion orders everything the winner wrote for its reader.
            if (race->decided.exchange(true, std::memory_order_relaxed))
                return;
            // Take the result and leave the catch block before publishing:
            // the reader may drop the exception as soon as it is published,
            // so this fiber must hold no reference of its own by then but
            // the exception_ptr it hands over. (A reference released after
            // publication is correct, the count being atomic, but inside
            // libstdc++ where ThreadSanitizer cannot see that count.)
            std::optional<value_or_monostate<T>> value;
            std::exception_ptr failure;
            try {
                if constexpr (std::is_void_v<T>) {
                    input.get();
                    value.emplace();
                } else {
                    value.emplace(input.get());
                }
            } catch (...) {
                failure = std::current_exception();
            }
            if (failure)
                race->outcome.set_exception(std::move(failure));
            else
                race->outcome.set_value(when_any_result<T>{index, std::move(*value)});
        },
        nullptr);
}

} // namespace detail

// The first of `inputs` to be done. Throws std::invalid_argument for an
// empty vector (nothing would ever be done) and std::future_error(no_state)
// for an input that is not valid().
template <class T>
future<when_any_result<T>> when_any(std::vector<future<T>> inputs)
{
    if (inputs.empty())
        throw std::invalid_argument("boost::forkjoin::when_any: no futures to wait for");
    for (future<T> const& f : inputs)
        if (!f.valid())
            throw std::future_error(std::future_errc::no_state);
    detail::registry_base& registry = detail::current_registry();
    auto race = std::make_shared<detail::when_any_race<T>>();
    future<when_any_result<T>> outcome = race->outcome.get_future();
    std::vector<future<void>> watchers;
    watchers.reserve(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
        watchers.push_back(detail::watch(registry, race, std::move(inputs[i]), i));
    return detail::spawn_future(
        registry,
        [outcome = std::move(outcome), watchers = std::move(watchers)]() mutable {
            // Returning (or unwinding, if this task is cancelled) destroys
            // the watchers' futures, which cancels the losers.
            return outcome.get();
        },
        nullptr);
}

// The same for futures of one type given one by one.
template <class T, class... More>
future<when_any_result<T>> when_any(future<T> first, future<More>... more)
{
    static_assert((std::is_same_v<More, T> && ...),
                  "boost::forkjoin::when_any(f...): the futures must have one value type, the type of the "
                  "result's value (for futures of different types, use when_all, or futures of a std::variant)");
    if constexpr ((std::is_same_v<More, T> && ...)) {
        std::vector<future<T>> inputs;
        inputs.reserve(1 + sizeof...(More));
        inputs.push_back(std::move(first));
        (inputs.push_back(std::move(more)), ...);
        return forkjoin::when_any(std::move(inputs));
    } else {
        return {}; // not reached: the static_assert above has failed
    }
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_WHEN_ANY_HPP
