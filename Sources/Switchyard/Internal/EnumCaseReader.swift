/// Reads which case an enum value is, without reflecting and without allocating.
///
/// Every enum type's metadata points to its value witness table, the table of
/// functions the compiler itself calls to copy, destroy and `switch` over
/// values of a type it does not know at compile time (an enum from a
/// resilient library, a generic parameter). Its layout is part of Swift's
/// stable ABI (swift/docs/ABI/TypeMetadata.rst, "Value Witness Tables"); for
/// enums it ends with `getEnumTag`, which returns the case's index: cases with
/// a payload first, in declaration order, then the cases without one.
///
/// This reads that one function pointer and calls it. Nothing is called by a
/// private symbol name, nothing is written, and a type that is not an enum
/// (its metadata kind says so) gets no reader: callers then fall back to
/// `Mirror`. Where function pointers in that table are signed (arm64e), the
/// reader is not made either.
@usableFromInline
struct EnumCaseReader {
    /// `getEnumTag(value, metadata) -> UInt32`.
    @usableFromInline typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32

    @usableFromInline let metadata: UnsafeRawPointer
    @usableFromInline let getTag: GetTag

    /// The reader for `type`, or `nil` if it is not an enum (or the platform
    /// signs the table's pointers).
    @usableFromInline
    init?<Value>(for type: Value.Type) {
        #if _ptrauth(_arm64e)
            return nil
        #else
            let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
            // Metadata kinds: 0x201 is an enum, 0x202 `Optional`.
            let kind = metadata.load(as: UInt.self)
            guard kind == 0x201 || kind == 0x202 else { return nil }
            let word = MemoryLayout<UnsafeRawPointer>.size
            let table = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
            // Eight functions, `size` and `stride` (a word each), `flags` and
            // `extraInhabitantCount` (four bytes each), then `getEnumTag`.
            let function = table.load(fromByteOffset: 10 * word + 8, as: UnsafeRawPointer.self)
            self.metadata = metadata
            self.getTag = unsafeBitCast(function, to: GetTag.self)
        #endif
    }

    /// The index of `value`'s case.
    ///
    /// - Complexity: One indirect call; no allocation.
    @inlinable
    func caseIndex<Value>(of value: Value) -> Int {
        withUnsafePointer(to: value) { Int(getTag(UnsafeRawPointer($0), metadata)) }
    }
}
