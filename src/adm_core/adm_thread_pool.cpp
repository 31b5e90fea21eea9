/*
 * float_adm: the thread pool a context asked for N threads runs its jobs on.
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "adm_thread_pool.h"

namespace adm {

ThreadPool::ThreadPool(int num_threads)
{
    try {
        for (int i = 1; i < num_threads; ++i)
            workers_.emplace_back(&ThreadPool::worker_loop, this);
    } catch (...) {
        stop(); /* the workers already started: a joinable thread destroyed aborts */
        throw;
    }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::stop()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    batch_started_.notify_all();
    for (std::thread &worker : workers_)
        worker.join();
    workers_.clear();
}

int ThreadPool::execute(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    return static_cast<ThreadPool *>(opaque)->run(job, arg, nb_jobs);
}

int ThreadPool::run(FloatAdmJobFn job, void *arg, int nb_jobs)
{
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = job;
    arg_ = arg;
    nb_jobs_ = nb_jobs;
    next_job_ = 0;
    jobs_done_ = 0;
    result_ = 0;
    ++batch_;
    batch_started_.notify_all();
    take_jobs(lock);
    batch_finished_.wait(lock, [this] { return jobs_done_ == nb_jobs_; });
    return result_;
}

void ThreadPool::take_jobs(std::unique_lock<std::mutex> &lock)
{
    while (next_job_ < nb_jobs_) {
        const int index = next_job_++;
        const FloatAdmJobFn job = job_;
        void *const arg = arg_;
        const int nb_jobs = nb_jobs_;
        lock.unlock();
        const int result = job(arg, index, nb_jobs);
        lock.lock();
        if (result != 0 && result_ == 0)
            result_ = result;
        if (++jobs_done_ == nb_jobs_)
            batch_finished_.notify_one();
    }
}

void ThreadPool::worker_loop()
{
    std::unique_lock<std::mutex> lock(mutex_);
    uint64_t seen_batch = batch_;
    for (;;) {
        batch_started_.wait(lock, [&] { return stopping_ || batch_ != seen_batch; });
        if (stopping_)
            return;
        seen_batch = batch_;
        take_jobs(lock);
    }
}

} // namespace adm
