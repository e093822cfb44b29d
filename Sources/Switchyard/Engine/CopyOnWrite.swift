/// The storage object of a copy-on-write table.
@usableFromInline
protocol TableStorage: AnyObject {
    /// A copy of `other`, for a table whose storage a reader still holds.
    init(copying other: Self)
}

/// A value type over one storage object, copied only when written while
/// shared: a decision or delivery holds the storage it reads (one retain),
/// so a condition or handler that adds or removes something changes the
/// machine's table, not the one being read.
@usableFromInline
protocol CopyOnWriteTable {
    associatedtype Storage: TableStorage
    var storage: Storage { get set }
}

extension CopyOnWriteTable {
    /// The storage, copied first if a reader still holds it.
    @inlinable
    var uniqueStorage: Storage {
        mutating get {
            makeStorageUnique()
            return storage
        }
    }

    /// Gives the table a storage of its own to change: a copy if a reader
    /// holds the storage.
    @inlinable
    @inline(__always)
    mutating func makeStorageUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            replaceStorageWithCopy()
        }
    }

    /// Out of line: the slow path of every change (the copy itself is
    /// compiled once, in the library).
    @inlinable
    @inline(never)
    mutating func replaceStorageWithCopy() {
        storage = Storage(copying: storage)
    }

    /// Runs `body` with the storage, copied first if a reader still holds it:
    /// for a change that runs no code of the user's, which cannot replace the
    /// storage while `body` uses it.
    @inlinable
    mutating func withUniqueStorage<Result>(_ body: (Storage) -> Result) -> Result {
        makeStorageUnique()
        return body(storage)
    }
}
