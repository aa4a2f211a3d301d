// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_WHEN_ALL_HPP
#define BOOST_FORKJOIN_WHEN_ALL_HPP

// when_all: one future for several.
//
//     auto both = fj::when_all(pool.spawn_future(load), pool.spawn_future(parse));
//     auto [image, config] = fj::await(both);
//
// The result is itself a future whose task runs on a fiber of the current
// pool (the global pool from outside every pool): it waits for the inputs
// one after the other, parking, never blocking a worker, and is ready once
// every input is. Its value holds every input's value, in argument order (a
// void input gives std::monostate). If inputs failed, get() rethrows the
// exception of the first failed input in argument order, once all are done.
// Cancelling the when_all future (or dropping it) cancels the inputs not yet
// done. An input that is not valid() makes when_all throw
// std::future_error(no_state) at once.

#include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <cstddef>
#include <exception>
#include <future>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace boost::forkjoin {

namespace detail {

// A done input's value, or nothing after keeping its exception in
// first_error if that is still empty.
template <class T>
std::optional<value_or_monostate<T>> result_of(future<T>& f, std::exception_ptr& first_error)
{
    try {
        if constexpr (std::is_void_v<T>) {
            f.get();
            return std::monostate();
        } else {
            return f.get();
        }
    } catch (...) {
        if (!first_error)
            first_error = std::current_exception();
        return std::nullopt;
    }
}

} // namespace detail

template <class... T>
future<std::tuple<detail::value_or_monostate<T>...>> when_all(future<T>... inputs)
{
    static_assert(sizeof...(T) > 0, "boost::forkjoin::when_all(f...): give it at least one future");
    if (!(inputs.valid() && ...))
        throw std::future_error(std::future_errc::no_state);
    return detail::spawn_future(
        detail::current_registry(),
        [... inputs = std::move(inputs)]() mutable {
            // First wait for all (an own cancellation leaves here, and the
            // inputs, destroyed with this closure, are cancelled), then take
            // the results.
            (inputs.wait(), ...);
            std::exception_ptr first_error;
            std::tuple<std::optional<detail::value_or_monostate<T>>...> results{
                detail::result_of(inputs, first_error)...};
            if (first_error)
                std::rethrow_exception(first_error);
            return std::apply([](auto&... r) { return std::tuple(std::move(*r)...); }, results);
        },
        nullptr);
}

// The same for a run-time number of futures of one type: a future of their
// values, in order (std::monostate for void). An empty vector gives a ready
// future of an empty vector.
template <class T>
future<std::vector<detail::value_or_monostate<T>>> when_all(std::vector<future<T>> inputs)
{
    for (future<T> const& f : inputs)
        if (!f.valid())
            throw std::future_error(std::future_errc::no_state);
    return detail::spawn_future(
        detail::current_registry(),
        [inputs = std::move(inputs)]() mutable {
            for (future<T>& f : inputs)
                f.wait();
            std::exception_ptr first_error;
            std::vector<detail::value_or_monostate<T>> values;
            values.reserve(inputs.size());
            for (future<T>& f : inputs)
                if (auto v = detail::result_of(f, first_error))
                    values.push_back(std::move(*v));
            if (first_error)
                std::rethrow_exception(first_error);
            return values;
        },
        nullptr);
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_WHEN_ALL_HPP
