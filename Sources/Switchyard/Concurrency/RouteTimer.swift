/// The timer of one timed route (see ``Machine/addTimedRoute(after:_:condition:clock:isolation:)``):
/// armed when the route's source is entered, disarmed when it is left, and
/// offering the route once when it fires.
///
/// Each arming starts a task, made by `start`, that sleeps until the
/// deadline and then asks the machine to fire the timer with the generation
/// it was started for; arming again or disarming moves to a new generation
/// and cancels the task, so a late task finds its generation gone and does
/// nothing. The task holds neither the timer nor the machine, so neither
/// outlives its owner: a machine released lets its timers go, which cancel
/// their tasks.
final class RouteTimer {
    /// Counts armings and disarmings: what a firing task must still match.
    private(set) var generation: UInt64 = 0
    /// Whether the timer is firing: the route's condition holds only then.
    var isDue = false
    private var task: Task<Void, Never>?
    /// Makes the task that sleeps and fires, for a generation.
    private let start: (UInt64) -> Task<Void, Never>

    init(start: @escaping (UInt64) -> Task<Void, Never>) {
        self.start = start
    }

    deinit {
        task?.cancel()
    }

    /// Starts counting again from now: the source has been entered.
    func arm() {
        disarm()
        task = start(generation)
    }

    /// Stops counting: the source has been left, or the route removed.
    func disarm() {
        generation &+= 1
        task?.cancel()
        task = nil
    }

    /// Whether a task started for `generation` may fire: the timer has not
    /// been armed again or disarmed since. Ends the count if so.
    func mayFire(_ generation: UInt64) -> Bool {
        guard generation == self.generation else { return false }
        task = nil
        return true
    }
}
