/// What watches a machine's decisions from outside its handlers: the async
/// sequences of ``Machine/transitions(includingRefusals:bufferingPolicy:)``
/// and the observable model of ``Machine/observable``. A machine has none
/// until one is asked for, and then hears of every decision in the order it
/// takes them (before the handlers of each run, so that a request a handler
/// makes is heard after the one it reacted to, whatever the delivery policy).
///
/// Lives in the machine's isolation domain, as the machine does: a
/// subscriber that stops iterating is dropped the next time a record is
/// yielded to it (its continuation answers `.terminated`), so nothing here
/// is touched from another thread.
@usableFromInline
final class TransitionWatchers<S: StateType, E: EventType> {
    /// One subscriber's stream, reached through functions made where the
    /// records are known to be `Sendable`.
    struct Subscriber {
        /// Yields a record; `false` once the stream has ended.
        let yield: (TransitionRecord<S, E>) -> Bool
        let finish: () -> Void
        let hearsRefusals: Bool
        var hasEnded = false
    }

    private var subscribers: [Subscriber] = []
    /// Whether any subscriber hears refusals: if none does, a refusal costs
    /// only this check.
    private(set) var hearRefusals = false
    /// Updates the observable model with the machine's state, if it has one.
    @usableFromInline var observe: (() -> Void)?
    /// The observable model, kept while the machine lives.
    var observable: AnyObject?
    /// The observers of ``Machine/inspect(_:)``, by the number each was given.
    private var inspectors: [(id: Int, observer: (Inspection<S, E>) -> Void)] = []
    private var nextInspectorID = 0
    /// Whether any observer inspects the machine: if none does, a decision
    /// builds no ``Inspection``.
    @usableFromInline
    private(set) var hasInspectors = false

    init() {}

    /// How many subscribers are kept.
    var subscriberCount: Int { subscribers.count }

    /// Adds a subscriber.
    func subscribe(_ subscriber: Subscriber) {
        subscribers.append(subscriber)
        hearRefusals = hearRefusals || subscriber.hearsRefusals
    }

    /// Yields `record` to every subscriber that hears it, and drops those
    /// that stopped listening.
    func hear(_ record: TransitionRecord<S, E>) {
        if let observe, record.isAccepted {
            observe()
        }
        var hasEnded = false
        for index in subscribers.indices where record.isAccepted || subscribers[index].hearsRefusals {
            if !subscribers[index].yield(record) {
                subscribers[index].hasEnded = true
                hasEnded = true
            }
        }
        guard hasEnded else { return }
        subscribers.removeAll { $0.hasEnded }
        hearRefusals = subscribers.contains { $0.hearsRefusals }
    }

    /// Adds an observer of every decision; returns the number that removes it.
    func addInspector(_ observer: @escaping (Inspection<S, E>) -> Void) -> Int {
        nextInspectorID += 1
        inspectors.append((nextInspectorID, observer))
        hasInspectors = true
        return nextInspectorID
    }

    /// Removes the observer `id` names, if it is still kept.
    func removeInspector(_ id: Int) {
        inspectors.removeAll { $0.id == id }
        hasInspectors = !inspectors.isEmpty
    }

    /// Shows `inspection` to every observer, in the order they were added.
    /// A local copy: an observer may add or remove observers.
    func inspect(_ inspection: Inspection<S, E>) {
        let inspectors = self.inspectors
        for inspector in inspectors {
            inspector.observer(inspection)
        }
    }

    /// Ends every subscriber's stream: the machine is going away.
    func finish() {
        for subscriber in subscribers {
            subscriber.finish()
        }
        subscribers.removeAll()
    }
}
