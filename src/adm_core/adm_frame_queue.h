/*
 * float_adm: frames in flight on the CPU (float_adm_submit / float_adm_collect).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_FRAME_QUEUE_H
#define ADM_FRAME_QUEUE_H

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "adm_engine.h"
#include "float_adm.h"

namespace adm {

/*
 * A ring of `depth` frame slots, scored by `threads` worker threads of the queue's own.
 * A worker takes the oldest frame not yet started and scores it whole on an engine
 * no other frame is using (made when none is idle: as many engines as frames were
 * ever scored at once, at most min(threads, depth)); an engine splits a frame's rows
 * into ceil(threads / depth) jobs, and any worker that is free takes those jobs
 * before the next frame.  Each engine folds its rows in order, so the scores are the
 * same however the work was shared out.  A slot is only a frame's planes and scores:
 * a queue deeper than its threads (so that one slow frame does not hold the others
 * back) costs no engine.
 */
class FrameQueue {
public:
    /* Throws std::bad_alloc, or std::system_error when a thread cannot start. */
    FrameQueue(int width, int height, int bit_depth, const FloatAdmOptions &opts, SimdLevel level,
               int threads, int depth);
    /* Waits for the frames being scored; frames not started are dropped. */
    ~FrameQueue();
    FrameQueue(const FrameQueue &) = delete;
    FrameQueue &operator=(const FrameQueue &) = delete;

    /* FLOAT_ADM_ERROR_AGAIN when every slot holds a frame not yet collected. */
    int submit(const FloatAdmPlane &ref, const FloatAdmPlane &dist);
    /* The oldest frame's result (0 or its error) and scores; FLOAT_ADM_ERROR_AGAIN when
     * none is queued, or (without wait) when it is not finished. */
    int collect(FloatAdmScores *scores, bool wait);
    int in_flight();

private:
    enum class SlotState { kQueued, kRunning, kDone };
    struct Slot {
        FloatAdmPlane ref = {}, dist = {};
        SlotState state = SlotState::kDone;
        int result = 0;
        FloatAdmScores scores = {};
    };
    /* One call of an engine's executor: its row jobs, which any free worker may take. */
    struct RowBatch {
        FloatAdmJobFn job;
        void *arg;
        int nb_jobs;
        int next = 0;
        int done = 0;
        int result = 0;
    };

    /* Stops and joins the workers. */
    void stop();
    /* Scores the slot's frame on engine, made first if it is null. */
    int score(std::unique_ptr<Engine> &engine, const Slot &slot, FloatAdmScores *scores);
    static int execute_rows(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs);
    /* Runs the next job of batch; called with the lock held, returns with it held. */
    void run_row_job(std::unique_lock<std::mutex> &lock, RowBatch &batch);
    void worker_loop();

    const int width_, height_, bit_depth_;
    const FloatAdmOptions opts_;
    const SimdLevel level_;
    const int row_jobs_; /* each frame's: more only where frames are fewer than threads */

    std::mutex mutex_;
    std::condition_variable work_;     /* a frame or row job to take, or stopping */
    std::condition_variable finished_; /* a frame or a row batch finished */
    std::vector<Slot> slots_;
    /* Guarded by mutex_: the oldest frame not collected, how many are not collected,
     * and how many of those (from head_ on) were started. */
    int head_ = 0, count_ = 0, started_ = 0;
    std::deque<RowBatch *> batches_; /* those with jobs not taken yet */
    std::vector<std::unique_ptr<Engine>> idle_engines_; /* made, scoring no frame */
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

} // namespace adm

#endif /* ADM_FRAME_QUEUE_H */
