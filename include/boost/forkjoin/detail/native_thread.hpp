// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_NATIVE_THREAD_HPP
#define BOOST_FORKJOIN_DETAIL_NATIVE_THREAD_HPP

// A joinable OS thread with a chosen stack size and name. std::thread can set
// neither, and Boost.Thread would add a compiled library to a header-only
// core for one attribute, so this is a thin POSIX wrapper.

#include <pthread.h>

#include <cerrno>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

namespace boost::forkjoin::detail {

class native_thread {
public:
    native_thread() = default;

    // Starts a thread running `body`, a callable that may be move-only.
    // Throws std::system_error if the OS refuses; `body` is then destroyed
    // here, unrun.
    template <class Body>
    native_thread(std::size_t stack_size, Body body)
    {
        pthread_attr_t attr;
        check(pthread_attr_init(&attr), "pthread_attr_init");
        std::unique_ptr<pthread_attr_t, void (*)(pthread_attr_t*)> attr_guard(
            &attr, [](pthread_attr_t* a) { pthread_attr_destroy(a); });
        if (stack_size != 0)
            check(pthread_attr_setstacksize(&attr, stack_size), "pthread_attr_setstacksize");
        auto boxed = std::make_unique<Body>(std::move(body));
        check(pthread_create(&handle_, &attr, &trampoline<Body>, boxed.get()), "pthread_create");
        boxed.release(); // now owned by the thread
        joinable_ = true;
    }

    native_thread(native_thread&& other) noexcept
        : handle_(other.handle_), joinable_(std::exchange(other.joinable_, false))
    {
    }

    native_thread& operator=(native_thread&&) = delete;

    ~native_thread()
    {
        if (joinable_)
            std::terminate(); // as std::thread: never silently detach
    }

    void join()
    {
        check(pthread_join(handle_, nullptr), "pthread_join");
        joinable_ = false;
    }

    bool joinable() const noexcept { return joinable_; }

    // Best effort: names longer than the OS allows are truncated.
    static void set_current_name(std::string name)
    {
#if defined(__linux__)
        if (name.size() > 15)
            name.resize(15);
        pthread_setname_np(pthread_self(), name.c_str());
#elif defined(__APPLE__)
        pthread_setname_np(name.c_str());
#else
        (void)name;
#endif
    }

private:
    template <class Body>
    static void* trampoline(void* arg)
    {
        std::unique_ptr<Body> body(static_cast<Body*>(arg));
        (*body)();
        return nullptr;
    }

    static void check(int error, char const* what)
    {
        if (error != 0)
            throw std::system_error(error, std::generic_category(), what);
    }

    pthread_t handle_{};
    bool joinable_ = false;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_NATIVE_THREAD_HPP
