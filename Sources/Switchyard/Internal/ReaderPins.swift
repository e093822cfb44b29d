/// How many readers hold a copy-on-write table's storage without a retain,
/// and whether a writer replaced it while they did.
///
/// A step reads the machine's tables many times, and a retain and a release
/// of their storage at each read (an atomic instruction each) cost more than
/// the reading. So a reader pins the storage instead, which is a plain count.
///
/// Invariants:
/// - A table's storage is replaced only by ``CopyOnWriteTable/uniqueStorage``
///   (a machine never assigns a whole table over its own).
/// - While the count is above zero, the storage is not changed in place: a
///   writer (``CopyOnWriteTable/uniqueStorage``) gives its table a copy and
///   calls ``PinnableStorage/keepForReaders()`` on the pinned storage, which then holds one
///   retain on behalf of its readers. The one exception changes nothing a
///   reader reads: a handler table boxes a handler's closure at its first
///   call (``HandlerTable/StoredBody/box``).
/// - The reader that unpins last releases that retain
///   (``PinnableStorage/withPin(_:)``), after its last use of the storage.
/// - Pins and unpins come from the thread that owns the machine at the time
///   (as every read and write of its tables does), and a table's storage
///   belongs to one machine (no two machines share one; a definition's own
///   table is never pinned), so the count needs no atomic instruction.
/// - A pin keeps the storage alive against a writer that replaces it, not
///   against its machine going away: the machine lives through the step.
///   Debug builds check in each storage's `deinit` that no reader holds it.
@usableFromInline
struct ReaderPins {
    @usableFromInline var count = 0
    /// Whether a writer replaced the storage while it was pinned, and so
    /// retained it for its readers.
    @usableFromInline var isReplaced = false

    @inlinable
    init() {}
}

/// A table storage that readers can pin (see ``ReaderPins``).
@usableFromInline
protocol PinnableStorage: AnyObject {
    var readerPins: ReaderPins { get set }
}

extension PinnableStorage {
    /// Whether a reader holds this storage pinned.
    @inlinable
    var isPinned: Bool { readerPins.count > 0 }

    /// Calls `body` with this storage pinned: a writer that wants to change
    /// it meanwhile changes a copy instead. The caller keeps the storage
    /// alive until `body` starts (its table holds it); the pin keeps it alive
    /// from then on, even if a writer replaces it in the table.
    @inlinable
    @inline(__always)
    func withPin<Result>(_ body: (Self) -> Result) -> Result {
        pin()
        let result = body(self)
        unpin()
        return result
    }

    /// Pins this storage, which the caller's table holds now, for a reader
    /// that lets it go with ``unpin()``.
    @inlinable
    @inline(__always)
    func pin() {
        readerPins.count += 1
    }

    /// Lets go of a pin; the storage may be gone after this, if its table
    /// let it go while it was pinned.
    @inlinable
    @inline(__always)
    func unpin() {
        assert(isPinned, "Switchyard: unpinned a storage that no reader holds")
        readerPins.count -= 1
        if readerPins.count == 0, readerPins.isReplaced {
            // The writer's retain, made for the readers. This may free
            // `self`: nothing after it touches the storage.
            readerPins.isReplaced = false
            Unmanaged.passUnretained(self).release()
        }
    }

    /// Keeps this pinned storage alive for its readers once its table lets
    /// it go: called by the writer that gives the table a copy instead.
    @inlinable
    func keepForReaders() {
        assert(isPinned, "Switchyard: kept a storage for readers that holds none")
        guard !readerPins.isReplaced else { return }
        readerPins.isReplaced = true
        _ = Unmanaged.passUnretained(self).retain()
    }
}

extension Unretained where Object: PinnableStorage {
    /// Calls `body` with the storage pinned (see ``PinnableStorage/withPin(_:)``),
    /// neither retained nor released: for a table that a class holds,
    /// `Unretained(owner.table.storage).withPinnedObject { … }` reads the
    /// class's property only to make this reference, before `body` runs.
    @inlinable
    @inline(__always)
    func withPinnedObject<Result>(_ body: (Object) -> Result) -> Result {
        withObject { $0.withPin(body) }
    }
}
