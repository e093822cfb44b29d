/// What `add…` returns for one handler, route or mapping: the ``Disposable``
/// that removes it.
///
/// A value of three words (the machine's ``RegistrationOwner``, the
/// registration, the node that holds it), so that it fits in a `Disposable`
/// existential without allocating. It keeps no state of its own: the machine
/// knows whether the node still holds this registration, so disposing twice
/// (or a copy) does nothing, and a node reused by a later registration is
/// never touched.
@usableFromInline
struct Registration: Disposable {
    /// Which table holds the registration.
    @usableFromInline
    enum Kind: UInt8 {
        case handler, eventRoute, stateRoute, routeMapping, stateRouteMapping
    }

    @usableFromInline let owner: RegistrationOwner
    @usableFromInline let id: RegistrationID
    @usableFromInline let node: Int32
    @usableFromInline let kind: Kind

    @inlinable
    init(owner: RegistrationOwner, id: RegistrationID, node: Int32, kind: Kind) {
        self.owner = owner
        self.id = id
        self.node = node
        self.kind = kind
    }

    @usableFromInline var disposed: Bool {
        guard let machine = owner.machine else {
            return !owner.heldWhenReleased.contains(id)
        }
        return !owner.access(machine, self, false)
    }

    @usableFromInline
    func dispose() {
        guard let machine = owner.machine else {
            owner.heldWhenReleased.remove(id)
            return
        }
        _ = owner.access(machine, self, true)
    }
}

extension Registration {
    /// The registration as the `Disposable` an `add…` method returns, made
    /// out of line on purpose: inlined into an app's code, the optimiser sees
    /// the concrete type inside the existential and copies the value (a
    /// retain and a release of the owner) when the caller stores the result.
    @inline(never)
    static func disposable(owner: RegistrationOwner, id: RegistrationID, node: Int32, kind: Kind) -> Disposable {
        Registration(owner: owner, id: id, node: node, kind: kind)
    }
}

/// What `add…` returns for several routes added in one call.
final class BatchRegistration: Disposable {
    @usableFromInline let parts: [Registration]

    @inlinable
    init(parts: [Registration]) {
        self.parts = parts
    }

    @usableFromInline var disposed: Bool {
        parts.allSatisfy(\.disposed)
    }

    @usableFromInline
    func dispose() {
        for part in parts {
            part.dispose()
        }
    }
}

/// The way back from a machine's registrations to the machine, cut when the
/// machine goes away.
///
/// One per machine, shared by all its registrations, so that making a
/// registration forms no weak reference and disposing one loads none: the
/// machine sets ``machine`` once it is made and clears it in its `deinit`.
/// The reference is ``Unretained``, so that disposing costs no retain and
/// release of the machine: while ``machine`` is set, the machine is alive
/// (debug builds check it at each use). The machine may go away during
/// ``access`` (when the last thing removed held the last reference to it),
/// so ``access`` touches it no more after letting go of what it removed.
@usableFromInline
final class RegistrationOwner {
    @exclusivity(unchecked) var machine: Unretained<AnyObject>?
    /// Once the machine is gone: the registrations it still held then, less
    /// those disposed since. Filled only if registrations outlive the machine,
    /// so that `disposed` still means "``Disposable/dispose()`` was called".
    @exclusivity(unchecked) var heldWhenReleased: Set<RegistrationID> = []
    /// Whether `machine` still holds the registration, removing it first when
    /// the flag says so; made by the machine's `init`, compiled once in the
    /// library, as disposing is.
    @usableFromInline let access:
        (_ machine: Unretained<AnyObject>, _ registration: Registration, _ removing: Bool) -> Bool

    init(access: @escaping (Unretained<AnyObject>, Registration, Bool) -> Bool) {
        self.access = access
    }
}
