/*
 * float_adm: frames in flight on the CPU (see adm_frame_queue.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_frame_queue.h"

#include <algorithm>
#include <new>

namespace adm {

FrameQueue::FrameQueue(int width, int height, int bit_depth, const FloatAdmOptions &opts,
                       SimdLevel level, int threads, int depth)
    : width_(width), height_(height), bit_depth_(bit_depth), opts_(opts), level_(level),
      row_jobs_((threads + depth - 1) / depth), slots_(depth)
{
    idle_engines_.reserve(std::min(threads, depth)); /* never more frames scored at once */
    try {
        for (int i = 0; i < threads; i++)
            workers_.emplace_back(&FrameQueue::worker_loop, this);
    } catch (...) {
        stop(); /* the workers already started */
        throw;
    }
}

FrameQueue::~FrameQueue() { stop(); }

void FrameQueue::stop()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    work_.notify_all();
    for (std::thread &worker : workers_)
        worker.join();
    workers_.clear();
}

int FrameQueue::submit(const FloatAdmPlane &ref, const FloatAdmPlane &dist)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (count_ == (int)slots_.size())
            return FLOAT_ADM_ERROR_AGAIN;
        Slot &slot = slots_[(head_ + count_) % slots_.size()];
        slot.ref = ref;
        slot.dist = dist;
        slot.state = SlotState::kQueued;
        count_++;
    }
    work_.notify_one();
    return 0;
}

int FrameQueue::collect(FloatAdmScores *scores, bool wait)
{
    std::unique_lock<std::mutex> lock(mutex_);
    if (count_ == 0)
        return FLOAT_ADM_ERROR_AGAIN;
    Slot &slot = slots_[head_];
    if (slot.state != SlotState::kDone) {
        if (!wait)
            return FLOAT_ADM_ERROR_AGAIN;
        finished_.wait(lock, [&slot] { return slot.state == SlotState::kDone; });
    }
    *scores = slot.scores;
    slot.ref = slot.dist = FloatAdmPlane{};
    head_ = (head_ + 1) % (int)slots_.size();
    count_--;
    started_--;
    return slot.result;
}

int FrameQueue::in_flight()
{
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
}

int FrameQueue::execute_rows(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    FrameQueue &queue = *static_cast<FrameQueue *>(opaque);
    RowBatch batch{job, arg, nb_jobs};
    std::unique_lock<std::mutex> lock(queue.mutex_);
    queue.batches_.push_back(&batch);
    queue.work_.notify_all();
    /* The caller works too; it then waits only for the jobs others took. */
    while (batch.next < batch.nb_jobs)
        queue.run_row_job(lock, batch);
    queue.finished_.wait(lock, [&batch] { return batch.done == batch.nb_jobs; });
    return batch.result;
}

void FrameQueue::run_row_job(std::unique_lock<std::mutex> &lock, RowBatch &batch)
{
    const int index = batch.next++;
    if (batch.next == batch.nb_jobs)
        batches_.erase(std::find(batches_.begin(), batches_.end(), &batch));
    lock.unlock();
    const int result = batch.job(batch.arg, index, batch.nb_jobs);
    lock.lock();
    if (result != 0 && batch.result == 0)
        batch.result = result;
    if (++batch.done == batch.nb_jobs)
        finished_.notify_all();
}

/* Engines are made by the workers that need them: the threads touch their buffers'
 * pages for the first time side by side. */
int FrameQueue::score(std::unique_ptr<Engine> &engine, const Slot &slot, FloatAdmScores *scores)
{
    if (!engine) {
        try {
            engine = std::make_unique<Engine>(width_, height_, bit_depth_, opts_);
            engine->set_level(level_);
            if (row_jobs_ > 1)
                engine->set_executor(execute_rows, this, row_jobs_);
        } catch (const std::bad_alloc &) {
            engine.reset();
            return FLOAT_ADM_ERROR_NOMEM;
        }
    }
    return engine->score(slot.ref, slot.dist, scores);
}

void FrameQueue::worker_loop()
{
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        work_.wait(lock, [this] { return stopping_ || !batches_.empty() || started_ < count_; });
        if (stopping_)
            return;
        /* Rows of a frame being scored first: its thread waits for them. */
        if (!batches_.empty()) {
            run_row_job(lock, *batches_.front());
            continue;
        }
        Slot &slot = slots_[(head_ + started_) % slots_.size()];
        started_++;
        slot.state = SlotState::kRunning;
        std::unique_ptr<Engine> engine;
        if (!idle_engines_.empty()) {
            engine = std::move(idle_engines_.back());
            idle_engines_.pop_back();
        }
        lock.unlock();
        FloatAdmScores scores = {};
        const int result = score(engine, slot, &scores);
        lock.lock();
        if (engine)
            idle_engines_.push_back(std::move(engine));
        slot.scores = scores;
        slot.result = result;
        slot.state = SlotState::kDone;
        finished_.notify_all();
    }
}

} // namespace adm
