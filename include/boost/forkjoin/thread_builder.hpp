// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_THREAD_BUILDER_HPP
#define BOOST_FORKJOIN_THREAD_BUILDER_HPP

// thread_builder: one worker of a pool that is being built, handed to
// pool_options::spawn_handler so that the user creates the thread it runs
// on (its name, stack, affinity, priority, or a thread type of their own),
// as rayon's ThreadBuilder. The handler starts a thread, or hands the
// builder to one, and that thread calls run(), which is the worker's whole
// life: it returns when the pool has terminated.
//
//     options.spawn_handler = [](fj::thread_builder worker) {
//         std::thread([w = std::move(worker)]() mutable {
//             pin_to_core(w.index());
//             w.run();
//         }).detach();
//     };
//
// The pool's destructor waits until every worker has returned from run().

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace boost::forkjoin {

namespace detail {
// What a thread_builder needs from the registry it belongs to, behind an
// interface so that this header does not depend on the registry's.
class worker_host {
public:
    // Runs worker `index` on the calling thread until the pool terminates.
    // Throws std::logic_error, before doing anything, if this thread cannot
    // be that worker.
    virtual void run_worker(std::size_t index) = 0;
    // The builder of worker `index` was destroyed without run().
    virtual void abandon_worker(std::size_t index) noexcept = 0;

protected:
    ~worker_host() = default;
};

class registry_base;
} // namespace detail

class thread_builder {
public:
    thread_builder(thread_builder&& other) noexcept
        : host_(std::move(other.host_)), index_(other.index_), name_(std::move(other.name_)),
          stack_size_(other.stack_size_)
    {
    }

    thread_builder& operator=(thread_builder&&) = delete;
    thread_builder(thread_builder const&) = delete;
    thread_builder& operator=(thread_builder const&) = delete;

    // A builder destroyed without run() leaves its pool a worker short.
    // While the spawn_handler is being called, or after the pool failed to
    // build, that is reported by the constructor (std::logic_error) or is
    // harmless; once the pool is built it calls std::terminate.
    ~thread_builder()
    {
        if (host_)
            host_->abandon_worker(index_);
    }

    // The worker's index in its pool, from 0 to num_threads - 1.
    std::size_t index() const noexcept { return index_; }

    // pool_options::thread_name(index()), or "forkjoin-<index>". run() does
    // not apply it: naming the thread is the spawn handler's choice.
    std::string const& name() const noexcept { return name_; }

    // pool_options::stack_size: 0 for the OS default.
    std::size_t stack_size() const noexcept { return stack_size_; }

    // False once run() has been called (or the builder was moved from).
    bool valid() const noexcept { return host_ != nullptr; }

    // Makes the calling thread the worker and runs it: start_handler, then
    // jobs until the pool terminates, then exit_handler. Returns once the
    // worker has left the pool; the builder is then empty.
    // Throws std::logic_error, leaving the builder as it was, if it is
    // empty, if the calling thread is a worker of any pool already, or if
    // it is the thread that is building the pool (inside the spawn_handler:
    // the constructor would wait for itself).
    void run()
    {
        detail::worker_host* const host = host_.get();
        if (host == nullptr)
            throw std::logic_error("boost::forkjoin::thread_builder::run: the builder is empty (already run)");
        host->run_worker(index_); // throws before it starts, if at all
        host_.reset();
    }

private:
    friend class detail::registry_base;

    thread_builder(std::shared_ptr<detail::worker_host> host, std::size_t index, std::string name,
                   std::size_t stack_size) noexcept
        : host_(std::move(host)), index_(index), name_(std::move(name)), stack_size_(stack_size)
    {
    }

    // Keeps the registry alive as long as the worker may use it.
    std::shared_ptr<detail::worker_host> host_;
    std::size_t index_;
    std::string name_;
    std::size_t stack_size_;
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_THREAD_BUILDER_HPP
