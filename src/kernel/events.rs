//! The event log: what happened inside one action, for logs, the EP table
//! and replays. Rules emit events into a sink; the hot path passes `()`,
//! which the compiler erases, so bots and perft pay nothing for the log.

/// Receives the events of a game as they happen.
pub trait Sink<E> {
    fn emit(&mut self, event: E);
}

/// Discards every event.
impl<E> Sink<E> for () {
    #[inline(always)]
    fn emit(&mut self, _event: E) {}
}

/// Collects every event in order.
impl<E> Sink<E> for Vec<E> {
    fn emit(&mut self, event: E) {
        self.push(event);
    }
}

/// A borrowed sink is a sink, so one can be passed on as `&mut dyn Sink`.
impl<E, S: Sink<E> + ?Sized> Sink<E> for &mut S {
    fn emit(&mut self, event: E) {
        (**self).emit(event);
    }
}
