/*
 * heddle's optional C fast paths for Heddle::MaskedLock#synchronize and
 * Heddle::Semaphore#acquire with a block.
 *
 * MaskedLock (lib/heddle/heddle/masked_lock.rb): a lock free now is taken
 * and its ensure set up in one step, with no wait in the mutex's queue, so
 * no Thread.handle_interrupt is needed; a lock held by someone else goes to
 * the Ruby path, which waits with interrupts held back.
 *
 * Semaphore#acquire with a block
 * (lib/heddle/heddle/sync/semaphore.rb; docs/sync.md "Semaphore"). A slot
 * taken in Ruby must be given back by an ensure, and Ruby may raise an
 * asynchronous interrupt (Thread#raise, Thread#kill, a timeout) between the
 * taking and the ensure, or at the start of the ensure: the pure-Ruby path
 * closes those windows with Thread.handle_interrupt, which costs more than the
 * rest of an uncontended acquire (see the sync benchmark). C code that holds
 * the GVL is never interrupted, so here the slot is counted and the ensure set
 * up in one step, as Mutex#synchronize does for a lock, and given back in
 * C when nobody waits. Anything else (a waiter, the semaphore's lock held by
 * another thread) goes to the Ruby path.
 */
#include <ruby.h>

static ID id_count, id_limit, id_waiting, id_mutex, id_release;
static VALUE busy;

/* Whether the slots can be counted here: nobody waits, and no thread is
 * inside the semaphore's lock (it may be halfway through a change). */
static int
quiet_p(VALUE semaphore)
{
    VALUE waiting = rb_ivar_get(semaphore, id_waiting);
    return RB_TYPE_P(waiting, T_ARRAY) && RARRAY_LEN(waiting) == 0 &&
           rb_mutex_locked_p(rb_ivar_get(semaphore, id_mutex)) == Qfalse;
}

static VALUE
run_block(VALUE unused)
{
    return rb_yield_values(0);
}

/* The ensure: a slot back, in C while nobody waits, else by #release. */
static VALUE
give_back(VALUE semaphore)
{
    VALUE count = rb_ivar_get(semaphore, id_count);
    if (quiet_p(semaphore) && FIXNUM_P(count) && FIX2LONG(count) > 0) {
        rb_ivar_set(semaphore, id_count, LONG2FIX(FIX2LONG(count) - 1));
        return Qnil;
    }
    return rb_funcall(semaphore, id_release, 0);
}

/*
 * NativeSync.acquire(semaphore) { ... }: takes a free slot, runs the block
 * and gives the slot back, returning the block's value; or returns
 * NativeSync::BUSY, having done nothing, when the slot cannot be taken here
 * (all held, a waiter, the lock held).
 */
static VALUE
native_acquire(VALUE self, VALUE semaphore)
{
    VALUE count = rb_ivar_get(semaphore, id_count);
    VALUE limit = rb_ivar_get(semaphore, id_limit);

    rb_need_block();
    if (!FIXNUM_P(count) || !FIXNUM_P(limit) || FIX2LONG(count) >= FIX2LONG(limit) || !quiet_p(semaphore)) {
        return busy;
    }
    rb_ivar_set(semaphore, id_count, LONG2FIX(FIX2LONG(count) + 1));
    return rb_ensure(run_block, Qnil, give_back, semaphore);
}

static VALUE
unlock_mutex(VALUE mutex)
{
    return rb_mutex_unlock(mutex);
}

/*
 * NativeSync.synchronize(mutex) { ... }: takes a free mutex, runs the block
 * and unlocks it, returning the block's value; or returns NativeSync::BUSY,
 * having done nothing, when the mutex is held (by anyone, the caller too).
 */
static VALUE
native_synchronize(VALUE self, VALUE mutex)
{
    rb_need_block();
    if (rb_mutex_trylock(mutex) == Qfalse) {
        return busy;
    }
    return rb_ensure(run_block, Qnil, unlock_mutex, mutex);
}

void
Init_heddle_sync(void)
{
    VALUE heddle = rb_define_module("Heddle");
    VALUE native = rb_define_module_under(heddle, "NativeSync");

    id_count = rb_intern("@count");
    id_limit = rb_intern("@limit");
    id_waiting = rb_intern("@waiting");
    id_mutex = rb_intern("@mutex");
    id_release = rb_intern("release");
    busy = rb_obj_freeze(rb_obj_alloc(rb_cObject));
    /* Both touch only the objects they are given, which belong to the
     * caller's Ractor: callable from any Ractor (a loop's lock is taken in
     * worker ractors). NativeIO, defined after, stays main-Ractor only. */
    rb_ext_ractor_safe(true);
    rb_define_const(native, "BUSY", busy);
    rb_define_singleton_method(native, "acquire", native_acquire, 1);
    rb_define_singleton_method(native, "synchronize", native_synchronize, 1);
    rb_ext_ractor_safe(false);
}
