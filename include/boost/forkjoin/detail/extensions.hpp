// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_EXTENSIONS_HPP
#define BOOST_FORKJOIN_DETAIL_EXTENSIONS_HPP

// The objects that optional integrations keep with a registry
// (registry_base::extension).

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace boost::forkjoin::detail {

// The key of one extension type: the address of an inline variable is the
// same in every translation unit.
template <class T>
inline constexpr char extension_key = 0;

class extensions {
public:
    // The object of type T that an optional integration keeps with this
    // registry (asio.hpp keeps the pool's asio::execution_context here),
    // built by make(), which returns a std::shared_ptr<T>, on first use, and
    // destroyed with the registry. The core never names these types, so it
    // does not depend on their libraries. Not on any hot path: a mutex and a
    // short search.
    template <class T, class Make>
    T& get(Make&& make)
    {
        std::lock_guard const lock(mutex_);
        for (auto const& [key, object] : objects_)
            if (key == &extension_key<T>)
                return *static_cast<T*>(object.get());
        std::shared_ptr<T> object = std::forward<Make>(make)();
        T& result = *object;
        objects_.emplace_back(&extension_key<T>, std::move(object));
        return result;
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<void const*, std::shared_ptr<void>>> objects_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_EXTENSIONS_HPP
