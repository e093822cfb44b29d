/// A closure alone in an object: what a table keeps for each handler and
/// route mapping, so that a delivery or decision can call it without a
/// retain.
///
/// A closure read out of an array is copied, which retains its context and
/// releases it after the call: two atomic operations, which cost a step with
/// one handler about as much time as choosing it. Read from this object's
/// `let` while the object is lent (``Unretained``), the closure is borrowed
/// instead. Whoever lends the object says what keeps it alive.
@usableFromInline
final class ClosureBox<Body> {
    @usableFromInline let body: Body

    @inlinable
    init(_ body: Body) {
        self.body = body
    }
}
