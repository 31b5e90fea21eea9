/*
 * float_adm: the library's thread pool, for the benchmarks and CUDA tests that share
 * one pool among several contexts (a context of its own threads needs none:
 * float_adm_context_set_threads).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef FLOAT_ADM_COMMON_THREAD_POOL_H
#define FLOAT_ADM_COMMON_THREAD_POOL_H

#include "adm_thread_pool.h"

using adm::ThreadPool;

#endif /* FLOAT_ADM_COMMON_THREAD_POOL_H */
