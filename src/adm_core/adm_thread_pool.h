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

/* A fixed set of worker threads that runs the core's parallel jobs
 * (float_adm_context_set_threads). */

#ifndef ADM_THREAD_POOL_H
#define ADM_THREAD_POOL_H

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "float_adm.h"

namespace adm {

class ThreadPool {
public:
    /** Starts num_threads - 1 workers: the thread that calls run() is the last one. */
    explicit ThreadPool(int num_threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    /** Runs job(arg, 0..nb_jobs-1) across the threads and returns when all are
     *  done: the first non-zero job result, else 0. */
    int run(FloatAdmJobFn job, void *arg, int nb_jobs);

    /** A FloatAdmExecuteFn; opaque is the ThreadPool. */
    static int execute(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs);

private:
    /** Stops and joins the workers started so far. */
    void stop();
    void worker_loop();
    /** Takes jobs of the current batch until none is left; called with lock held. */
    void take_jobs(std::unique_lock<std::mutex> &lock);

    std::mutex mutex_;
    std::condition_variable batch_started_;
    std::condition_variable batch_finished_;
    std::vector<std::thread> workers_;
    bool stopping_ = false;
    uint64_t batch_ = 0; /* counts batches, so that workers notice a new one */

    /* The current batch, guarded by mutex_. */
    FloatAdmJobFn job_ = nullptr;
    void *arg_ = nullptr;
    int nb_jobs_ = 0;
    int next_job_ = 0;
    int jobs_done_ = 0;
    int result_ = 0;
};

} // namespace adm

#endif /* ADM_THREAD_POOL_H */
